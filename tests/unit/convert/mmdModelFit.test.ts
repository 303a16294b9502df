/**
 * A model is used only where it fits (issue 23): the .pmx/.pmd beside a .vmd applies when at least 80%
 * of the motion's keyed bones exist in it (shared/convert/mmd/modelFit.ts, the one rule for the
 * studio, Convert Folder and the CLI); otherwise the report names the mismatch and the motion converts
 * with the standard skeleton. The CLI's --pmx still forces it. Real data: Gene's stand.vmd fits
 * Gene.pmx (221 of 222 keyed bones); MMDAgent's mei_wait.vmd was made for Mei, whose hair and skirt
 * bones Gene lacks (76 of 142).
 */
import { expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { convertVmd, convertVpd, parseVmd, parsePmxBones } from '../../../shared/convert/mmd';
import { rigFromPmx } from '../../../shared/convert/mmd/rig';
import { MODEL_FIT_MIN, modelFit } from '../../../shared/convert/mmd/modelFit';
import { writeVrma } from '../../../shared/vrma/write';
import type { Motion } from '../../../shared/motion/types';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { cli } from '../../../testkit/cli';
import { writeVpd } from '../../../testkit/mmdWriters';
import { describeFixtures, fixturePath, readFixture } from '../../../testkit/fixtures';
import { useTempDirs } from '../services/tempDir';

const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');
const tempDir = useTempDirs('vrma-fit-');

const sameKeys = (a: Motion, b: Motion) =>
  a.channels.length === b.channels.length && a.channels.every((c, i) => c.values.length === b.channels[i].values.length && c.values.every((v, k) => v === b.channels[i].values[k]));

describeFixtures('MMD model fit', () => {
  const pmx = readFixture('pmx', 'Gene.pmx');
  const rig = rigFromPmx(parsePmxBones(pmx));
  const stand = readFixture('vmd', 'gene', 'stand.vmd');
  const wait = readFixture('vmd', 'mmdagent', 'mei_wait.vmd');

  it('measures the share of keyed bones in the model', () => {
    expect(MODEL_FIT_MIN).toBe(0.8);
    const s = modelFit(parseVmd(stand).boneTracks.map((t) => t.key), rig);
    expect([s.found, s.keyed, s.fits]).toEqual([221, 222, true]);
    const w = modelFit(parseVmd(wait).boneTracks.map((t) => t.key), rig);
    expect([w.found, w.keyed, w.fits]).toEqual([76, 142, false]);
    expect(w.missing).toContain('前髪1');
    // A face-only motion keys no bones and needs none.
    expect(modelFit([], rig).fits).toBe(true);
  });

  it('a fitting model is used; one that does not fit is named and the standard skeleton used; forced, it is used', () => {
    const withGene = convertVmd(stand, { pmx });
    expect(withGene.warnings.some((w) => w.detail === 'mmd.modelMismatch' || w.detail === 'mmd.noModel')).toBe(false);
    expect(sameKeys(withGene, convertVmd(stand))).toBe(false);

    const notFitting = convertVmd(wait, { pmx });
    const mismatch = notFitting.warnings.filter((w) => w.detail === 'mmd.modelMismatch');
    expect(mismatch).toHaveLength(1);
    expect(mismatch[0].params).toMatchObject({ model: 'ジェネ / Gene', found: 76, keyed: 142, percent: 54, needed: 80 });
    expect(mismatch[0].text).toMatch(
      /^the model "ジェネ \/ Gene" does not fit this motion: it has 76 of the motion's 142 keyed bones \(54%, 80% needed; missing .*前髪1.*\), so the motion was made for another model; converted with the standard MMD skeleton$/,
    );
    expect(sameKeys(notFitting, convertVmd(wait))).toBe(true);

    const forced = convertVmd(wait, { pmx, forceModel: true });
    expect(forced.warnings.some((w) => w.detail === 'mmd.modelMismatch')).toBe(false);
    expect(sameKeys(forced, convertVmd(wait))).toBe(false);
  });

  it('a .vpd follows the same rule', () => {
    const pose = writeVpd({
      modelName: 'other',
      bones: [
        { name: '左腕', position: [0, 0, 0], rotation: [0, 0, 0.2, 0.98] },
        ...Array.from({ length: 9 }, (_, i) => ({ name: `尻尾${i}`, position: [0, 0, 0] as const, rotation: [0, 0, 0, 1] as const })),
      ],
      morphs: [],
    });
    expect(convertVpd(pose, { pmx }).warnings.some((w) => w.detail === 'mmd.modelMismatch')).toBe(true);
    expect(convertVpd(pose, { pmx, forceModel: true }).warnings.some((w) => w.detail === 'mmd.modelMismatch')).toBe(false);
  });

  it('the CLI and Convert Folder apply the model beside each .vmd only where it fits; --pmx forces it', async () => {
    const make = () => {
      const root = tempDir();
      mkdirSync(join(root, 'm'));
      for (
        const [from, to] of [[fixturePath('vmd', 'gene', 'stand.vmd'), 'stand.vmd'], [fixturePath('vmd', 'mmdagent', 'mei_wait.vmd'), 'mei_wait.vmd'], [fixturePath('pmx', 'Gene.pmx'), 'Gene.pmx']]
      ) {
        copyFileSync(from, join(root, 'm', to));
        chmodSync(join(root, 'm', to), 0o644);
      }
      return join(root, 'm');
    };
    // Converted to files, a VMD is keyed on every frame (the studio's import keeps its keys).
    const standWithGene = writeVrma(convertVmd(stand, { pmx, keys: 'everyFrame' }));
    const waitStandard = writeVrma(convertVmd(wait, { keys: 'everyFrame' }));
    const waitForced = writeVrma(convertVmd(wait, { pmx, forceModel: true, keys: 'everyFrame' }));
    expect(waitForced).not.toEqual(waitStandard);

    const a = make();
    const run = await cli('convert', a, '--jobs', '1');
    expect(run.code).toBe(0);
    expect(run.out + run.err).toMatch(/mei_wait[\s\S]*the model "ジェネ \/ Gene" does not fit this motion/);
    expect(new Uint8Array(readFileSync(join(a, 'stand.vrma')))).toEqual(standWithGene);
    expect(new Uint8Array(readFileSync(join(a, 'mei_wait.vrma')))).toEqual(waitStandard);

    const b = make();
    expect((await cli('convert', join(b, 'mei_wait.vmd'), '--pmx', join(b, 'Gene.pmx'))).code).toBe(0);
    expect(new Uint8Array(readFileSync(join(b, 'mei_wait.vrma')))).toEqual(waitForced);

    const c = make();
    const convert = createWorkerConverter(WORKER, { threads: 1 });
    try {
      const summary = await convert({ jobId: 'fit', folder: c, overwrite: false, onProgress: () => undefined });
      expect(summary.failed).toEqual([]);
      const byName = new Map(summary.converted.map((x) => [x.source.slice(c.length + 1), x]));
      expect(byName.get('mei_wait.vmd')!.warnings!.some((w) => w.detail === 'mmd.modelMismatch')).toBe(true);
      expect(byName.get('stand.vmd')!.warnings!.some((w) => w.detail === 'mmd.modelMismatch')).toBe(false);
      expect(new Uint8Array(readFileSync(join(c, 'mei_wait.vrma')))).toEqual(waitStandard);
      expect(new Uint8Array(readFileSync(join(c, 'stand.vrma')))).toEqual(standWithGene);
    } finally {
      await convert.close?.();
    }
  }, 180_000);
});
