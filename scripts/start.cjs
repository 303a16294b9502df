#!/usr/bin/env node
// `npm start`: build, then launch the desktop app. Where the Electron runtime is not available
// (it could not be downloaded), say so and point at the browser version instead.
const { spawnSync, spawn } = require('node:child_process');
const path = require('node:path');
const { electronBinary } = require('./electronRuntime.cjs');

const root = path.join(__dirname, '..');
const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('\nnpm start: the build failed (see above).');
  process.exit(build.status || 1);
}

let electron = electronBinary();
if (!electron.path && electron.installer) {
  // Electron 42+ fetches its runtime on first use rather than at npm ci; try that once, quietly.
  console.log('Fetching the Electron runtime (first start only)...');
  const fetched = spawnSync(process.execPath, [electron.installer], { cwd: root, stdio: 'ignore', timeout: 300_000 });
  if (fetched.status === 0) electron = electronBinary();
  else electron = { ...electron, reason: electron.reason + '; fetching it from github.com failed' };
}
if (!electron.path) {
  console.error(
    [
      '',
      'VRMA Studio cannot start as a desktop app here: ' + electron.reason + '.',
      'Electron downloads its runtime on first start; that needs network access to github.com (or ELECTRON_MIRROR).',
      '',
      'Run the studio in your browser instead:',
      '',
      '    npm run web',
      '',
    ].join('\n'),
  );
  process.exit(1);
}

const child = spawn(electron.path, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
