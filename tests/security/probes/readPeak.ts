/**
 * Run in a fresh process (node --import tsx tests/security/probes/readPeak.ts NODES): builds a .vrma
 * of NODES empty nodes, then reads it and prints, as one JSON line, how the read ended and how much
 * the process's peak resident memory (VmHWM) grew during the read alone. A fresh process, because the
 * peak of a test worker that already did other work would hide the read's own.
 */
import { readFileSync } from 'node:fs';
import { readVrma } from '../../../shared/vrma/read';
import { MotionError } from '../../../shared/errors';
import { emptyNodesVrma } from '../hostileFiles';

const peakMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

const nodes = Number(process.argv[2]);
const bytes = emptyNodesVrma(nodes);
const before = peakMb();
let outcome: { code: string; message: string };
try {
  readVrma(bytes);
  outcome = { code: 'READ', message: '' };
} catch (e) {
  outcome = e instanceof MotionError ? { code: e.code, message: e.message } : { code: 'CRASH', message: String(e) };
}
process.stdout.write(JSON.stringify({ ...outcome, fileBytes: bytes.length, peakGrowthMb: peakMb() - before }) + '\n');
