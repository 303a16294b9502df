/**
 * Run-time checks of StudioApi arguments, run from the one schema (schema.ts). Each boundary that
 * receives arguments from a less trusted side runs it exactly once: main/electron/ipcCall.ts (IPC) and
 * main/host/server.ts (HTTP); behind them the backend takes `ValidArgs` only. A mismatch is a
 * StudioApiError('BAD_ARGUMENT') naming the method and the field.
 */
import * as v from 'valibot';
import { StudioApiError, type StudioApi, type StudioInvokeMethod } from './studioApi';
import { FIELD_NAMES, PieceSchema, type DeepReadonly } from './schema';
import type { Piece } from './pieces';
import { INVOKE_SCHEMA, type CallSize, type InvokeArgs } from './invokeSchema';

declare const validated: unique symbol;
/** Arguments that passed validateArgs (the brand keeps unvalidated lists out of the backend). */
export type ValidArgs<M extends StudioInvokeMethod> = InvokeArgs<M> & { readonly [validated]: M };

export function isInvokeMethod(name: string): name is StudioInvokeMethod {
  return Object.hasOwn(INVOKE_SCHEMA, name);
}

/** 'motion' for calls carrying motion bytes (large bodies), 'small' for the rest. */
export function callSize(method: StudioInvokeMethod): CallSize {
  return INVOKE_SCHEMA[method].size;
}

function bad(at: string, what: string): never {
  throw new StudioApiError('BAD_ARGUMENT', `${at} must be ${what}`);
}

/** "argument 1.bytes", "argument 1[3].menu" from a valibot issue path. */
function where(method: string, issue: v.BaseIssue<unknown>): string {
  const path = issue.path ?? [];
  let at = `${method} argument ${Number(path[0]?.key ?? 0) + 1}`;
  for (const item of path.slice(1)) {
    if (typeof item.key === 'number') at += `[${item.key}]`;
    else if (!FIELD_NAMES.has(String(item.key))) at += `[${JSON.stringify(item.key)}]`;
    else at += `.${String(item.key)}`;
  }
  return at;
}

/** Returns the arguments branded as valid, or throws StudioApiError('BAD_ARGUMENT'). */
export function validateArgs<M extends StudioInvokeMethod>(method: M, args: readonly unknown[]): ValidArgs<M> {
  const schema = INVOKE_SCHEMA[method]?.args;
  if (!schema) throw new StudioApiError('BAD_ARGUMENT', `unknown method ${String(method)}`);
  if (!Array.isArray(args)) bad(method, 'called with an argument list');
  // Trailing undefined (optional arguments) may be dropped or sent; anything beyond is refused.
  let n = args.length;
  while (n > schema.items.length && args[n - 1] === undefined) n--;
  if (n > schema.items.length) bad(method, `called with at most ${schema.items.length} argument(s)`);
  const result = v.safeParse(schema, args.slice(0, n));
  if (!result.success) {
    const issue = result.issues[0];
    bad(where(method, issue), issue.message);
  }
  return result.output as ValidArgs<M>;
}

// Compile-time: every StudioApi method takes exactly the arguments its schema describes.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * A parameter list with every position optional and deeply readonly: compares the types of the
 * positions (which of them may be left out is checked at run time by the tests).
 */
type Positional<T extends readonly unknown[]> = { -readonly [K in keyof T]+?: DeepReadonly<T[K]> | undefined };
type ParamsMatch = {
  [M in StudioInvokeMethod]: Same<Positional<Parameters<StudioApi[M]>>, Positional<InvokeArgs<M>>> extends true ? true : M;
};
/** Names the methods whose StudioApi signature and schema disagree (never when all agree). */
type Mismatched = Exclude<ParamsMatch[StudioInvokeMethod], true>;
const paramsMatch: [Mismatched] extends [never] ? true : Mismatched = true;
void paramsMatch;

/** putPiece's one argument (contract/pieces.ts), checked at both boundaries like every call's. */
export function validatePiece(args: readonly unknown[]): Piece {
  const r = Array.isArray(args) && args.length === 1 ? v.safeParse(PieceSchema, args[0]) : null;
  if (!r?.success) throw new StudioApiError('BAD_ARGUMENT', `putPiece argument 1 must be a piece {upload, offset, total, bytes}${r ? `: ${r.issues[0].message}` : ''}`);
  return r.output;
}
