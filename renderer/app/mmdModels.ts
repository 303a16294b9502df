/**
 * The MMD models the studio converts .vmd/.vpd files with (issue 14). A .pmx/.pmd the user opens or
 * drops becomes the model of its folder (a model opened without a path, as browser drops are, is the
 * model for MMD files with no model of their own); a .vmd opened from a folder uses, in this order,
 * the model the user gave for that folder, the model beside it (found by main among the files of the
 * opened folders: StudioApi.findMmdModel, so the page never names a path it was not given), the model
 * given without a folder. Without any, the converter's standard MMD skeleton is used.
 */
import type { StudioApi } from '../../shared/contract/studioApi';
import { checkMmdModel } from './core';

export interface MmdModel {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Where it came from, when the page was given a path (library, desktop open or drop). */
  readonly path?: string;
}

/** The folder part of a path the page was given ('/' or '\' separated). */
export function folderOf(path: string): string {
  return path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')));
}

export class MmdModels {
  private readonly byFolder = new Map<string, MmdModel>();
  private loose: MmdModel | null = null;
  /** Models found beside motions, by folder (read once per folder and file modification). */
  private readonly beside = new Map<string, MmdModel | null>();

  constructor(private readonly api: StudioApi | null) {}

  /** The models the user gave (opened or dropped), oldest first: what the VMD export offers to write for. */
  private readonly givenList: MmdModel[] = [];
  private readonly listeners = new Set<() => void>();

  /** Checks the model (its bone table must parse) and remembers it for its folder. Throws MotionError. */
  async use(model: MmdModel): Promise<void> {
    await checkMmdModel(model.name, model.bytes);
    if (model.path) this.byFolder.set(folderOf(model.path), model);
    else this.loose = model;
    const same = this.givenList.findIndex((m) => (m.path ?? m.name) === (model.path ?? model.name));
    if (same >= 0) this.givenList.splice(same, 1);
    this.givenList.push(model);
    for (const l of this.listeners) l();
  }

  given(): readonly MmdModel[] {
    return this.givenList;
  }

  onGiven(cb: () => void): void {
    this.listeners.add(cb);
  }

  /** The model to convert the MMD file at `path` (or a file without one) with, or null. */
  async modelFor(path: string | undefined): Promise<MmdModel | null> {
    if (path) {
      const folder = folderOf(path);
      const given = this.byFolder.get(folder);
      if (given) return given;
      const found = await this.findBeside(path);
      if (found) return found;
    }
    return this.loose;
  }

  private async findBeside(path: string): Promise<MmdModel | null> {
    if (!this.api) return null;
    let hit: { path: string; name: string } | null;
    try {
      hit = await this.api.findMmdModel(path);
    } catch {
      return null; // not in an opened folder: no model beside it is reachable
    }
    if (!hit) return null;
    const cached = this.beside.get(hit.path);
    if (cached) return cached;
    const model: MmdModel = { name: hit.name, path: hit.path, bytes: await this.api.readFile(hit.path) };
    await checkMmdModel(model.name, model.bytes);
    this.beside.set(hit.path, model);
    return model;
  }
}
