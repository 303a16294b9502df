/**
 * A file whose takes would each become a .vrma is written whole only when the user asked for all
 * of them once they are more than the contract's MAX_TAKES_WITHOUT_ASKING (issue 24, finding 12).
 */
import { fail } from '../errors';

/** Refuses `count` takes of `file` past `max` with TOO_LARGE (take.tooMany), worded for the CLI and the studio. */
export function refuseManyTakes(_file: string, count: number, max: number): void {
  if (count <= max) return;
  fail(
    'TOO_LARGE',
    'take.tooMany',
    { count, max },
  );
}
