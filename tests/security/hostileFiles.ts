/** Hostile input files for the security tests, built by hand (testkit/rawVrma.ts). */
import { RawGlb } from '../../testkit/rawVrma';
import { glbOfJsonText } from './hostileReaders';

/** `accessors` rotation channels, each its own accessor over the SAME normalized int16 view of `keys` keys. */
export function sharedViewVrma(accessors: number, keys: number): Uint8Array {
  const g = new RawGlb();
  const times = g.floats(Array.from({ length: keys }, (_, i) => i / 30), 'SCALAR');
  const q = new Int16Array(keys * 4);
  for (let i = 0; i < keys; i++) q[i * 4 + 3] = 32767; // identity rotations
  const view = g.view(new Uint8Array(q.buffer));
  const samplers = [];
  const channels = [];
  for (let a = 0; a < accessors; a++) {
    const out = g.accessor({ bufferView: view, componentType: 5122, normalized: true, count: keys, type: 'VEC4' });
    samplers.push({ input: times, output: out });
    channels.push({ sampler: a, target: { node: a, path: 'rotation' } });
  }
  return g.build({
    asset: { version: '2.0' },
    extensionsUsed: ['VRMC_vrm_animation'],
    extensions: { VRMC_vrm_animation: { specVersion: '1.0', humanoid: { humanBones: { hips: { node: 0 } } } } },
    nodes: Array.from({ length: accessors }, (_, i) => ({ name: `n${i}` })),
    animations: [{ channels, samplers }],
  });
}

/**
 * A .vrma whose JSON chunk lists `nodes` empty nodes (`{}`), written as text so that building it
 * costs only the text (JSON.stringify of the array would itself allocate every node).
 */
export function emptyNodesVrma(nodes: number): Uint8Array {
  const head = '{"asset":{"version":"2.0"},"extensionsUsed":["VRMC_vrm_animation"],"extensions":{"VRMC_vrm_animation":{"specVersion":"1.0"}},"nodes":[';
  return glbOfJsonText(head + (nodes ? '{},'.repeat(nodes - 1) + '{}' : '') + ']}');
}
