// electron-builder afterPack hook (electron-builder.yml `afterPack`): flips the Electron fuses of the
// packaged binary with @electron/fuses before it is signed and put into an installer, so a shipped
// VRMA Studio cannot be turned into a plain Node runtime (RunAsNode, NODE_OPTIONS, --inspect) and
// loads its code only from the integrity-checked app.asar. The studio never needs any of these:
// no child runs Electron as Node, and the page is served from app://, not file://.
const path = require('node:path');
const { flipFuses, FuseVersion, FuseV1Options } = require('@electron/fuses');

const FUSE_CONFIG = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

/** Path of the Electron executable electron-builder just packed for `context.electronPlatformName`. */
function electronBinary(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return path.join(appOutDir, `${name}.app`);
  if (electronPlatformName === 'win32') return path.join(appOutDir, `${name}.exe`);
  return path.join(appOutDir, packager.executableName ?? name);
}

async function afterPack(context) {
  const binary = electronBinary(context);
  // macOS arm64 binaries must be re-signed ad hoc after the flip or they will not launch.
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === 3; // Arch.arm64
  await flipFuses(binary, { ...FUSE_CONFIG, resetAdHocDarwinSignature });
  console.log(`  • fuses flipped   ${path.relative(process.cwd(), binary)}`);
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.FUSE_CONFIG = FUSE_CONFIG;
module.exports.electronBinary = electronBinary;
