/**
 * Files that hold several motions ("takes"): FBX animation stacks and glTF animations. Listing them
 * (`vrma-studio convert --list-takes`), choosing one, and the output name of each: one take writes
 * NAME.vrma, several write NAME.TAKE.vrma with the take's name made safe for every file system. The
 * listing and converting are the take formats' codecs (codecs.ts).
 */
export { isMotionGltf } from './gltfKind';

export type { TakeInfo } from '../convert/takeInfo';
export { listTakes, openTakes, type TakeSource } from './codecs';

// Which files hold takes is listed with the other formats (formats.ts).
export { TAKE_EXTENSIONS, hasTakes } from './formats';

// Take names as file names (NAME.TAKE.vrma) follow the one naming module, which needs no converter.
export { safeTakeName, takeOutputs } from './outputNames';

// The take opened when none is named (the longest keyed one), for the planner, the codecs and the picker.
export { preferredTake } from './preferredTake';
