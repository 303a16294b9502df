/**
 * A file whose takes would each become a .vrma is written whole only when the user asked for all
 * of them once they are more than the contract's MAX_TAKES_WITHOUT_ASKING (issue 24, finding 12).
 */
import { fail } from '../errors';

/** Refuses `count` takes of `file` past `max` with TOO_LARGE (take.tooMany), worded for the CLI and the studio. */
export function refuseManyTakes(file: string, count: number, max: number): void {
  if (count <= max) return;
  fail(
    'TOO_LARGE',
    `${file}: its ${count} takes would become ${count} .vrma files, more than ${max} from one file: convert them all only when asked for (vrma-studio convert --all-takes), or one with --take`,
    'take.tooMany',
    { count, max },
  );
}
