--- ik2d.follow: the name ik2d.smooth had before 0.3.0, kept for one
-- release; it is that module (its errors name ik2d.smooth).  The
-- solver method "follow" (a rope) is another thing.
return require "ik2d.smooth"
