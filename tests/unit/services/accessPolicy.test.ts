import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AccessPolicy, checkPathSyntax, isInside } from '../../../main/services/accessPolicy';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs();

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? 'throw';
  }
}

function layout() {
  const base = tempDir();
  const opened = join(base, 'motions');
  const outside = join(base, 'private');
  mkdirSync(join(opened, 'walks'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(opened, 'walks', 'walk.vmd'), 'inside');
  writeFileSync(join(outside, 'secret.vrma'), 'secret');
  writeFileSync(join(base, 'motions-evil.vrma'), 'sibling with a shared prefix');
  symlinkSync(join(outside, 'secret.vrma'), join(opened, 'link-to-secret.vrma'));
  symlinkSync(outside, join(opened, 'link-to-private'));
  symlinkSync(join(opened, 'walks', 'walk.vmd'), join(opened, 'link-inside.vmd'));
  return { base, opened, outside };
}

describe('AccessPolicy', () => {
  it('refuses relative paths, NUL bytes and any .. segment before looking at the disk', () => {
    expect(() => checkPathSyntax('walks/walk.vmd')).toThrow(/absolute/);
    expect(() => checkPathSyntax('/a/b\0c')).toThrow(/NUL/);
    expect(() => checkPathSyntax('/a/b/../c')).toThrow(/\.\./);
    expect(() => checkPathSyntax('/a/b/..')).toThrow(/\.\./);
    expect(checkPathSyntax('/a/b/..c/d')).toBe('/a/b/..c/d');
  });

  it('isInside compares whole path segments', () => {
    expect(isInside('/m', '/m')).toBe(true);
    expect(isInside('/m', '/m/a/b')).toBe(true);
    expect(isInside('/m', '/m-evil/a')).toBe(false);
    expect(isInside('/m', '/')).toBe(false);
    expect(isInside('/m', '/m/..x')).toBe(true);
  });

  it('reads only inside opened folders and opened files, never through a symlink leading out', async () => {
    const { base, opened, outside } = layout();
    const policy = new AccessPolicy();
    expect(await code(policy.resolveReadable(join(opened, 'walks', 'walk.vmd')))).toBe('DENIED'); // nothing opened yet
    await policy.grantFolder(opened);
    expect(await policy.resolveReadable(join(opened, 'walks', 'walk.vmd'))).toBe(join(opened, 'walks', 'walk.vmd'));
    expect(await policy.resolveReadable(join(opened, 'link-inside.vmd'))).toBe(join(opened, 'walks', 'walk.vmd'));
    expect(await code(policy.resolveReadable(join(outside, 'secret.vrma')))).toBe('DENIED');
    expect(await code(policy.resolveReadable(join(opened, 'link-to-secret.vrma')))).toBe('DENIED');
    expect(await code(policy.resolveReadable(join(opened, 'link-to-private', 'secret.vrma')))).toBe('DENIED');
    expect(await code(policy.resolveReadable(`${opened}/walks/../../private/secret.vrma`))).toBe('DENIED');
    expect(await code(policy.resolveReadable(join(base, 'motions-evil.vrma')))).toBe('DENIED');
    expect(await code(policy.resolveReadable(join(opened, 'missing.vrma')))).toBe('DENIED');
    expect(await code(policy.resolveReadable('/etc/passwd'))).toBe('DENIED');

    const single = new AccessPolicy();
    await single.grantFile(join(outside, 'secret.vrma'));
    expect(await single.resolveReadable(join(outside, 'secret.vrma'))).toBe(join(outside, 'secret.vrma'));
    expect(await code(single.resolveReadable(join(opened, 'walks', 'walk.vmd')))).toBe('DENIED');
  });

  it('writes only inside opened folders or beside opened files, never through a symlink', async () => {
    const { opened, outside } = layout();
    const policy = new AccessPolicy();
    await policy.grantFolder(opened);
    expect(await policy.resolveWritable(join(opened, 'walks', 'walk.vrma'))).toBe(join(opened, 'walks', 'walk.vrma'));
    expect(await code(policy.resolveWritable(join(outside, 'new.vrma')))).toBe('DENIED');
    expect(await code(policy.resolveWritable(join(opened, 'link-to-private', 'new.vrma')))).toBe('DENIED');
    expect(await code(policy.resolveWritable(join(opened, 'link-to-secret.vrma')))).toBe('DENIED');
    expect(await code(policy.resolveWritable(join(opened, 'nofolder', 'x.vrma')))).toBe('DENIED');

    const beside = new AccessPolicy();
    await beside.grantFile(join(outside, 'secret.vrma'));
    expect(await beside.resolveWritable(join(outside, 'secret.edited.vrma'))).toBe(join(outside, 'secret.edited.vrma'));
    expect(await code(beside.resolveWritable(join(opened, 'x.vrma')))).toBe('DENIED');
  });

  it('revoking a folder takes its access away', async () => {
    const { opened } = layout();
    const policy = new AccessPolicy();
    const root = await policy.grantFolder(opened);
    policy.revokeFolder(root);
    expect(await code(policy.resolveReadable(join(opened, 'walks', 'walk.vmd')))).toBe('DENIED');
  });
});
