#!/usr/bin/env node
// `npm start`: build, then launch the desktop app. Where the Electron runtime is not available
// (it could not be downloaded), say why in one line and start the browser version instead, exactly
// as `npm run web` does, so the README's start command always opens the studio.
// VRMA_START_NO_BUILD=1 skips the build (the output is already there, e.g. in tests).
const { spawnSync, spawn } = require('node:child_process');
const path = require('node:path');
const { electronBinary } = require('./electronRuntime.cjs');

const root = path.join(__dirname, '..');
const build = process.env.VRMA_START_NO_BUILD === '1' ? { status: 0 }
  : spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('\nnpm start: the build failed (see above).');
  process.exit(build.status || 1);
}

let electron = electronBinary();
// An explicit ELECTRON_OVERRIDE_DIST_PATH names the runtime to use: fetching another would not help.
if (!electron.path && electron.installer && !process.env.ELECTRON_OVERRIDE_DIST_PATH) {
  // Electron 42+ fetches its runtime on first use rather than at npm ci; try that once, quietly.
  console.log('Fetching the Electron runtime (first start only)...');
  const fetched = spawnSync(process.execPath, [electron.installer], { cwd: root, stdio: 'ignore', timeout: 300_000 });
  if (fetched.status === 0) electron = electronBinary();
  else electron = { ...electron, reason: electron.reason + '; fetching it from github.com failed' };
}
if (!electron.path) {
  console.error(`VRMA Studio: the desktop app cannot start here (${electron.reason}); starting the browser version instead (npm run web).`);
  const web = spawn(process.execPath, [path.join(root, 'out', 'main', 'host.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  web.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => web.kill(sig));
} else {
  const child = spawn(electron.path, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}
