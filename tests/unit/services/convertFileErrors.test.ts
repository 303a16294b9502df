/**
 * The conversion worker's file-system errors (issue 12): a missing, unreadable or folder input and an
 * output that cannot be written come back with Node's error code and the path as data (FileProblem),
 * the CLI's English message unchanged, and the studio words them through fileError.* with the file's
 * name in its language. Real files and folders in a temp folder. The permission cases check first with a
 * real open whether permissions are enforced; when the suite runs as root (CI), where they are not, the
 * case's body runs in a child that has dropped to uid 65534 (testkit/unprivileged.ts).
 */
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runConvertJob } from '../../../main/services/convertWorker';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { setLocale } from '../../../shared/i18n';
import { errorText, fileProblemText, problemText, warningText } from '../../../renderer/ui/messages';
import { StudioBackend } from '../../../main/services/backend';
import { tmpdir } from 'node:os';
import { lockedFile, openToNobody, permissionMode, runAsNobody } from '../../../testkit/unprivileged';
import { convertFolderOnce, convertOne } from './permissionJobs';
import { englishWords, JAPANESE } from '../../../testkit/japaneseText';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-fserr-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');
afterEach(() => setLocale('en'));

/** How the permission cases run here: in-process (a normal user), as uid 65534 (root), or not at all. */
const PERMS = permissionMode(useTempDirs('vrma-fsprobe-')());
const SKIP_PERMS = PERMS === null ? ' — skipped: root, and no child process could drop to uid 65534 here' : '';
const asCaller = <A extends unknown[], R>(fn: (...a: A) => Promise<R>, name: string) => (...args: A): Promise<R> =>
  PERMS === 'nobody' ? runAsNobody<R>('tests/unit/services/permissionJobs.ts', name, args) : fn(...args);
const convertOneAsCaller = asCaller(convertOne, 'convertOne');
const convertFolderAsCaller = asCaller(convertFolderOnce, 'convertFolderOnce');

const job = (input: string, output: string) => ({ id: 1, input, output, optimize: false, force: false });

/** The studio's text in Japanese: Japanese, names the file, no English besides it. */
function expectJapanese(text: string, file: string): void {
  expect(text).toContain(file);
  expect(JAPANESE.test(text), text).toBe(true);
  expect(englishWords(text.split(file).join(' ')), text).toEqual([]);
}

describe('conversion worker: file-system errors as data, worded in the user language', () => {
  it('a missing input: ENOENT with its path; the CLI message is unchanged', async () => {
    const dir = tempDir();
    const input = join(dir, 'missing_walk.bvh');
    const r = await runConvertJob(job(input, join(dir, 'missing_walk.vrma')));
    expect(r.ok).toBe(false);
    expect(r.error).toBe(`${input}: no such file`);
    expect(r.fileProblem).toEqual({ errno: 'ENOENT', file: input });
    expect(r.problem).toBeUndefined();
    expect(fileProblemText(r.fileProblem!)).toBe('missing_walk.bvh: no such file');
    setLocale('ja');
    const ja = problemText(r.error!, r.problem, r.fileProblem);
    expect(ja).toBe('missing_walk.bvh: ファイルがありません');
    expectJapanese(ja, 'missing_walk.bvh');
  });

  it('a folder where the input should be: EISDIR', async () => {
    const dir = tempDir();
    const input = join(dir, 'takes.fbx');
    mkdirSync(input);
    const r = await runConvertJob(job(input, join(dir, 'takes.vrma')));
    expect(r.fileProblem).toEqual({ errno: 'EISDIR', file: input });
    expect(r.error).toBe(`${input}: is a directory`);
    setLocale('ja');
    expect(fileProblemText(r.fileProblem!)).toBe('takes.fbx: ファイルではなくフォルダです');
  });

  it.skipIf(PERMS === null)(`an unreadable input (chmod 000): EACCES${SKIP_PERMS}`, async () => {
    const dir = openToNobody(tempDir());
    const input = lockedFile(dir, 'locked.bvh');
    const r = await convertOneAsCaller(input, join(dir, 'locked.vrma'));
    expect(r.fileProblem).toEqual({ errno: 'EACCES', file: input });
    expect(r.error).toBe(`${input}: permission denied`);
    setLocale('ja');
    const ja = fileProblemText(r.fileProblem!);
    expect(ja).toBe('locked.bvh: アクセスが拒否されました');
    expectJapanese(ja, 'locked.bvh');
  });
});

describeFixtures('conversion worker: an output that cannot be written, a folder with an unreadable file', () => {
  it('a file stands where the folder of the .vrma should be (EEXIST from mkdir, worded as ENOTDIR): the output named, the conversion’s warnings kept', async () => {
    const dir = tempDir();
    const input = join(dir, 'walk.bvh');
    copyFileSync(fixturePath('bvh', 'cmu_12_01_walk.bvh'), input);
    chmodSync(input, 0o644);
    writeFileSync(join(dir, 'out'), 'a file, not a folder');
    const output = join(dir, 'out', 'walk.vrma');
    const r = await runConvertJob(job(input, output));
    expect(r.ok).toBe(false);
    expect(r.fileProblem).toEqual({ errno: 'ENOTDIR', file: output, writing: true });
    expect(r.error).toMatch(new RegExp(`^cannot write ${output}: EEXIST`));
    // The motion was converted: its warnings come back as data too.
    expect(r.warnings.map((w) => w.detail)).toContain('bvh.summary');
    setLocale('ja');
    const ja = fileProblemText(r.fileProblem!);
    expect(ja).toBe('書き込めません: walk.vrma: パスの途中がフォルダではありません');
    expectJapanese(ja, 'walk.vrma');
  });

  it.skipIf(PERMS === null)(`Convert Folder through real workers: an unreadable .bvh fails with EACCES, the summary carries it to the studio${SKIP_PERMS}`, async () => {
    const root = openToNobody(tempDir());
    copyFileSync(fixturePath('bvh', 'pybvh_bvh_test1.bvh'), join(root, 'test1.bvh'));
    chmodSync(join(root, 'test1.bvh'), 0o644);
    const locked = lockedFile(root, 'locked.bvh');
    const summary = await convertFolderAsCaller(root);
    expect(summary.converted).toEqual([join(root, 'test1.bvh')]);
    // JSON drops the undefined `problem` the in-process summary carries; compare what both have.
    expect(summary.failed.map(({ problem: _p, ...f }) => f)).toEqual([{ source: locked, message: `${locked}: permission denied`, fileProblem: { errno: 'EACCES', file: locked } }]);
    expect(summary.failed[0].problem).toBeUndefined();
    setLocale('ja');
    const f = summary.failed[0];
    expect(problemText(f.message, f.problem, f.fileProblem)).toBe('locked.bvh: アクセスが拒否されました');
  });
});

describeFixtures('Convert Folder: the warnings of each converted file cross the workers as data', () => {
  it('a CMU walk: its summary and folded joints in the summary, worded in Japanese with the real values', async () => {
    const root = tempDir();
    copyFileSync(fixturePath('bvh', 'cmu_12_01_walk.bvh'), join(root, 'walk.bvh'));
    chmodSync(join(root, 'walk.bvh'), 0o644);
    const summary = await createWorkerConverter(WORKER, { threads: 1 })({ jobId: 'w', folder: root, overwrite: false, onProgress: () => {} });
    expect(summary.converted).toHaveLength(1);
    const warnings = summary.converted[0].warnings ?? [];
    expect(warnings.map((w) => w.detail)).toEqual(['bvh.summary', 'humanoid.feetLifted', 'humanoid.jointsFolded']);
    // The CLI's English sentences, unchanged, beside the details.
    expect(warnings[0].text).toBe('BVH: 524 frames at 120.000 fps, units cmu, skeleton found by names');
    setLocale('ja');
    expect(warnings.map(warningText)).toEqual([
      'BVH: 524 フレーム、120 fps、単位は CMU の単位、骨格は名前から認識しました',
      `足が床より下に入った ${warnings[1].params.count} フレームを持ち上げました`,
      '割り当てたボーンの子に畳み込んだジョイント: LHipJoint, RHipJoint, Neck1, LeftFingerBase, RightFingerBase',
    ]);
    expect(warnings[1].params.count as number).toBeGreaterThan(0);
  });
});

describe('the host and Electron: a file-system error of a call names the file in the user language', () => {
  it('a typed path to a file that does not exist: NOT_FOUND with ENOENT and its path; the studio words it', async () => {
    const root = tempDir();
    const b = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: tempDir(), appVersion: '0' });
    try {
      await b.invoke('openFolder', [root]);
      const e = await b.invoke('openFile', [join(root, 'idle.bvh')]).then(() => null, (x: unknown) => x as { code: string; message: string; fileProblem?: unknown });
      expect(e?.code).toBe('NOT_FOUND');
      expect(e?.message).toBe(`${join(root, 'idle.bvh')}: no such file`);
      expect(e?.fileProblem).toEqual({ errno: 'ENOENT', file: join(root, 'idle.bvh') });
      expect(errorText(e)).toBe('The file or folder was not found (idle.bvh: no such file)');
      setLocale('ja');
      const ja = errorText(e);
      expect(ja).toBe('ファイルまたはフォルダが見つかりません（idle.bvh: ファイルがありません）');
      expectJapanese(ja, 'idle.bvh');
    } finally {
      await b.dispose();
    }
  });
});
