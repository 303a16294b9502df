/**
 * One wording and one code per file-system error: the errno -> StudioApi code mapping that the host,
 * the app and `vrma-studio info --json` share (shared/fileProblem.ts studioErrorCodeOf), and the
 * catalogue's English that the CLI and the conversion worker print (fileFailure), which is the
 * studio's `fileError.<CODE>` message word for word.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileFailure, fileProblemWords, studioErrorCodeOf } from '../../../shared/fileProblem';
import { toErrorInfo } from '../../../main/services/errorInfo';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { cli } from '../../../testkit/cli';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-file-errors-');
const errno = (code: string, path = '/m/walk.bvh') => Object.assign(new Error(`${code}: something, open '${path}'`), { code, path });

describe('file-system errors', () => {
  it('map to one StudioApi code, in the backend and the CLI alike', () => {
    const table = { ENOENT: 'NOT_FOUND', EACCES: 'DENIED', EPERM: 'DENIED', EEXIST: 'EXISTS', EISDIR: 'BAD_FILE', ENOTDIR: 'BAD_FILE', ENOSPC: 'INTERNAL' } as const;
    for (const [code, api] of Object.entries(table)) {
      expect(studioErrorCodeOf(code), code).toBe(api);
      expect(toErrorInfo(errno(code)).code, code).toBe(api);
    }
    expect(studioErrorCodeOf(undefined)).toBe('INTERNAL');
  });

  it('are worded from the catalogue: the CLI in English with the whole path, the studio with the base name', () => {
    expect(fileFailure(errno('ENOENT'), '/m/walk.bvh')).toBe('/m/walk.bvh: no such file');
    expect(fileFailure(errno('EACCES'), '/m/walk.bvh')).toBe('/m/walk.bvh: permission denied');
    expect(fileFailure(errno('ENOSPC'), '/m/out.vrma', true)).toBe('cannot write /m/out.vrma: no space left on the disk');
    expect(fileFailure(errno('EXDEV'), '/m/walk.bvh')).toBe('/m/walk.bvh: the file could not be accessed (EXDEV)');
    // No code at all: Node's (or the thrower's) own message.
    expect(fileFailure(new Error('boom'), '/m/walk.bvh')).toBe('/m/walk.bvh: boom');
    expect(CATALOGUE.en['fileError.ENOENT']).toBe('{file}: no such file');
    expect(fileProblemWords({ errno: 'ENOENT', file: '/m/walk.bvh' }, { locale: 'ja', file: 'walk.bvh' })).toBe('walk.bvh: ファイルがありません');
  });

  it('`info --json` reports a folder given as a file as BAD_FILE, the code the studio gets for it', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'x.vrma'));
    const r = await cli('info', join(dir, 'x.vrma'), '--json');
    expect(r.code).toBe(1);
    expect(r.err).toBe(`vrma-studio info: ${join(dir, 'x.vrma')}: is a directory`);
    expect(JSON.parse(r.out)[0].error.code).toBe('BAD_FILE');
  });
});
