/** Entry of the `vrma-studio` command-line tool (built to out/main/cli.js, run by bin/vrma-studio.cjs). */
import { runCli } from './runCli';

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
