/**
 * The typed errors of a conversion job stopped by its limits (main/services/convertEngine.ts runs
 * each job on a worker thread with a heap limit and a deadline scaled by the file's size: issue 24,
 * findings 1 and 13). As MotionErrors, so the studio words them in the user's language.
 */
import { MotionError } from '../errors';

export function deadlineError(seconds: number, megabytes: number): MotionError {
  return new MotionError('TOO_LARGE', 'convert.deadline', { seconds, megabytes });
}

export function outOfMemoryError(heap: number): MotionError {
  return new MotionError('TOO_LARGE', 'convert.outOfMemory', { heap });
}
