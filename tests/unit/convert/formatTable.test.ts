/**
 * The format table (shared/formats/formats.ts) and its codecs (shared/formats/codecs.ts): the lists
 * derived from it, the sniffs and `describe` on the real fixtures (the same figures the readers give),
 * and every prose list of formats (catalogue texts in both languages, the CLI's help, the README's
 * table) checked against it, so a format added to the table fails here until the prose names it.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  AVATAR_EXTENSIONS,
  CONVERTIBLE_EXTENSIONS,
  FORMATS,
  formatList,
  formatOf,
  formatTableMarkdown,
  MOTION_EXTENSIONS,
  sniffFormats,
  STUDIO_FILE_EXTENSIONS,
  VIDEO_EXTENSIONS,
  TAKE_EXTENSIONS,
  SNIFF_BYTES,
} from '../../../shared/formats/formats';
import { CODECS, describeFormat, exportMotion, listTakes, readMotion, writableFormats, writeMotion } from '../../../shared/formats/codecs';
import { EXPORTERS, EXPORT_FORMATS } from '../../../shared/export/index';
import { writeVrma } from '../../../shared/vrma/write';
import { makeWalkCycle } from '../../../shared/assets/walkCycle';
import { MotionError } from '../../../shared/errors';
import { durationOf } from '../../../shared/motion/types';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { convertCommand } from '../../../main/cli/commands/convert';
import { poseReportCommand } from '../../../main/cli/commands/pose-report';
import { writeVpd } from '../../../testkit/mmdWriters';
import { describeFixtures, fixtureFiles, fixturePath, readFixture } from '../../../testkit/fixtures';

const ROOT = resolve(__dirname, '..', '..', '..');

/** The extensions of `list` that `text` does not name (".vrm" is not named by ".vrma"). */
function missingFrom(text: string, list: readonly string[]): string[] {
  return list.filter((ext) => !new RegExp(`${ext.replace('.', '\\.')}(?![a-z0-9])`, 'i').test(text));
}

/** Every prose list of formats and the table's list it must name in full. */
const PROSE: readonly { where: string; text: () => string; list: readonly string[] }[] = [
  ...(['en', 'ja'] as const).flatMap((lang) => [
    { where: `${lang} command.file.open.help`, text: () => CATALOGUE[lang]['command.file.open.help'], list: [...AVATAR_EXTENSIONS, ...MOTION_EXTENSIONS] },
    { where: `${lang} edits.otherFileHelp`, text: () => CATALOGUE[lang]['edits.otherFileHelp'], list: MOTION_EXTENSIONS },
    { where: `${lang} library.dropHint`, text: () => CATALOGUE[lang]['library.dropHint'], list: STUDIO_FILE_EXTENSIONS },
    { where: `${lang} convert.folder.needsFolder`, text: () => CATALOGUE[lang]['convert.folder.needsFolder'], list: CONVERTIBLE_EXTENSIONS },
    { where: `${lang} convert.folder.text`, text: () => CATALOGUE[lang]['convert.folder.text'], list: CONVERTIBLE_EXTENSIONS },
  ]),
  { where: 'convert --help', text: () => convertCommand.usage, list: CONVERTIBLE_EXTENSIONS },
  { where: 'convert summary', text: () => convertCommand.summary, list: CONVERTIBLE_EXTENSIONS },
  { where: 'pose-report --help', text: () => poseReportCommand.usage, list: CONVERTIBLE_EXTENSIONS },
  {
    where: 'README Open…',
    text: () => readme().split('\n').filter((l) => l.includes('*Open…* an avatar') || l.includes('`.fbx`, `.glb`, `.gltf`; see')).join(' '),
    list: [...AVATAR_EXTENSIONS, ...MOTION_EXTENSIONS],
  },
  { where: 'README Open Folder', text: () => readme().split('\n').find((l) => l.includes('*Open Folder* lists every')) ?? '', list: STUDIO_FILE_EXTENSIONS },
  { where: 'README Convert Folder', text: () => readme().split('\n').find((l) => l.includes('*Convert Folder* turns every')) ?? '', list: CONVERTIBLE_EXTENSIONS },
];

const readme = () => readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('the format table', () => {
  it('derives each list once: every studio extension a single time (no ".glb" twice in an error), .glb both an avatar and a motion', () => {
    expect([...STUDIO_FILE_EXTENSIONS]).toEqual(['.vrma', '.vmd', '.vpd', '.bvh', '.fbx', '.glb', '.gltf', '.vrm', '.mp4', '.webm', '.mov', '.pmx', '.pmd']);
    expect([...VIDEO_EXTENSIONS]).toEqual(['.mp4', '.webm', '.mov']);
    expect(formatOf('dance.MOV')?.id).toBe('video');
    expect(formatList(STUDIO_FILE_EXTENSIONS).match(/\.glb\b/g)).toHaveLength(1);
    expect([...CONVERTIBLE_EXTENSIONS]).toEqual(['.vmd', '.vpd', '.bvh', '.fbx', '.glb', '.gltf']);
    expect([...TAKE_EXTENSIONS]).toEqual(['.fbx', '.glb', '.gltf']);
    expect(formatOf('robot.GLB')?.id).toBe('gltf');
    expect(formatOf('robot.vrm')?.id).toBe('vrm');
    expect(formatOf('notes.txt')).toBeUndefined();
  });

  it('has a codec for every format: motion formats read, take formats list and open takes, .vrma writes', () => {
    expect(Object.keys(CODECS).sort()).toEqual(FORMATS.map((f) => f.id).sort());
    for (const f of FORMATS) {
      const codec = CODECS[f.id];
      expect(typeof codec.read, f.id).toBe((f.kinds as readonly string[]).includes('motion') || (f.kinds as readonly string[]).includes('pose') ? 'function' : 'undefined');
      expect(typeof codec.listTakes, f.id).toBe(f.takes ? 'function' : 'undefined');
      expect(typeof codec.openTakes, f.id).toBe(f.takes ? 'function' : 'undefined');
    }
    expect(typeof CODECS.vrma.write?.write).toBe('function'); // write is the writer object (ext + write), as the exporters are
  });

  it("writes through the table: .vrma by its codec (the bytes of writeVrma), the export formats by shared/export's exporters; a format without a writer is UNSUPPORTED", () => {
    const motion = makeWalkCycle();
    expect(writableFormats().map((f) => f.id)).toEqual(['vrma', 'vmd', 'bvh', 'fbx', 'gltf']);
    expect(writeMotion('out/walk.VRMA', motion).bytes).toEqual(writeVrma(motion));
    // One dispatch: the table's writers are the exporters themselves, by file name or by export format.
    for (const f of EXPORT_FORMATS) expect(writableFormats().some((w) => CODECS[w.id].write === EXPORTERS[f])).toBe(true);
    expect(writeMotion('walk.bvh', motion).bytes).toEqual(EXPORTERS.bvh.write(motion).bytes);
    expect(exportMotion('vmd', motion).bytes).toEqual(EXPORTERS.vmd.write(motion).bytes);
    expect(exportMotion('fbx', motion).frames).toBe(EXPORTERS.fbx.write(motion).frames);
    // A .gltf is read but not written (the glTF writer writes .glb).
    const e = (() => {
      try {
        writeMotion('walk.gltf', motion);
      } catch (err) {
        return err as MotionError;
      }
    })();
    expect(e).toBeInstanceOf(MotionError);
    expect([e?.code, e?.detail, e?.params.formats]).toEqual(['UNSUPPORTED', 'convert.noWriter', '.vrma, .vmd, .bvh, .fbx, .glb']);
  });

  it('the prose check fails on a format the prose lacks (a table that gained ".xyz")', () => {
    expect(missingFrom('Open a .vrma, .vmd or .bvh', ['.vrma', '.vmd', '.bvh'])).toEqual([]);
    expect(missingFrom('Open a .vrma, .vmd or .bvh', ['.vrma', '.vmd', '.bvh', '.xyz'])).toEqual(['.xyz']);
    // ".vrma" does not stand for ".vrm".
    expect(missingFrom('motions (.vrma)', ['.vrm'])).toEqual(['.vrm']);
  });

  it.each(PROSE.map((p) => [p.where, p] as const))('%s names every format of its list', (_, p) => {
    expect(p.text().length).toBeGreaterThan(10);
    expect(missingFrom(p.text(), p.list)).toEqual([]);
  });

  it("the README's table of formats is the table's", () => {
    const m = /<!-- formats:start -->\n([\s\S]*?)\n<!-- formats:end -->/.exec(readme());
    expect(m?.[1]).toBe(formatTableMarkdown());
  });

  it('a VPD (written by the test kit) sniffs and describes as a pose; unknown bytes sniff as nothing', () => {
    const vpd = writeVpd({ modelName: 'model', bones: [{ name: 'センター', position: [0, 1, 0], rotation: [0, 0, 0, 1] }], morphs: [] });
    expect(sniffFormats(vpd)).toEqual(['vpd']);
    expect(describeFormat('p.vpd', vpd)).toEqual({ kind: 'pose', duration: 0 });
    expect(sniffFormats(new TextEncoder().encode('hello, world'))).toEqual([]);
  });
});

describeFixtures('sniffs and describe on the fixtures', () => {
  const head = (bytes: Uint8Array) => bytes.subarray(0, SNIFF_BYTES);

  it('every fixture sniffs as its own format (GLB-based files as VRMA, glTF and VRM: they share the header)', () => {
    const expected: Record<string, string[]> = {
      bvh: ['bvh'],
      fbx: ['fbx'],
      vmd: ['vmd'],
      pmx: ['mmdModel'],
      gltf: ['vrma', 'gltf', 'vrm'],
      vrm1: ['vrma', 'gltf', 'vrm'],
      vrma: ['vrma', 'gltf', 'vrm'],
    };
    const files: Record<string, string[]> = {
      bvh: fixtureFiles('bvh', '.bvh'),
      fbx: fixtureFiles('fbx', '.fbx'),
      vmd: ['gene/stand.vmd', 'mmdagent/mei_wait.vmd'].map((f) => fixturePath('vmd', f)),
      pmx: [fixturePath('pmx', 'Gene.pmx')],
      gltf: fixtureFiles('gltf', '.glb'),
      vrm1: fixtureFiles('vrm1', '.vrm'),
      vrma: fixtureFiles('vrma', '.vrma'),
    };
    for (const [folder, list] of Object.entries(files)) {
      expect(list.length, folder).toBeGreaterThan(0);
      for (const f of list) expect(sniffFormats(head(new Uint8Array(readFileSync(f)))), f).toEqual(expected[folder]);
    }
  });

  it('describe gives the reader’s figures: .vrma duration = durationOf(readVrma) (5e-6 s), .bvh/.vmd within one frame of the converted motion', () => {
    for (const f of fixtureFiles('vrma', '.vrma')) {
      const bytes = readFixture('vrma', basename(f));
      const d = describeFormat(f, bytes);
      expect(d.duration, f).toBeCloseTo(durationOf(readMotion(f, bytes)), 5);
    }
    for (const [file, frames, dt] of [['pybvh_bvh_test1.bvh', 75, 0.033333], ['cmu_12_01_walk.bvh', 524, 0.0083333]] as const) {
      const d = describeFormat(file, readFixture('bvh', file));
      expect(d.duration, file).toBeCloseTo((frames - 1) * dt, 4);
      expect(d.fps, file).toBeCloseTo(1 / dt, 2);
      expect(Math.abs(durationOf(readMotion(file, readFixture('bvh', file))) - d.duration!), file).toBeLessThanOrEqual(dt);
    }
    const vmd = describeFormat('mei_wait.vmd', readFixture('vmd', 'mmdagent', 'mei_wait.vmd'));
    expect(vmd).toEqual({ kind: 'motion', duration: 120 / 30, fps: 30 });
    expect(describeFormat('Gene.pmx', readFixture('pmx', 'Gene.pmx'))).toEqual({ kind: 'model' });
  });

  it('describe of a take file lists its takes as listTakes does, the longest keyed take’s duration and fps (the one the studio opens)', () => {
    const bytes = readFixture('gltf', 'kaykit_rig_medium_general.glb');
    const d = describeFormat('kit.glb', bytes);
    const takes = listTakes('kit.glb', bytes);
    expect(takes).toHaveLength(15);
    // Issue 23: the library shows the take that opens, the longest keyed one, not whichever is first.
    const longest = takes.filter((t) => t.keys > 0).reduce((a, b) => (b.duration > a.duration ? b : a));
    expect(longest.name).toBe('Death_B');
    expect(d).toEqual({ kind: 'motion', duration: longest.duration, fps: longest.fps, takes });
    // A VRM avatar named .glb is an avatar; its reader is not asked for takes.
    expect(describeFormat('robot.glb', readFixture('vrm1', 'debug_robot.vrm'))).toEqual({ kind: 'avatar' });
  });
});
