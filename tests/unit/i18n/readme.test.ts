/**
 * The user guide exists in English and Japanese, covers the same sections, and every screenshot it
 * shows is a file the e2e test wrote (docs/screenshots, PNG, small).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const read = (name: string) => readFileSync(join(ROOT, name), 'utf8');
const images = (md: string) => [...md.matchAll(/!\[[^\]]*\]\(([^)]+\.png)\)/g)].map((m) => m[1]);

describe('README user guide', () => {
  const en = read('README.md');
  const ja = read('README.ja.md');

  it('has the guide in both languages, linked to each other', () => {
    for (const h of ['## User guide', '### The panels', '### Pose-edit', '### Cut and join', '### Convert', '### The bedroom', '### Language']) expect(en).toContain(h);
    for (const h of ['## 使い方', '### 画面の構成', '### ポーズ編集', '### 切り取りと結合', '### 変換', '### ベッドルーム', '### 言語']) expect(ja).toContain(h);
    expect(en).toContain('(README.ja.md)');
    expect(ja).toContain('(README.md)');
  });

  it('shows the studio and the bedroom in its own language, from files the e2e test wrote', () => {
    expect(images(en)).toEqual(['docs/screenshots/studio-en-1024x640.png', 'docs/screenshots/bedroom-en-1024x640.png']);
    expect(images(ja)).toEqual(['docs/screenshots/studio-ja-1024x640.png', 'docs/screenshots/bedroom-ja-1024x640.png']);
    for (const img of [...images(en), ...images(ja)]) {
      const p = join(ROOT, img);
      expect(existsSync(p), img).toBe(true);
      const head = readFileSync(p).subarray(0, 24);
      expect(head.subarray(1, 4).toString('latin1')).toBe('PNG');
      // IHDR width and height: the 1024x640 window the test used.
      expect([head.readUInt32BE(16), head.readUInt32BE(20)]).toEqual([1024, 640]);
      expect(statSync(p).size).toBeLessThan(400_000);
    }
  });
});
