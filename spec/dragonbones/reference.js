// The DragonBones runtime as a reference: the DragonBones core of the npm
// package pixi-dragonbones-runtime (MIT), run under node with no browser
// and no pixi.js (its core classes only, with a factory and slots that
// draw nothing). It plays an armature's animation and prints, at each
// time asked, every bone's world matrix and every slot's display, colour
// and mesh (its vertices in armature space), as JSON on stdout:
//
//   node spec/dragonbones/reference.js SKE_JSON ARMATURE ANIMATION TIME...
//
//   {"runtime": "5.7.000", "armature": "...", "animation": "...",
//    "frame_rate": 24, "duration": 1.25, "play_times": 0,
//    "poses": [{"time": 0.1,
//               "bones": {"name": [a, b, c, d, x, y], ...},
//               "slots": {"name": {"display": 0, "color": [r, g, b, a],
//                                  "vertices": [x1, y1, ...] or null}, ...}}]}
//
// A bone's matrix in ik2d's convention: x axis (a, c), y axis (b, d),
// origin (x, y), in the armature's space (y down), the point (u, v) of
// the bone's space at (a u + b v + x, c u + d v + y). The runtime's own
// Matrix has the x axis in (a, b) and the y axis in (c, d): a and d are
// the same, its b is ik2d's c and its c ik2d's b.
//
// How a time maps to a pose: for each time a new armature is built (its
// setup pose), animation.play(ANIMATION) starts the animation with the
// play count the file gives (playTimes; 0 loops for ever) and no fade-in
// (the first animation played never fades: its weight is 1 from the
// first update), then one armature.advanceTime(TIME) moves its clock by
// TIME seconds and updates every bone and slot: the pose at TIME. The
// runtime finds the key of a timeline by the whole frame
// floor(time x frameRate) and tweens from it, so a time on a key's frame
// is best avoided (rounding picks either side); past the end a looping
// animation wraps (time modulo duration), a finite one holds its end.
// ANIMATION "-" prints the setup pose.
//
// The package is looked up from IK2D_DRAGONBONES_RUNTIME (a folder that
// holds node_modules), else build/npm in this checkout (make deps-node
// installs it there).
"use strict";
const fs = require("fs");
const path = require("path");

function runtimeFolder() {
  const root = process.env.IK2D_DRAGONBONES_RUNTIME || path.join(__dirname, "..", "..", "build", "npm");
  const main = require.resolve("pixi-dragonbones-runtime", { paths: [root] });
  return path.dirname(main);
}

const lib = runtimeFolder();
const core = (file) => require(path.join(lib, file));
const { BaseFactory } = core("factory/BaseFactory.cjs");
const { Armature } = core("armature/Armature.cjs");
const { Slot } = core("armature/Slot.cjs");
const { BaseObject } = core("core/BaseObject.cjs");
const { DragonBones } = core("core/DragonBones.cjs");
const { TextureAtlasData } = core("model/TextureAtlasData.cjs");

// The runtime pools its objects by class name: each class says its own.
class NullAtlas extends TextureAtlasData {
  static toString() { return "[class ik2d.NullAtlas]"; }
  createTexture() { return null; }
}

// A slot that computes what the runtime computes and draws nothing.
class NullSlot extends Slot {
  static toString() { return "[class ik2d.NullSlot]"; }
  _initDisplay() {}
  _disposeDisplay() {}
  _onUpdateDisplay() {}
  _addDisplay() {}
  _replaceDisplay() {}
  _removeDisplay() {}
  _updateZOrder() {}
  _updateVisible() {}
  _updateBlendMode() {}
  _updateColor() {}
  _updateFrame() {}
  _updateMesh() {}
  _updateTransform() {}
  _identityTransform() {}
}

// The armature's proxy and the event manager: no listeners.
function nullProxy() {
  return {
    dbInit() {}, dbClear() {}, dbUpdate() {}, dispose() {},
    hasDBEventListener() { return false; }, dispatchDBEvent() {},
    addDBEventListener() {}, removeDBEventListener() {},
  };
}

class NullFactory extends BaseFactory {
  constructor() {
    super(null);
    this._dragonBones = new DragonBones(nullProxy());
  }
  _buildTextureAtlasData(atlas) { return atlas || BaseObject.borrowObject(NullAtlas); }
  _buildArmature(dataPackage) {
    const armature = BaseObject.borrowObject(Armature);
    const proxy = nullProxy();
    armature.init(dataPackage.armature, proxy, proxy, this._dragonBones);
    return armature;
  }
  _buildSlot(dataPackage, slotData, armature) {
    const slot = BaseObject.borrowObject(NullSlot);
    slot.init(slotData, armature, {}, {});
    return slot;
  }
}

// A slot's mesh in armature space, as PixiSlot._updateMesh computes it
// (weighted: each vertex the weighted sum of its bones' matrices applied
// to its bone-space positions plus the deform; unweighted: the vertices
// plus the deform, through the slot's matrix); null when it shows none.
function meshVertices(slot) {
  const geometry = slot._geometryData;
  if (geometry === null || slot._displayFrame === null) return null;
  const data = geometry.data;
  const intArray = data.intArray;
  const floatArray = data.floatArray;
  const count = intArray[geometry.offset + 0];   // GeometryVertexCount
  const deform = slot._displayFrame.deformVertices;
  const hasDeform = deform.length > 0 && geometry.inheritDeform;
  const out = [];
  const weight = geometry.weight;
  if (weight !== null) {
    const bones = slot._geometryBones;
    let iV = intArray[weight.offset + 1];           // WeigthFloatOffset
    if (iV < 0) iV += 65536;
    let iB = weight.offset + 2 + bones.length;      // WeigthBoneIndices
    for (let i = 0, iF = 0; i < count; ++i) {
      const boneCount = intArray[iB++];
      let x = 0.0, y = 0.0;
      for (let j = 0; j < boneCount; ++j) {
        const m = bones[intArray[iB++]].globalTransformMatrix;
        const w = floatArray[iV++];
        let xL = floatArray[iV++], yL = floatArray[iV++];
        if (hasDeform) { xL += deform[iF++]; yL += deform[iF++]; }
        x += (m.a * xL + m.c * yL + m.tx) * w;
        y += (m.b * xL + m.d * yL + m.ty) * w;
      }
      out.push(x, y);
    }
  } else {
    let offset = intArray[geometry.offset + 2];     // GeometryFloatOffset
    if (offset < 0) offset += 65536;
    const m = slot.globalTransformMatrix;
    for (let i = 0; i < count * 2; i += 2) {
      let x = floatArray[offset + i], y = floatArray[offset + i + 1];
      if (hasDeform) { x += deform[i]; y += deform[i + 1]; }
      out.push(m.a * x + m.c * y + m.tx, m.b * x + m.d * y + m.ty);
    }
  }
  return out;
}

function pose(armature, time) {
  const bones = {};
  for (const bone of armature.getBones()) {
    const m = bone.globalTransformMatrix;
    bones[bone.name] = [m.a, m.c, m.b, m.d, m.tx, m.ty];
  }
  const slots = {};
  for (const slot of armature.getSlots()) {
    const c = slot._colorTransform;
    slots[slot.name] = {
      display: slot.displayIndex,
      color: [c.redMultiplier, c.greenMultiplier, c.blueMultiplier, c.alphaMultiplier],
      vertices: meshVertices(slot),
    };
  }
  return { time, bones, slots };
}

function main(argv) {
  if (argv.length < 3) {
    process.stderr.write("usage: node reference.js SKE_JSON ARMATURE ANIMATION|- [TIME...]\n");
    process.exit(2);
  }
  const [file, armatureName, animationName, ...times] = argv;
  const factory = new NullFactory();
  const data = factory.parseDragonBonesData(JSON.parse(fs.readFileSync(file, "utf8")), "rig");
  if (data === null) throw new Error(file + ": the runtime does not read this file");
  const armatureData = data.getArmature(armatureName);
  if (armatureData === null) throw new Error(file + ": no armature " + armatureName);
  const animationData = animationName === "-" ? null : armatureData.getAnimation(animationName);
  if (animationName !== "-" && animationData === null) throw new Error(file + ": no animation " + animationName);
  const poses = [];
  for (const time of (times.length > 0 ? times : ["0"]).map(Number)) {
    const armature = factory.buildArmature(armatureName, "rig");
    if (animationData !== null) {
      armature.animation.play(animationName);
      armature.advanceTime(time);
    }
    poses.push(pose(armature, time));
    armature.dispose();
  }
  process.stdout.write(JSON.stringify({
    runtime: DragonBones.VERSION, armature: armatureName, animation: animationName,
    frame_rate: armatureData.frameRate,
    duration: animationData ? animationData.duration : 0,
    play_times: animationData ? animationData.playTimes : 0,
    poses,
  }) + "\n");
}

main(process.argv.slice(2));
