/** The contract's types as inferred from its valibot schemas: deeply readonly (the contract hands out immutable data). */
import type * as v from 'valibot';

export type DeepReadonly<T> = T extends Uint8Array ? T
  : T extends readonly (infer U)[] ? readonly DeepReadonly<U>[]
  : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
  : T;
export type Infer<S extends v.GenericSchema> = DeepReadonly<v.InferOutput<S>>;

/** Compile-time equality of two types (`const ok: SameType<A, B> = true` fails to compile when they differ). */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
