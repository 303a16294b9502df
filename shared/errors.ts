/**
 * The one error type the motion core throws for bad input. Callers (UI, CLI, host) show `message`
 * and branch on `code`; anything else escaping the core is a bug.
 */
export type MotionErrorCode =
  | 'NOT_GLB'
  | 'TRUNCATED'
  | 'BAD_CHUNK'
  | 'BAD_JSON'
  | 'NOT_VRMA'
  | 'BAD_ACCESSOR'
  | 'OUT_OF_BOUNDS'
  | 'TOO_LARGE'
  | 'BAD_DATA'
  | 'UNSUPPORTED'
  | 'BAD_PARAMETER'
  | 'BAD_BVH'
  | 'BAD_VMD'
  | 'BAD_VPD'
  | 'BAD_PMX'
  | 'BAD_FBX'
  | 'BAD_GLTF'
  | 'NO_KEYS'
  | 'IS_AVATAR'
  | 'NO_HUMANOID';

export class MotionError extends Error {
  readonly code: MotionErrorCode;
  constructor(code: MotionErrorCode, message: string) {
    super(message);
    this.name = 'MotionError';
    this.code = code;
  }
}

export function fail(code: MotionErrorCode, message: string): never {
  throw new MotionError(code, message);
}
