/**
 * Each StudioApi invoke method's positional arguments, built from the value schemas of schema.ts. It
 * sits above studioApi.ts (it names every method) so that the value schemas stay below it.
 */
import * as v from 'valibot';
import type { StudioInvokeMethod } from './studioApi';
import {
  AutosaveSessionSchema,
  CloseAnswerSchema,
  ConvertFolderRequestSchema,
  CountSchema as count,
  DocumentStateSchema,
  ExportRequestSchema,
  MenuCommandSchema,
  OpenOptionsSchema,
  PathSchema,
  SaveAsRequestSchema,
  SaveRequestSchema,
  SettingsPatchSchema,
} from './schema';

/**
 * How large a call's request may be: 'motion' calls carry motion bytes (large bodies, and the host
 * counts them against its upload memory budget), 'small' calls carry paths and settings.
 */
export type CallSize = 'small' | 'motion';

export interface MethodSchema {
  readonly args: v.StrictTupleSchema<v.TupleItems, v.ErrorMessage<v.StrictTupleIssue> | undefined>;
  readonly size: CallSize;
}

const call = <const T extends v.TupleItems>(items: T, size: CallSize = 'small') => ({ args: v.strictTuple(items, 'an argument list'), size }) as const;

/** Positional arguments of every invoke method. */
export const INVOKE_SCHEMA = {
  getPlatform: call([]),
  openFolder: call([v.optional(PathSchema), v.optional(OpenOptionsSchema)]),
  closeFolder: call([PathSchema]),
  listLibrary: call([]),
  describeFile: call([PathSchema]),
  openFile: call([v.optional(PathSchema), v.optional(OpenOptionsSchema)]),
  readFile: call([PathSchema]),
  findMmdModel: call([PathSchema]),
  openDropped: call([PathSchema]),
  saveFile: call([SaveRequestSchema], 'motion'),
  saveFileAs: call([SaveAsRequestSchema], 'motion'),
  exportMotion: call([ExportRequestSchema], 'motion'),
  convertFolder: call([ConvertFolderRequestSchema]),
  listRecent: call([]),
  clearRecent: call([]),
  autosave: call([AutosaveSessionSchema], 'motion'),
  clearAutosave: call([]),
  checkRecovery: call([]),
  getSettings: call([]),
  setSettings: call([SettingsPatchSchema]),
  setCommands: call([v.pipe(v.array(MenuCommandSchema, 'an array of at most 500 items'), v.maxLength(500, 'an array of at most 500 items'))]),
  setDocumentState: call([DocumentStateSchema]),
  takeLaunchRequests: call([]),
  answerClose: call([count, CloseAnswerSchema]),
} as const satisfies Record<StudioInvokeMethod, MethodSchema>;

export type InvokeSchema = typeof INVOKE_SCHEMA;
/** The arguments of `M` after validation. */
export type InvokeArgs<M extends StudioInvokeMethod> = v.InferOutput<InvokeSchema[M]['args']>;
