/**
 * Issue 24, finding 12: a .glb of 2,000 animations became 2,000 NAME.TAKE.vrma files without a
 * question. Now more than MAX_TAKES_WITHOUT_ASKING (50) takes from one file are written only when
 * asked: the CLI reports the file unless given --all-takes (or --take), and Convert Folder answers
 * CONFIRM until the page says yes (allTakes: true, every take) or no (false, the file left out and
 * reported, worded in English and Japanese). A 60-animation file stands for the 2,000.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MAX_TAKES_WITHOUT_ASKING } from '../../shared/contract/schema';
import { createWorkerConverter } from '../../main/services/convertFolder';
import { setLocale } from '../../shared/i18n';
import { problemText } from '../../renderer/ui/messages';
import { englishWords } from '../../testkit/japaneseText';
import { cli } from '../../testkit/cli';
import { manyAnimationsGlb } from './hostileReaders';

const WORKER = resolve(__dirname, '..', '..', 'main', 'services', 'convertWorker.ts');
const vrmas = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.vrma'));

function folderWith(files: Record<string, Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vrma-sec-takes-'));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  return dir;
}

describe('security: more than 50 takes from one file only when asked (finding 12)', () => {
  it('CLI: 60 takes are reported, not written (exit 1); --all-takes writes 60; 50 takes need no flag', async () => {
    expect(MAX_TAKES_WITHOUT_ASKING).toBe(50);
    const dir = folderWith({ 'many.glb': manyAnimationsGlb(60), 'fifty.glb': manyAnimationsGlb(50) });
    try {
      const refused = await cli('convert', join(dir, 'many.glb'));
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/its 60 takes would become 60 \.vrma files, more than 50 from one file/);
      expect(refused.err).toMatch(/--all-takes/);
      expect(vrmas(dir)).toEqual([]);
      const fifty = await cli('convert', join(dir, 'fifty.glb'));
      expect(fifty.code).toBe(0);
      expect(vrmas(dir)).toHaveLength(50);
      const all = await cli('convert', join(dir, 'many.glb'), '--all-takes');
      expect(all.code).toBe(0);
      expect(vrmas(dir).filter((f) => f.startsWith('many.'))).toHaveLength(60);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('Convert Folder: CONFIRM first; no leaves the file out (reported, worded in Japanese too); yes writes its 60 takes', async () => {
    const dir = folderWith({ 'many.glb': manyAnimationsGlb(60) });
    try {
      const convert = createWorkerConverter(WORKER, { threads: 1 });
      const job = { jobId: 'j', folder: dir, overwrite: false, onProgress: () => undefined };
      await expect(convert(job)).rejects.toMatchObject({ code: 'CONFIRM', message: expect.stringMatching(/more than 50 takes each/) });
      expect(vrmas(dir)).toEqual([]);
      const no = await convert({ ...job, allTakes: false });
      expect(no.converted).toEqual([]);
      expect(no.failed).toHaveLength(1);
      expect(no.failed[0].problem).toMatchObject({ code: 'TOO_LARGE', detail: 'take.tooMany', params: { count: 60, max: 50 } });
      setLocale('ja');
      try {
        const ja = problemText(no.failed[0].message, no.failed[0].problem);
        expect(ja).toMatch(/60 個のテイクが 60 個の \.vrma ファイルになります/);
        expect(englishWords(ja)).toEqual([]);
      } finally {
        setLocale('en');
      }
      const yes = await convert({ ...job, allTakes: true });
      expect(yes.converted).toHaveLength(60);
      expect(existsSync(join(dir, 'many.move59.vrma'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
