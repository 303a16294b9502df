/**
 * Save, Save As and Export, all atomic and all inside what the user opened. Save overwrites the
 * document's own file; Save As and Export never replace an existing file unless asked.
 */
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { exportTargetAs, exportTargetFor } from '../../shared/formats/outputNames';
import { StudioApiError, type ExportRequest, type SaveAsRequest, type SaveRequest, type SaveResult } from '../../shared/contract/studioApi';
import type { AccessPolicy } from './accessPolicy';
import { fileProblemWords, type FileProblem } from '../../shared/fileProblem';
import { FileExistsError, removeStaleTemps, writeFileAtomic } from './atomicWrite';

async function exists(path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function write(policy: AccessPolicy, target: string, bytes: Uint8Array, overwrite: boolean): Promise<SaveResult> {
  try {
    // target comes from resolveWritable: its folder is already the real one, checked again before the rename.
    await writeFileAtomic(target, bytes, { overwrite, expectDir: dirname(target) });
  } catch (e) {
    if (e instanceof FileExistsError) {
      const exists: FileProblem = { errno: 'EEXIST', file: target };
      throw new StudioApiError('EXISTS', fileProblemWords(exists, { locale: 'en' }), exists);
    }
    throw e;
  }
  policy.grantWritten(target);
  await tidyOnce(dirname(target));
  return { path: target, size: bytes.length };
}

const tidied = new Set<string>();
/** The first write into a folder in this run also removes our temp files a crash left there. */
async function tidyOnce(dir: string): Promise<void> {
  if (tidied.has(dir)) return;
  tidied.add(dir);
  await removeStaleTemps(dir);
}

/** Save: replace the document's file (it must be one the user opened or saved to). */
export async function saveDocument(policy: AccessPolicy, req: SaveRequest): Promise<SaveResult> {
  await policy.resolveReadable(req.path); // the file itself must be known to us...
  const target = await policy.resolveWritable(req.path); // ...and writable where it is
  return write(policy, target, req.bytes, true);
}

/** Save As to a chosen path (from the dialog, or typed in the browser host). */
export async function saveDocumentAs(policy: AccessPolicy, req: SaveAsRequest & { path: string }): Promise<SaveResult> {
  const target = await policy.resolveWritable(req.path);
  return write(policy, target, req.bytes, req.overwrite === true);
}

/** Export next to the source, named by the one naming module (shared/formats/outputNames.ts): a .vrma, or another format. */
/**
 * What each export format's file starts with: the page names only the format (main names the file),
 * and main refuses bytes that are not that format, so an export cannot drop arbitrary content.
 */
const EXPORT_SIGNATURES: Readonly<Record<string, string>> = { vmd: 'Vocaloid Motion Data 0002', bvh: 'HIERARCHY', glb: 'glTF', fbx: 'Kaydara FBX Binary' };

function checkExportBytes(format: string, bytes: Uint8Array): void {
  const sig = EXPORT_SIGNATURES[format];
  if (!sig) return;
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, sig.length));
  if (head !== sig) throw new StudioApiError('BAD_ARGUMENT', `the bytes are not a .${format} file`);
}

export async function exportBesideSource(policy: AccessPolicy, req: ExportRequest): Promise<SaveResult> {
  if (req.format) checkExportBytes(req.format, req.bytes);
  const source = await policy.resolveReadable(req.sourcePath);
  // One take of robot.fbx: robot.TAKE.vrma, then robot.TAKE-2.vrma.
  for (let attempt = 0; attempt < 5; attempt++) {
    const other = req.format && req.format !== 'vrma' ? req.format : undefined;
    const name = other ? await exportTargetAs(source, other, exists, req.overwrite === true, req.take) : await exportTargetFor(source, exists, req.overwrite === true, req.take);
    const target = await policy.resolveWritable(name, other ? `.${other}` : undefined);
    try {
      return await write(policy, target, req.bytes, req.overwrite === true);
    } catch (e) {
      // Someone took the name between the check and the write: pick the next one.
      if (!(e instanceof StudioApiError && e.code === 'EXISTS')) throw e;
    }
  }
  throw new StudioApiError('EXISTS', `could not find a free export name beside ${req.sourcePath}`);
}
