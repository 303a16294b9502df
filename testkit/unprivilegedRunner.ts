/** The child of runAsNobody (unprivileged.ts): one call, its JSON result on the last stdout line. */
type Fn = (...a: unknown[]) => unknown;

async function main(): Promise<void> {
  const call = JSON.parse(process.argv[2]) as { module: string; exportName: string; args: unknown[] };
  const mod = (await import(call.module)) as Record<string, unknown> & { default?: Record<string, unknown> };
  const fn = (mod[call.exportName] ?? mod.default?.[call.exportName]) as Fn | undefined;
  if (typeof fn !== 'function') throw new Error(`${call.module} has no export ${call.exportName}`);
  const result = await fn(...call.args);
  process.stdout.write(`\n${JSON.stringify({ uid: process.getuid?.(), result })}\n`);
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
