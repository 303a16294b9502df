#!/usr/bin/env node
// `npm run dist`: build, then package installers with electron-builder (electron-builder.yml):
// AppImage + deb on Linux, NSIS on Windows, dmg on macOS (the current platform by default; pass
// electron-builder flags after `--`, e.g. `npm run dist -- --linux deb`).
// electron-builder downloads the Electron runtime (and AppImage/fpm tools) from GitHub; where it
// cannot, this script says exactly what was missing instead of leaving a stack trace.
const { spawnSync, spawn } = require('node:child_process');
const path = require('node:path');
const os = require('node:os');

const root = path.join(__dirname, '..');
const electronVersion = require(path.join(root, 'node_modules', 'electron', 'package.json')).version;

const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('\nnpm run dist: the build failed (see above).');
  process.exit(build.status || 1);
}

const builderCli = path.join(root, 'node_modules', 'electron-builder', 'cli.js');
const args = [builderCli, '--config', 'electron-builder.yml', '--publish', 'never', ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] });
let log = '';
for (
  const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]
) {
  stream.on('data', (d) => {
    out.write(d);
    log += d.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  });
}

const NETWORK = /(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo|dial tcp|no such host|network|socket hang up|status code 40[34]|unable to (get|download)|cannot download)/i;

child.on('exit', (code) => {
  if (code === 0) {
    console.log('\nPackages are in dist/.');
    process.exit(0);
  }
  if (NETWORK.test(log)) {
    const platform = process.platform === 'win32' ? 'win32' : process.platform;
    const cache = process.platform === 'darwin'
      ? path.join(os.homedir(), 'Library', 'Caches', 'electron')
      : process.platform === 'win32'
      ? path.join(process.env.LOCALAPPDATA || '', 'electron', 'Cache')
      : path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'electron');
    const line = (log.match(new RegExp(`.*${NETWORK.source}.*`, 'i')) || [''])[0].trim();
    console.error(
      [
        '',
        'npm run dist: electron-builder could not download what it needs to package VRMA Studio.',
        `  Missing: the Electron ${electronVersion} runtime (electron-v${electronVersion}-${platform}-${process.arch}.zip from`,
        "  github.com/electron/electron/releases) and, for AppImage/deb, electron-builder's tool bundles",
        '  (github.com/electron-userland/electron-builder-binaries).',
        `  Failed on: ${line.slice(0, 300)}`,
        '',
        '  Fix: run it where github.com is reachable, or set ELECTRON_MIRROR / ELECTRON_BUILDER_BINARIES_MIRROR',
        `  to a mirror, or put the zip into the cache folder ${cache}.`,
        '  The app itself still runs here in a browser: npm run web',
      ].join('\n'),
    );
  } else {
    console.error(`\nnpm run dist: electron-builder failed with exit code ${code} (see its output above).`);
  }
  process.exit(code || 1);
});
