/**
 * BVH (Biovision Hierarchy) text parser. Accepts any rotation channel order per joint, position
 * channels on any joint, CRLF/CR/LF, tabs, End Site blocks and joint names with spaces. Every error
 * names the line it happened on, so a user can find the fault in a file of a million numbers.
 */
import { warning, type MotionWarning } from '../../warnings';
import { fail, type ErrorDetail, type ErrorParams } from '../../errors';

export type BvhChannel = 'Xposition' | 'Yposition' | 'Zposition' | 'Xrotation' | 'Yrotation' | 'Zrotation';
const CHANNEL_NAMES: ReadonlySet<string> = new Set(['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation']);

export interface BvhJoint {
  readonly name: string;
  /** Index of the parent joint, -1 for a root. */
  readonly parent: number;
  readonly offset: readonly [number, number, number];
  readonly channels: readonly BvhChannel[];
  /** Index of this joint's first channel in a frame's row of numbers. */
  readonly channelStart: number;
  /** Offset of the End Site block, when the joint has one. */
  readonly endSite?: readonly [number, number, number];
  readonly children: readonly number[];
}

export interface Bvh {
  readonly joints: readonly BvhJoint[];
  readonly frameCount: number;
  readonly frameTime: number;
  /** Numbers per frame. */
  readonly channelCount: number;
  /** frameCount * channelCount numbers, frame after frame, as written (degrees, file units). */
  readonly data: Float32Array;
  readonly warnings: readonly MotionWarning[];
}

/** Guards against files that would allocate without bound (a hostile "Frames: 1e12"). */
export const BVH_LIMITS = { maxJoints: 2048, maxValues: 64 * 1024 * 1024 };

interface MutableJoint {
  name: string;
  parent: number;
  offset: [number, number, number];
  channels: BvhChannel[];
  channelStart: number;
  endSite?: [number, number, number];
  children: number[];
}

class Lines {
  readonly lines: string[];
  index = 0;
  constructor(text: string) {
    this.lines = text.split(/\r\n|\r|\n/);
  }
  /** Next non-empty line's tokens (and its 1-based number), or undefined at the end. */
  next(): { tokens: string[]; line: number; text: string } | undefined {
    while (this.index < this.lines.length) {
      const text = this.lines[this.index++].trim();
      if (text !== '') return { tokens: text.split(/\s+/), line: this.index, text };
    }
    return undefined;
  }
}

function bad(line: number, detail: ErrorDetail, params: ErrorParams = {}): never {
  fail('BAD_BVH', detail, { line, ...params });
}

/** `keyword`: the BVH word the number belongs to, for the message (`what` when the word is the name). */
function parseNumber(tok: string | undefined, line: number, what: string, keyword = what): number {
  const n = tok === undefined ? NaN : Number(tok);
  if (tok === undefined || tok === '' || !Number.isFinite(n)) bad(line, tok === undefined || tok === '' ? 'bvh.numberMissing' : 'bvh.notNumber', { token: tok ?? '', keyword });
  return n;
}

function parseOffset(tokens: string[], line: number): [number, number, number] {
  if (tokens.length !== 4) bad(line, 'bvh.offsetCount', { count: tokens.length - 1 });
  return [parseNumber(tokens[1], line, 'OFFSET x'), parseNumber(tokens[2], line, 'OFFSET y'), parseNumber(tokens[3], line, 'OFFSET z')];
}

export function parseBvh(bytes: Uint8Array): Bvh {
  // BVH is ASCII; latin1 never fails, so stray bytes surface as a named parse error instead.
  let text = new TextDecoder('latin1').decode(bytes);
  if (text.charCodeAt(0) === 0xfeff || text.startsWith('ï»¿')) text = text.replace(/^(\uFEFF|ï»¿)/, '');
  const src = new Lines(text);
  const first = src.next();
  if (first?.tokens[0].toUpperCase() !== 'HIERARCHY') bad(first?.line ?? 1, 'bvh.noHierarchy');

  const { joints, channelCount, motionLine } = readHierarchy(src);

  const framesLine = src.next();
  if (framesLine?.tokens[0].toLowerCase() !== 'frames:') bad(framesLine?.line ?? motionLine + 1, 'bvh.framesExpected');
  const frameCount = parseNumber(framesLine.tokens[1], framesLine.line, 'Frames');
  if (!Number.isInteger(frameCount) || frameCount < 1) bad(framesLine.line, 'bvh.frameCount', { value: framesLine.tokens[1] });
  const timeLine = src.next();
  if (timeLine?.tokens[0].toLowerCase() !== 'frame' || timeLine.tokens[1]?.toLowerCase() !== 'time:') {
    bad(timeLine?.line ?? framesLine.line + 1, 'bvh.frameTimeExpected');
  }
  const frameTime = parseNumber(timeLine.tokens[2], timeLine.line, 'Frame Time');
  if (!(frameTime > 0) || frameTime > 60) bad(timeLine.line, 'bvh.frameTime', { value: timeLine.tokens[2] });
  if (channelCount === 0) bad(motionLine, 'bvh.noChannels');
  if (frameCount * channelCount > BVH_LIMITS.maxValues) {
    fail('TOO_LARGE', 'bvh.tooLarge', { line: framesLine.line, frames: frameCount, channels: channelCount });
  }

  const { data, warnings } = readFrames(src, frameCount, channelCount);
  return { joints, frameCount, frameTime, channelCount, data, warnings };
}

/** The HIERARCHY section up to MOTION: the joints, their channels (in file order) and the MOTION line. */
function readHierarchy(src: Lines): { joints: MutableJoint[]; channelCount: number; motionLine: number } {
  const joints: MutableJoint[] = [];
  let channelCount = 0;
  // Stack of open blocks: a joint index, or -2 for an End Site.
  const stack: number[] = [];
  let pending: { kind: 'joint' | 'end'; line: number } | undefined;
  let motionLine = 0;

  for (;;) {
    const l = src.next();
    if (!l) bad(src.lines.length, stack.length ? 'bvh.endsInHierarchy' : 'bvh.noMotion');
    const { tokens, line } = l;
    const key = tokens[0];
    const upper = key.toUpperCase();
    if (upper === 'ROOT' || upper === 'JOINT') {
      if (pending) bad(line, 'bvh.braceExpected', { after: pending.line });
      if (upper === 'ROOT' && stack.length) bad(line, 'bvh.rootInside');
      if (upper === 'JOINT' && (!stack.length || stack[stack.length - 1] < 0)) bad(line, 'bvh.outsideJoint', { keyword: 'JOINT' });
      let name = l.text.slice(key.length).trim();
      const braceOnLine = name.endsWith('{');
      if (braceOnLine) name = name.slice(0, -1).trim();
      if (!name) bad(line, 'bvh.noName', { keyword: key });
      if (joints.length >= BVH_LIMITS.maxJoints) bad(line, 'bvh.tooManyJoints', { max: BVH_LIMITS.maxJoints });
      const parent = upper === 'ROOT' ? -1 : stack[stack.length - 1];
      const index = joints.length;
      joints.push({ name, parent, offset: [0, 0, 0], channels: [], channelStart: channelCount, children: [] });
      if (parent >= 0) joints[parent].children.push(index);
      if (braceOnLine) stack.push(index);
      else pending = { kind: 'joint', line };
      continue;
    }
    if (upper === 'END') {
      if (pending) bad(line, 'bvh.braceExpected', { after: pending.line });
      if (!stack.length || stack[stack.length - 1] < 0) bad(line, 'bvh.outsideJoint', { keyword: 'End Site' });
      if (tokens[1]?.toUpperCase() !== 'SITE' && tokens[1] !== 'Site{') bad(line, 'bvh.endSite', { text: l.text });
      if (l.text.endsWith('{')) stack.push(-2);
      else pending = { kind: 'end', line };
      continue;
    }
    if (key === '{') {
      if (!pending) bad(line, 'bvh.unexpected', { text: '{' });
      stack.push(pending.kind === 'end' ? -2 : joints.length - 1);
      pending = undefined;
      if (tokens.length > 1) bad(line, 'bvh.unexpectedAfter', { text: tokens.slice(1).join(' '), after: '{' });
      continue;
    }
    if (key === '}') {
      if (pending) bad(line, 'bvh.braceExpected', { after: pending.line });
      if (!stack.length) bad(line, 'bvh.unexpected', { text: '}' });
      stack.pop();
      if (tokens.length > 1) bad(line, 'bvh.unexpectedAfter', { text: tokens.slice(1).join(' '), after: '}' });
      continue;
    }
    if (upper === 'OFFSET') {
      if (pending || !stack.length) bad(line, 'bvh.outsideJoint', { keyword: 'OFFSET' });
      const top = stack[stack.length - 1];
      const offset = parseOffset(tokens, line);
      if (top === -2) {
        // The End Site belongs to the innermost joint on the stack.
        const owner = stack[stack.length - 2];
        joints[owner].endSite = offset;
      } else joints[top].offset = offset;
      continue;
    }
    if (upper === 'CHANNELS') {
      if (pending || !stack.length || stack[stack.length - 1] < 0) bad(line, 'bvh.outsideJoint', { keyword: 'CHANNELS' });
      const joint = joints[stack[stack.length - 1]];
      if (joint.channels.length) bad(line, 'bvh.channelsTwice', { joint: joint.name });
      const n = parseNumber(tokens[1], line, 'the channel count', 'CHANNELS');
      if (!Number.isInteger(n) || n < 0 || n > 6) bad(line, 'bvh.channelCount', { value: tokens[1] });
      if (tokens.length !== n + 2) bad(line, 'bvh.channelList', { declared: n, listed: tokens.length - 2 });
      const seen = new Set<string>();
      for (const c of tokens.slice(2)) {
        if (!CHANNEL_NAMES.has(c)) bad(line, 'bvh.unknownChannel', { channel: c });
        if (seen.has(c)) bad(line, 'bvh.channelTwice', { channel: c });
        seen.add(c);
      }
      joint.channels = tokens.slice(2) as BvhChannel[];
      joint.channelStart = channelCount;
      channelCount += n;
      continue;
    }
    if (upper === 'MOTION') {
      if (stack.length || pending) bad(line, 'bvh.motionEarly');
      if (!joints.length) bad(line, 'bvh.noJoints');
      motionLine = line;
      break;
    }
    bad(line, 'bvh.unexpected', { text: l.text.length > 40 ? l.text.slice(0, 40) + '…' : l.text });
  }
  // A joint declared before CHANNELS of an earlier sibling keeps its start index; recompute in order.
  let start = 0;
  for (const j of joints) {
    j.channelStart = start;
    start += j.channels.length;
  }
  return { joints, channelCount, motionLine };
}

/** The frame lines: channelCount numbers each, blank lines skipped, anything after the last frame noted. */
function readFrames(src: Lines, frameCount: number, channelCount: number): { data: Float32Array; warnings: MotionWarning[] } {
  const data = new Float32Array(frameCount * channelCount);
  const warnings: MotionWarning[] = [];
  let frame = 0;
  let line = src.index;
  const lines = src.lines;
  while (frame < frameCount) {
    if (line >= lines.length) bad(lines.length, 'bvh.truncated', { frames: frame, total: frameCount });
    const text = lines[line++];
    let pos = 0;
    const end = text.length;
    let count = 0;
    const base = frame * channelCount;
    // Hand-rolled scan: splitting million-number files into token arrays costs more than parsing them.
    while (pos < end) {
      let c = text.charCodeAt(pos);
      if (c === 32 || c === 9 || c === 11 || c === 12) {
        pos++;
        continue;
      }
      const startTok = pos;
      while (pos < end && (c = text.charCodeAt(pos)) !== 32 && c !== 9 && c !== 11 && c !== 12) pos++;
      const tok = text.slice(startTok, pos);
      const v = Number(tok);
      if (!Number.isFinite(v) || tok === '') bad(line, 'bvh.frameNotNumber', { frame: frame + 1, token: tok.length > 20 ? tok.slice(0, 20) + '…' : tok });
      if (count >= channelCount) bad(line, 'bvh.frameTooMany', { frame: frame + 1, channels: channelCount });
      data[base + count++] = v;
    }
    if (count === 0) continue;
    if (count !== channelCount) bad(line, 'bvh.frameCountMismatch', { frame: frame + 1, count, channels: channelCount });
    frame++;
  }
  for (; line < lines.length; line++) {
    if (lines[line].trim() !== '') {
      warnings.push(warning(`BVH line ${line + 1}: data after the ${frameCount} declared frames was ignored`, 'bvh.extraData', { line: line + 1, frames: frameCount }));
      break;
    }
  }
  return { data, warnings };
}
