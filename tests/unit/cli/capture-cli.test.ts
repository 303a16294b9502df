/**
 * `vrma-studio capture` in-process (runCli): every argument is checked with a specific message (exit 2),
 * a valid call says why it cannot run from the command line and where the studio would save (exit 1),
 * in English or, with LANG=ja_JP.UTF-8, in Japanese.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../main/cli/runCli';
import { cliLocale } from '../../../main/cli/commands/capture';
import { sniffFormats } from '../../../shared/formats/formats';

async function cli(...argv: string[]) {
  const out: string[] = [], err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), isTTY: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let dir = '';
const saved = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL, LC_MESSAGES: process.env.LC_MESSAGES };
/** The first bytes of an MP4 (an ftyp box): enough for the table's sniff; the command never decodes it. */
const MP4_HEAD = Uint8Array.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('isomiso2')]);

describe('vrma-studio capture', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vrma-capture-cli-'));
    writeFileSync(join(dir, 'dance.mp4'), MP4_HEAD);
    process.env.LC_ALL = 'en_US.UTF-8';
  });
  afterEach(() => {
    process.env.LC_ALL = 'en_US.UTF-8';
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it('is listed in the help', async () => {
    const r = await cli('--help');
    expect(r.out).toMatch(/^ {2}capture +Make a motion from a video/m);
  });

  it('checks its arguments, each with its own message (exit 2)', async () => {
    const video = join(dir, 'dance.mp4');
    const cases: [string[], RegExp][] = [
      [[], /capture takes one video, got 0/],
      [[video, video], /capture takes one video, got 2/],
      [[join(dir, 'notes.txt')], /notes\.txt is not a video the studio captures from: it reads \.mp4, \.webm or \.mov/],
      [[join(dir, 'missing.webm')], /missing\.webm does not exist or cannot be read/],
      [[video, '-o', join(dir, 'out.bvh')], /-o must name a \.vrma file, got ".*out\.bvh"/],
      [[video, '--fps', 'abc'], /--fps must be a number from 1 to 60, got "abc"/],
      [[video, '--fps', '0'], /--fps must be a number from 1 to 60, got "0"/],
      [[video, '--fps', '120'], /--fps must be a number from 1 to 60, got "120"/],
      [[video, '--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [args, message] of cases) {
      const r = await cli('capture', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
  });

  it('a valid call says why it cannot run here and what the studio saves (exit 1)', async () => {
    const video = join(dir, 'dance.mp4');
    const r = await cli('capture', video, '--hands', '--face', '--fps', '24');
    expect(r.code).toBe(1);
    expect(r.err).toContain('runs on WebGL and the video is decoded by the browser engine, and Node has neither');
    expect(r.err).toContain(`Save writes ${join(dir, 'dance.vrma')}`);
    // --hands and --face: where the studio reads them (the Capture panel's boxes, by their labels).
    expect(r.err).toContain('The studio reads the hands and the face too: check “Hands (fingers)” and “Face (blinks, vowels)” under Capture before you open the video there.');
    const faceOnly = await cli('capture', video, '--face');
    expect(faceOnly.code).toBe(1);
    expect(faceOnly.err).toContain('The studio reads the face too: check “Face (blinks, vowels)” under Capture');
    const named = await cli('capture', video, '-o', join(dir, 'take1.vrma'));
    expect(named.code).toBe(1);
    expect(named.err).toContain(`Save writes ${join(dir, 'take1.vrma')}`);
    expect(named.err).not.toContain('The studio reads');
  });

  it('speaks Japanese when the environment does', async () => {
    process.env.LC_ALL = 'ja_JP.UTF-8';
    const bad = await cli('capture', join(dir, 'dance.mp4'), '--fps', '0');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--fps には 1〜60 の数値を指定してください（指定: "0"）');
    const r = await cli('capture', join(dir, 'dance.mp4'));
    expect(r.code).toBe(1);
    expect(r.err).toContain('Node にはどちらもありません');
    const face = await cli('capture', join(dir, 'dance.mp4'), '--face');
    expect(face.err).toContain('スタジオでは顔も読み取れます。動画を開く前に「キャプチャ」の「顔（まばたき・母音）」をオンにしてください。');
    expect(cliLocale({ LANG: 'ja_JP.UTF-8' })).toBe('ja');
    expect(cliLocale({ LC_ALL: 'C', LANG: 'ja_JP.UTF-8' })).toBe('ja');
    expect(cliLocale({ LANG: 'fr_FR.UTF-8' })).toBe('en');
  });

  it('the format table knows a video by its first bytes (MP4 and WebM), not only by its name', () => {
    expect(sniffFormats(MP4_HEAD)).toEqual(['video']);
    expect(sniffFormats(Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]))).toEqual(['video']);
    expect(sniffFormats(new TextEncoder().encode('HIERARCHY\nROOT Hips'))).not.toContain('video');
  });
});
