/**
 * `npm run bench`: imports every bench/*.bench.ts module in name order and awaits its exported
 * `run()`, each printing its own table. BENCH_FILTER=substring runs only matching modules.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

async function main(): Promise<void> {
  const filter = process.env.BENCH_FILTER ?? '';
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
    .sort();
  if (!files.length) {
    console.error('bench: no bench/*.bench.ts modules found');
    process.exitCode = 1;
    return;
  }
  console.log(`bench: ${files.length} module(s), node ${process.version}, ${process.platform}/${process.arch}`);
  for (const f of files) {
    const start = performance.now();
    try {
      const mod = (await import(pathToFileURL(join(__dirname, f)).href)) as { run?: () => Promise<void> };
      if (typeof mod.run !== 'function') throw new Error('it exports no run() function');
      await mod.run();
      console.log(`(${f}: ${((performance.now() - start) / 1000).toFixed(1)} s)`);
    } catch (e) {
      // One broken benchmark must not hide the others' figures.
      console.error(`bench: ${f} failed: ${(e as Error)?.stack ?? e}`);
      process.exitCode = 1;
    }
  }
}

void main();
