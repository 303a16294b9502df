#!/usr/bin/env node
// Thin launcher: the CLI is built with the app (npm run build) into out/main/cli.js.
const path = require('node:path');
const fs = require('node:fs');
const built = path.join(__dirname, '..', 'out', 'main', 'cli.js');
if (!fs.existsSync(built)) {
  process.stderr.write('vrma-studio: not built yet. Run "npm run build" in the repository first.\n');
  process.exit(2);
}
require(built);
