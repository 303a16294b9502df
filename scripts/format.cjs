#!/usr/bin/env node
// `npm run format`: the code formatter (dprint's TypeScript plugin, run from its npm package as Wasm,
// so nothing is downloaded). It was chosen by measurement (issue 22, item 10): it keeps the one-line
// multi-declarations the math is written in (`const x = a[o], y = a[o + 1];`) and the writer's line
// breaks where its options allow ("maintain"), so it changed far fewer lines than Biome or Prettier.
// The options are in dprint.json; the files are biome.json's `files.includes`, so the linter and the
// formatter see the same tree. tests/unit/format.test.ts fails on any file this would change.
//   node scripts/format.cjs           rewrite the files that are not formatted, and name them
//   node scripts/format.cjs --check   name them only; exit 1 if there are any
const { execFileSync } = require('node:child_process');
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { createFromBuffer } = require('@dprint/formatter');
const { getPath } = require('@dprint/typescript');

const ROOT = path.join(__dirname, '..');
/** A few constructs (a comment inside a long union, an arrow inside a broken condition) settle on the second pass. */
const MAX_PASSES = 4;

/** A formatter with the project's options: `format(path, text)` gives the text as the formatter leaves it. */
function createFormatter(root = ROOT) {
  const { typescript, ...global } = JSON.parse(readFileSync(path.join(root, 'dprint.json'), 'utf8'));
  const formatter = createFromBuffer(readFileSync(getPath()));
  formatter.setConfig(global, typescript);
  const problems = formatter.getConfigDiagnostics();
  if (problems.length) throw new Error(`dprint.json: ${problems.map((p) => `${p.propertyName}: ${p.message}`).join('; ')}`);
  /** Formatted to its fixed point, so that formatting the result again changes nothing. */
  function format(file, text) {
    let current = text;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const next = formatter.formatText({ filePath: file, fileText: current });
      if (next === current) return next;
      current = next;
    }
    throw new Error(`${file}: the formatter did not settle in ${MAX_PASSES} passes`);
  }
  return { format };
}

/** The tracked files under biome.json's `files.includes` (its globs, read by git as globs). */
function sourceFiles(root = ROOT) {
  const { files } = JSON.parse(readFileSync(path.join(root, 'biome.json'), 'utf8'));
  const specs = files.includes.map((g) => `:(glob)${g}`);
  return execFileSync('git', ['ls-files', '-z', '--', ...specs], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }).split('\0').filter(Boolean);
}

/** Each file the formatter would change, with its formatted text (the first error of a file that does not parse is thrown). */
function unformatted(root = ROOT, files = sourceFiles(root), formatter = createFormatter(root)) {
  const out = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const formatted = formatter.format(file, text);
    if (formatted !== text) out.push({ file, formatted });
  }
  return out;
}

module.exports = { createFormatter, sourceFiles, unformatted };

if (require.main === module) {
  const check = process.argv.includes('--check');
  const changed = unformatted();
  for (const { file, formatted } of changed) {
    if (!check) writeFileSync(path.join(ROOT, file), formatted);
    console.log(file);
  }
  const what = check ? 'would be reformatted' : 'reformatted';
  console.error(`${changed.length} of ${sourceFiles().length} files ${what}`);
  if (check && changed.length) process.exit(1);
}
