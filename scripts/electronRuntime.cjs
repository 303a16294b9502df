// Where the Electron runtime binary is, without triggering a download: require('electron') would try
// to fetch a missing binary from the network, so read what its installer recorded instead.
const fs = require('node:fs');
const path = require('node:path');

function electronBinary() {
  let pkgDir;
  try {
    pkgDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'the electron package is not installed (run npm ci)' };
  }
  const pathFile = path.join(pkgDir, 'path.txt');
  const installer = fs.existsSync(path.join(pkgDir, 'install.js')) ? path.join(pkgDir, 'install.js') : null;
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(pkgDir, 'dist');
  if (!fs.existsSync(pathFile) && !process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    return { path: null, installer, reason: `the Electron ${require(path.join(pkgDir, 'package.json')).version} runtime is not downloaded (${pathFile} is missing)` };
  }
  const rel = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : 'electron';
  const bin = path.join(distDir, rel);
  if (!fs.existsSync(bin)) return { path: null, installer, reason: `the Electron runtime binary is missing (${bin})` };
  return { path: bin, reason: null };
}

module.exports = { electronBinary };
