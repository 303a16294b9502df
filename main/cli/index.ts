/** Entry of the `vrma-studio` command-line tool (built to out/main/cli.js, run by bin/vrma-studio.cjs). */
import { runCli } from './runCli';

// The reader went away (`vrma-studio convert --list-takes x.fbx | head -1`): there is no one left to
// tell anything, so end quietly instead of printing an unhandled EPIPE and its stack (issue 24,
// finding 16). Exit 0, as the output that was wanted has been read.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

runCli(process.argv.slice(2), {
  out: (l) => process.stdout.write(l + '\n'),
  err: (l) => process.stderr.write(l + '\n'),
  isTTY: Boolean(process.stdout.isTTY),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`vrma-studio: internal error: ${(e as Error)?.stack ?? e}\n`);
    process.exitCode = 70;
  },
);
