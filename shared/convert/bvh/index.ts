export { parseBvh, BVH_LIMITS, type Bvh, type BvhJoint, type BvhChannel } from './parse';
export { convertBvh, convertBvhDetailed, type BvhConvertOptions, type BvhConversion } from './convertBvh';
export { recognizeSkeleton, type BoneMap, type Recognition } from '../humanoid/recognize';
export { UNIT_METRES, type BvhUnit } from '../humanoid/bodyFrame';
export { BvhPoser } from './forwardKinematics';
