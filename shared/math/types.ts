/**
 * The plain value types of the math below everything else: math owns them so that it imports from
 * nothing above it (the motion model re-exports them for its users).
 */
export type Quat = readonly [number, number, number, number];
export type Vec3 = readonly [number, number, number];
/** Column-major 4x4 matrix, as glTF stores it. */
export type Mat4 = readonly number[];
