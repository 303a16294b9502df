/**
 * A reader's or converter's warning: something the core repaired, assumed or left out while reading
 * a file (a draft specVersion, joints folded into their children, no MMD model given ...).
 *
 * Like MotionError (shared/errors.ts), a warning keeps its English `text` (what the CLI prints,
 * unchanged) and names a `detail`: a key of the catalogue's `warning.*` messages
 * (shared/i18n/messages/warnings.ts) with `params` (bone, node, channel, counts ...), so the studio
 * words it in the user's language with the real values. It is plain data: it crosses the worker
 * thread, IPC and HTTP as it is. tests/unit/i18n/warningDetails.test.ts finds every warning site and
 * fails when one passes no detail, a detail missing in either language, or not every placeholder.
 */
import type { MessageKey } from './i18n/catalogue';

/** A detail of the catalogue: `warning.<detail>` (a type error when the English catalogue lacks it). */
export type WarningDetail = MessageKey extends infer K ? (K extends `warning.${infer D}` ? D : never) : never;

/** The values a detail's message shows: numbers are formatted in the user's language. */
export type WarningParams = Readonly<Record<string, string | number>>;

export interface MotionWarning {
  /** The English sentence (the CLI's, unchanged). */
  readonly text: string;
  readonly detail: WarningDetail;
  readonly params: WarningParams;
}

/** The one way the core makes a warning (the test finds these calls). */
export function warning(text: string, detail: WarningDetail, params: WarningParams = {}): MotionWarning {
  return { text, detail, params };
}

/** The English sentences, for the CLI and for comparing warnings. */
export function warningTexts(warnings: readonly MotionWarning[]): string[] {
  return warnings.map((w) => w.text);
}
