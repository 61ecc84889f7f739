-- generated from lua/ik2d/api.lua by make gen: lua/ik2d/pure/numbers.lua
--- ik2d.pure.numbers: the thresholds the solves share, as
-- src/ik2d_numbers.h (the reference, with why each is what it is)
-- defines them; make gen writes this file from that one.
return {
  ROT_NORM_MIN = 0.25,
  ROT_NORM_MAX = 4.0,
  ROT_DRIFT = 1e-14,
  CCD_STALL_GAIN = 1e-9,
  CCD_SLOW_GAIN = 0.3,
  CCD_FAR = 100.0,
  EXACT_DEGENERATE = 0.01,
  EXACT_SQUARES_MIN = 1e-140,
  EXACT_SQUARES_MAX = 1e140,
  TURN_NORM_MIN = 1e-150,
  TURN_NORM_MAX = 1e150,
  ON_LIMIT = 1e-9,
  ORIENT_ROUNDS = 3,
  JOINT_STALL = 3,
  JOINT_STALLS_MAX = 65535,
  SCATTER_MODULUS = 2147483647,
  SCATTER_SEED = 16807,
  SCATTER_STEP = 48271,
  DLS_ROWS = 32,
  DLS_COLUMNS = 64,
  DLS_TRIES = 4,
  DLS_MAX_TURN = 0.6,
  DLS_LAMBDA = 1e-2,
}
