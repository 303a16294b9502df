/** glTF JSON as the readers walk it: an object, and a list that is empty when the key holds no array. */
export type Json = Record<string, unknown>;

/** A JSON object (not null, not an array): the one test every glTF and VRMA reader uses. */
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** o[k] when it is an array, else an empty list (readers that tolerate a missing or malformed list). */
export const list = (o: Json, k: string): unknown[] => (Array.isArray(o[k]) ? (o[k] as unknown[]) : []);
