/**
 * The library and Convert Folder with FBX/glTF takes and MMD models (issue 14), on fixtures copied
 * to a temp folder: describeFile lists each .fbx/.glb's takes (on a worker thread, the same numbers
 * as the core's listTakes: `convert --list-takes`), a .pmx is an MMD model, the backend lists them and
 * finds the model beside a .vmd among the opened folder's files only; Convert Folder writes
 * NAME.TAKE.vrma per take, overwrites nothing without the choice, and converts a .vmd with its folder's model.
 */
import { expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeFileOnDisk } from '../../../main/services/fileDetails';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { DescribeWorker } from '../../../main/services/describeWorker';
import { StudioBackend } from '../../../main/services/backend';
import { mmdModelBeside } from '../../../main/services/mmdModelBeside';
import type { FileDetails, LibrarySnapshot } from '../../../shared/contract/studioApi';
import { listTakes, openTakes, takeOutputs } from '../../../shared/formats/takes';
import { convertVmd } from '../../../shared/convert/mmd/index';
import { writeVrma } from '../../../shared/vrma/write';
import { parseGlb, packGlb } from '../../../shared/gltf/glb';
import { describeFixtures, fixturePath, readFixture } from '../../../testkit/fixtures';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-library-takes-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');

function copy(from: string, to: string) {
  copyFileSync(from, to);
  chmodSync(to, 0o644); // fixtures are read-only
}

describeFixtures('library: FBX/glTF takes and MMD models', () => {
  it('describeFile lists the takes of .fbx/.glb (worker thread, = listTakes), a .pmx is a model, a VRM with animations an avatar with takes', async () => {
    const root = tempDir();
    copy(fixturePath('fbx', 'quaternius_male_casual.fbx'), join(root, 'man.fbx'));
    copy(fixturePath('gltf', 'kaykit_rig_medium_general.glb'), join(root, 'kaykit.glb'));
    copy(fixturePath('vrm1', 'debug_robot.vrm'), join(root, 'robot.vrm'));
    copy(fixturePath('vrm1', 'debug_robot.vrm'), join(root, 'robot_avatar.glb'));
    copy(fixturePath('pmx', 'Gene.pmx'), join(root, 'Gene.pmx'));
    writeFileSync(join(root, 'broken.pmx'), 'not a model');
    const g = parseGlb(readFixture('gltf', 'robot_expressive.glb'));
    const json = structuredClone(g.json) as Record<string, any>;
    json.extensions = { ...(json.extensions ?? {}), VRMC_vrm: { specVersion: '1.0' } };
    writeFileSync(join(root, 'animated_avatar.glb'), packGlb(json, g.bin));
    const worker = new DescribeWorker(WORKER);
    const d = async (name: string): Promise<FileDetails> => describeFileOnDisk(join(root, name), (path) => worker.describe(path));

    const man = await d('man.fbx');
    const manTakes = listTakes('man.fbx', readFixture('fbx', 'quaternius_male_casual.fbx'));
    expect(manTakes).toHaveLength(11);
    // The library shows the take the studio opens: the longest keyed one (issue 23), Man_Sitting's 8.33 s, not the first take's 1.67 s.
    const longest = manTakes.filter((t) => t.keys > 0).reduce((a, b) => (b.duration > a.duration ? b : a));
    expect(man).toEqual({ path: join(root, 'man.fbx'), kind: 'motion', duration: longest.duration, takes: manTakes });
    expect(longest.duration).toBeCloseTo(8.333, 2);
    const kaykit = await d('kaykit.glb');
    expect(kaykit.kind).toBe('motion');
    expect(kaykit.takes).toEqual(listTakes('kaykit.glb', readFixture('gltf', 'kaykit_rig_medium_general.glb')));
    expect(kaykit.takes).toHaveLength(15);
    expect(await d('robot_avatar.glb')).toEqual({ path: join(root, 'robot_avatar.glb'), kind: 'avatar' });
    const animated = await d('animated_avatar.glb');
    expect(animated.kind).toBe('avatar');
    expect(animated.takes?.map((t) => t.name)).toEqual(listTakes('robot_expressive.glb', readFixture('gltf', 'robot_expressive.glb')).map((t) => t.name));
    expect(await d('Gene.pmx')).toEqual({ path: join(root, 'Gene.pmx'), kind: 'model' });
    expect(await d('broken.pmx')).toEqual({ path: join(root, 'broken.pmx'), kind: 'unreadable', error: 'not a PMX or PMD model (bad header)' });
    await worker.close();
  }, 120_000);

  it('the backend lists .fbx/.glb/.pmx and finds the model beside a .vmd only inside opened folders', async () => {
    const root = tempDir();
    const other = tempDir();
    mkdirSync(join(root, 'gene'));
    copy(fixturePath('vmd', 'gene', 'stand.vmd'), join(root, 'gene', 'stand.vmd'));
    copy(fixturePath('pmx', 'Gene.pmx'), join(root, 'gene', 'Gene.pmx'));
    copy(fixturePath('vmd', 'mmdagent', 'mei_wait.vmd'), join(root, 'mei_wait.vmd'));
    copy(fixturePath('fbx', 'quaternius_male_casual.fbx'), join(root, 'man.fbx'));
    copy(fixturePath('gltf', 'robot_expressive.glb'), join(root, 'robot.glb'));
    copy(fixturePath('vmd', 'gene', 'stand.vmd'), join(other, 'stand.vmd'));
    copy(fixturePath('pmx', 'Gene.pmx'), join(other, 'Gene.pmx'));
    const b = new StudioBackend({ host: 'browser', homeDir: realpathSync(tmpdir()), userDataDir: tempDir(), appVersion: 't', watchCoalesceMs: 20 });
    try {
      const snap = (await b.invoke('openFolder', [root])) as LibrarySnapshot;
      expect(snap.entries.map((e) => e.relPath)).toEqual(['gene/Gene.pmx', 'gene/stand.vmd', 'man.fbx', 'mei_wait.vmd', 'robot.glb']);
      expect(await b.invoke('findMmdModel', [join(snap.root, 'gene', 'stand.vmd')])).toEqual({ path: join(snap.root, 'gene', 'Gene.pmx'), name: 'Gene.pmx' });
      // No model in the folder of mei_wait.vmd (the one in gene/ is another folder's).
      expect(await b.invoke('findMmdModel', [join(snap.root, 'mei_wait.vmd')])).toBeNull();
      // A folder that was not opened: the page may not even ask.
      await expect(b.invoke('findMmdModel', [join(other, 'stand.vmd')])).rejects.toMatchObject({ code: 'DENIED' });
      await expect(b.invoke('findMmdModel', ['relative/stand.vmd'])).rejects.toMatchObject({ code: 'DENIED' });
      // One take exports beside its file as NAME.TAKE.vrma (the CLI's and Convert Folder's name), then NAME.TAKE-2.vrma.
      const take = 'Human Armature|Man_Walk';
      const first = (await b.invoke('exportMotion', [{ bytes: new Uint8Array([1, 2]), sourcePath: join(snap.root, 'man.fbx'), take }])) as { path: string };
      expect(first.path).toBe(join(snap.root, 'man.Human Armature_Man_Walk.vrma'));
      const second = (await b.invoke('exportMotion', [{ bytes: new Uint8Array([3]), sourcePath: join(snap.root, 'man.fbx'), take }])) as { path: string };
      expect(second.path).toBe(join(snap.root, 'man.Human Armature_Man_Walk-2.vrma'));
      expect([...readFileSync(first.path)]).toEqual([1, 2]);
      const forced = (await b.invoke('exportMotion', [{ bytes: new Uint8Array([4]), sourcePath: join(snap.root, 'man.fbx'), take, overwrite: true }])) as { path: string };
      expect(forced.path).toBe(first.path);
      expect([...readFileSync(first.path)]).toEqual([4]);
    } finally {
      await b.dispose();
    }
    // .pmx before .pmd, then by name; only MMD motions have a model.
    const entry = (path: string) => ({ path, relPath: path.slice(1), name: path.slice(path.lastIndexOf('/') + 1), ext: '.pmx' as const, size: 1, mtimeMs: 1 });
    const folders = [{ root: '/m', entries: [entry('/m/b.pmd'), entry('/m/z.pmx'), entry('/m/a.pmx'), entry('/m/sub/c.pmx')] }];
    expect(mmdModelBeside('/m/walk.vmd', folders)?.path).toBe('/m/a.pmx');
    expect(mmdModelBeside('/m/sub/pose.vpd', folders)?.path).toBe('/m/sub/c.pmx');
    expect(mmdModelBeside('/m/walk.bvh', folders)).toBeNull();
    expect(mmdModelBeside('/n/walk.vmd', folders)).toBeNull();
  }, 60_000);

  it('Convert Folder: NAME.TAKE.vrma per take, existing ones kept unless overwrite is chosen; a .vmd with its folder model', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'gene'));
    copy(fixturePath('gltf', 'kaykit_rig_medium_movement_basic.glb'), join(root, 'moves.glb'));
    copy(fixturePath('vmd', 'gene', 'stand.vmd'), join(root, 'gene', 'stand.vmd'));
    copy(fixturePath('pmx', 'Gene.pmx'), join(root, 'gene', 'Gene.pmx'));
    copy(fixturePath('vmd', 'mmdagent', 'mei_greeting.vmd'), join(root, 'mei_greeting.vmd'));
    const glb = readFixture('gltf', 'kaykit_rig_medium_movement_basic.glb');
    const takes = listTakes('moves.glb', glb);
    const outputs = takeOutputs(join(root, 'moves.vrma'), takes.map((t) => t.name));
    expect(outputs).toHaveLength(11);
    // The user's own file under the name of the 2nd take's output.
    writeFileSync(outputs[1].output, 'mine');

    const convert = createWorkerConverter(WORKER, { threads: 2 });
    const first = await convert({ jobId: 'a', folder: root, overwrite: false, onProgress: () => undefined });
    expect(first.failed).toEqual([]);
    expect(first.skipped).toEqual([join(root, 'moves.glb')]);
    expect(first.converted.map((c) => c.target).sort()).toEqual(
      [...outputs.filter((_, i) => i !== 1).map((o) => o.output), join(root, 'gene', 'stand.vrma'), join(root, 'mei_greeting.vrma')].sort(),
    );
    expect(readFileSync(outputs[1].output, 'utf8')).toBe('mine');
    const source = openTakes('moves.glb', glb);
    expect(new Uint8Array(readFileSync(outputs[4].output))).toEqual(writeVrma(source.convert(takes[4].name)));
    // stand.vmd converted with Gene.pmx beside it: the model's bones, not the standard skeleton.
    const stand = readFixture('vmd', 'gene', 'stand.vmd');
    // Converted to files, a VMD is keyed on every frame (the studio's import keeps its keys).
    const withModel = writeVrma(convertVmd(stand, { pmx: readFixture('pmx', 'Gene.pmx'), keys: 'everyFrame' }));
    expect(new Uint8Array(readFileSync(join(root, 'gene', 'stand.vrma')))).toEqual(withModel);
    expect(Buffer.from(withModel).equals(Buffer.from(writeVrma(convertVmd(stand, { keys: 'everyFrame' }))))).toBe(false);
    // mei_greeting.vmd has no model in its folder: the standard skeleton.
    expect(new Uint8Array(readFileSync(join(root, 'mei_greeting.vrma')))).toEqual(writeVrma(convertVmd(readFixture('vmd', 'mmdagent', 'mei_greeting.vmd'), { keys: 'everyFrame' })));

    // Run again: everything exists, nothing is written.
    const mtime = statSync(outputs[4].output).mtimeMs;
    const again = await convert({ jobId: 'b', folder: root, overwrite: false, onProgress: () => undefined });
    expect(again.converted).toEqual([]);
    expect(again.skipped).toHaveLength(13);
    expect(statSync(outputs[4].output).mtimeMs).toBe(mtime);
    // The explicit choice replaces them, the user's file too.
    const forced = await convert({ jobId: 'c', folder: root, overwrite: true, onProgress: () => undefined });
    expect(forced.converted).toHaveLength(13);
    expect(new Uint8Array(readFileSync(outputs[1].output))).toEqual(writeVrma(source.convert(takes[1].name)));
  }, 180_000);
});
