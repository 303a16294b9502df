/**
 * Takes of FBX and glTF files through `vrma-studio convert` and Convert Folder: --list-takes (text and
 * JSON, the numbers of the real fixtures), one take -> NAME.vrma, several -> NAME.TAKE.vrma with the
 * take name made filename-safe, --take NAME, a .glb avatar left out of a folder walk.
 */
import { expect, it, describe } from 'vitest';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../../../testkit/cli';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';
import { useTempDirs } from '../services/tempDir';
import { readVrma } from '../../../shared/vrma/read';
import { durationOf } from '../../../shared/motion/types';
import { safeTakeName, takeOutputs } from '../../../shared/formats/takes';
import { createWorkerConverter } from '../../../main/services/convertFolder';

const tempDir = useTempDirs('vrma-takes-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');

function copy(from: string, to: string) {
  copyFileSync(from, to);
  chmodSync(to, 0o644);
}

describe('take names in file names', () => {
  it('are made safe for every file system and unique', () => {
    expect(safeTakeName('Human Armature|Walk')).toBe('Human Armature_Walk');
    expect(safeTakeName('a/b:c*?"<>|d')).toBe('a_b_c_d');
    expect(safeTakeName(' .. ')).toBe('take');
    expect(safeTakeName('Take 001.')).toBe('Take 001');
    expect(takeOutputs('/x/run.vrma', ['Take 001'])).toEqual([{ take: 'Take 001', output: '/x/run.vrma' }]);
    expect(takeOutputs('/x/run.vrma', ['A|B', 'A:B', 'c']).map((t) => t.output)).toEqual(['/x/run.A_B.vrma', '/x/run.A_B-2.vrma', '/x/run.c.vrma']);
  });
});

describeFixtures('convert: FBX and glTF takes', () => {
  it('--list-takes prints each take with duration, fps and key count (text and --json)', async () => {
    const text = await cli('convert', '--list-takes', fixturePath('fbx', 'quaternius_robot.fbx'));
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/14 takes/);
    expect(text.out).toMatch(/RobotArmature\|Robot_Dance\t3\.333 s\t24 fps\t1398 keys/);
    const json = await cli('convert', '--list-takes', fixturePath('gltf', 'kaykit_rig_medium_movement_basic.glb'), '--json');
    expect(json.code).toBe(0);
    const takes = JSON.parse(json.out) as { name: string; duration: number; fps: number; keys: number }[];
    expect(takes).toHaveLength(11);
    expect(takes.find((t) => t.name === 'Walking_A')).toEqual({ name: 'Walking_A', duration: expect.closeTo(1.0667, 3), fps: 30, keys: 727 });
    expect(takes.find((t) => t.name === 'T-Pose')).toMatchObject({ duration: 0 });
    const bad = await cli('convert', '--list-takes', fixturePath('bvh', 'pybvh_bvh_test1.bvh'));
    expect(bad.code).toBe(2);
  });

  it('a file with several takes writes NAME.TAKE.vrma each; --take writes only that one as NAME.vrma; a folder leaves a .glb avatar out', async () => {
    const root = tempDir();
    copy(fixturePath('gltf', 'kaykit_rig_medium_movement_basic.glb'), join(root, 'kaykit.glb'));
    copy(fixturePath('fbx', 'ufbx_maya_kenney_character_7700_binary.fbx'), join(root, 'kenney.fbx'));
    copy(fixturePath('vrm1', 'debug_robot.vrm'), join(root, 'avatar.glb'));
    const all = await cli('convert', root, '--jobs', '1');
    expect(all.err).toBe('');
    expect(all.code).toBe(0);
    expect(all.out).toMatch(/skip .*avatar\.glb: an avatar or model without animations/);
    const written = readdirSync(root).filter((f) => f.endsWith('.vrma')).sort();
    // kenney.fbx has one take: kenney.vrma; the KayKit GLB has 11 animations.
    expect(written).toContain('kenney.vrma');
    expect(written.filter((f) => f.startsWith('kaykit.'))).toHaveLength(11);
    expect(written).toContain('kaykit.Walking_A.vrma');
    expect(written).toContain('kaykit.T-Pose.vrma');
    const walk = readVrma(new Uint8Array(readFileSync(join(root, 'kaykit.Walking_A.vrma'))));
    expect(walk.animationName).toBe('Walking_A');
    expect(durationOf(walk)).toBeCloseTo(1.0667, 3);

    const out = join(root, 'one');
    mkdirSync(out);
    const one = await cli('convert', join(root, 'kaykit.glb'), '--take', 'Running_B', '--out-dir', out);
    expect(one.code).toBe(0);
    expect(readdirSync(out)).toEqual(['kaykit.vrma']);
    expect(readVrma(new Uint8Array(readFileSync(join(out, 'kaykit.vrma')))).animationName).toBe('Running_B');

    const missing = await cli('convert', join(root, 'kaykit.glb'), '--take', 'Swim', '--out-dir', out);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no take named “Swim”; the takes are “Jump_Full_Long”, /);

    const avatar = await cli('convert', join(root, 'avatar.glb'), '--out-dir', out);
    expect(avatar.code).toBe(1);
    expect(avatar.err).toMatch(/VRM avatar with no animations/);
  }, 120_000);

  it('Convert Folder converts each take of an FBX on worker threads', async () => {
    const root = tempDir();
    copy(fixturePath('fbx', 'quaternius_male_casual.fbx'), join(root, 'man.fbx'));
    const convert = createWorkerConverter(WORKER, { threads: 1 });
    const summary = await convert({ jobId: 'takes', folder: root, overwrite: false, onProgress: () => undefined });
    expect(summary.failed).toEqual([]);
    expect(summary.converted).toHaveLength(11);
    expect(existsSync(join(root, 'man.HumanArmature_Man_Walk.vrma'))).toBe(true);
    const walk = readVrma(new Uint8Array(readFileSync(join(root, 'man.HumanArmature_Man_Walk.vrma'))));
    expect(durationOf(walk)).toBeCloseTo(1.0417, 3);
  }, 120_000);
});
