/** Every motion edit: pure functions Motion -> Motion that never mutate their input. */
export { keepRange } from './keepRange';
export { deleteRange, DEFAULT_DELETE_BLEND } from './deleteRange';
export { changeSpeed } from './speed';
export { reverse } from './reverse';
export { mirror } from './mirror';
export { inPlace } from './inPlace';
export { smooth, DEFAULT_SIGMA, MAX_SIGMA } from './smooth';
export { loopSeam, DEFAULT_LOOP_BLEND } from './loopSeam';
export { strip, type StripOptions } from './strip';
export { optimize, DEFAULT_ROTATION_TOLERANCE, DEFAULT_POSITION_TOLERANCE, type OptimizeOptions } from './optimize';
export { fixOutliers, findOutlierFrames } from './fixOutliers';
export { join, DEFAULT_JOIN_BLEND, type JoinOptions } from './join';
export { resample } from './resample';
export { pinFeet, pinFeetDetailed, detectFootContacts, measureContacts, type FootContact, type PinFeetParams } from './pinFeet';
export { applyPoseDelta, type PoseDeltaOptions } from './poseDelta';
export { motionAmount, AMOUNT_RATE } from './motionAmount';
export { maxPoseError, type PoseError } from './poseError';
export { motionSeam } from './motionSeam';
