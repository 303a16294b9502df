/**
 * Quantized .vrma output: rotation keys stored as normalized 16-bit integers (glTF 2.0 core allows
 * normalized BYTE/SHORT rotation outputs: 8 bytes a key instead of 16). A component v becomes
 * round(v · 32767); readers get back k / 32767 (clamped at -1) and, like our reader, normalize.
 *
 * Error: each component moves by at most 0.5/32767, the 4D key by at most 1/32767, so the rotation
 * it stands for by at most 2·asin(1/32767) ≈ 6.1e-5 rad. optimize({ quantize: true }) keeps
 * ROTATION_RESERVE of the tolerance for that and measures the rounded keys it returns.
 *
 * Only rotations: glTF requires float outputs for translation and scale, and a VRMA expression
 * weight is the translation.x of its node, so weights and the hips position stay float (the
 * validator reports normalized integer translations as ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT).
 * Key times must be float in glTF too.
 */

export const ROTATION_SCALE = 32767;
/** Largest rotation change (radians) that rounding a unit key to 16 bits can cause. */
export const ROTATION_ROUNDING_ERROR = 2 * Math.asin(1 / ROTATION_SCALE);
/** Part of the rotation tolerance optimize keeps for rounding (above the bound, for interpolation between rounded keys). */
export const ROTATION_RESERVE = 7e-5;

/** One component as stored: round to the nearest step, clamped to the normalized range. */
export function quantizeComponent(v: number): number {
  return Math.max(-ROTATION_SCALE, Math.min(ROTATION_SCALE, Math.round(v * ROTATION_SCALE)));
}

/** The 16-bit integers a quantized file stores for these rotation values. */
export function quantizeRotations(values: Float32Array, out: Int16Array = new Int16Array(values.length)): Int16Array {
  for (let i = 0; i < values.length; i++) out[i] = quantizeComponent(values[i]);
  return out;
}

/**
 * The rotation values after a trip through 16 bits, as floats: k / 32767. quantizeRotations of the
 * result gives the same integers back, so a Motion holding these values is written losslessly.
 */
export function roundRotations(values: Float32Array): Float32Array {
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = quantizeComponent(values[i]) / ROTATION_SCALE;
  return out;
}
