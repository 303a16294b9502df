/**
 * Issue 24, "done when": the built host (out/main/host.js) keeps answering pings, its own thread never
 * held, while every hostile file of the issue's table is described (as the library does when a folder
 * opens: three files at a time) and converted (Convert Folder, one folder per file so each one's time
 * is its own), and every hostile file ends with a result or a message for that file, within 30 s of
 * the host's CPU, the host process staying under 1 GiB (VmHWM of /proc/PID/status: its high-water
 * mark, workers included).
 *
 * Measures that the machine's load does not move (hostPinger.ts says why; wall-clock limits of 1 s per
 * ping and 30 s per file failed at load about 40):
 *  - a ping is POST getPlatform every 200 ms; while each one waits, the host's main thread runs at
 *    most 500 ms of CPU (a parse on the host's own thread holds it for seconds of CPU: 80 MB ASCII FBX,
 *    30 MB glTF; hostPinger.test.ts shows the measure names such a block and not a host without a core).
 *    Every ping is answered (60 s at most: a hang bound, not a speed limit). Wall times are printed;
 *  - each file's call (describe, or Convert Folder of its folder): at most 30 s of the host process's
 *    CPU from send to answer, every thread included (describes run beside each other, so this counts
 *    their neighbours' work too: a bound from above);
 *  - 1 GiB for the host's VmHWM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HOST_SCRIPT, startHost, type StartedHost } from '../../testkit/host';
import { api, blockedPings, processCpuMs, startPinger, vmHwmKb } from './hostPinger';
import type { ConvertSummary, FileDetails, LibrarySnapshot } from '../../shared/contract/studioApi';
import {
  boneChainPmd,
  deepJsonGltf,
  emptyNodesGltf,
  emptyRecordsAsciiFbx,
  foldedChainVrma,
  legIkCopiesPmd,
  manyAnimationsGlb,
  manyLongTakesFbx,
  nodeChainGlb,
  parentChainFbx,
  sharedAccessorGlb,
  sharedPathsFbx,
  twoKeyVmd,
} from './hostileReaders';

/** Main-thread CPU of the host while one ping waits. */
const PING_CPU_LIMIT_MS = 500;
/** A ping not answered by then is a host that hangs. */
const PING_HANG_MS = 60_000;
/** The host process's CPU (every thread) during one file's call. */
const FILE_CPU_LIMIT_MS = 30_000;
const HWM_LIMIT_KB = 1 << 20; // 1 GiB

/** The issue's table, one folder per probe (an MMD motion beside its hostile model). */
const PROBES: { finding: string; files: Record<string, () => Uint8Array> }[] = [
  { finding: '1', files: { 'empty-records.fbx': () => emptyRecordsAsciiFbx(26_000_000) } }, // 78 MB
  { finding: '1, 5', files: { 'shared-accessor.glb': () => sharedAccessorGlb(100_000) } }, // 2 MB, 20 channels on one accessor
  { finding: '2', files: { 'shared-paths.fbx': () => sharedPathsFbx(20, 20, 20, 20_000) } },
  { finding: '1, 4', files: { 'parent-chain.fbx': () => parentChainFbx(30_000, true) } }, // 6 MB
  { finding: '3', files: { 'empty-nodes.gltf': () => emptyNodesGltf(10_000_000) } }, // 30 MB
  { finding: '3', files: { 'empty-nodes.glb': () => emptyNodesGltf(10_000_000, true) } }, // 30 MB
  { finding: '5', files: { 'node-chain.glb': () => nodeChainGlb(20_000) } },
  { finding: '5', files: { 'node-cycle.glb': () => nodeChainGlb(100_000, true) } },
  { finding: '6', files: { 'bone-chain.pmd': () => boneChainPmd(20_000), 'bone-chain.vmd': () => twoKeyVmd(36_000) } },
  { finding: '6', files: { 'leg-ik.pmd': () => legIkCopiesPmd(20_000), 'leg-ik.vmd': () => twoKeyVmd(300) } },
  { finding: '11', files: { 'folded-chain.vrma': () => foldedChainVrma(30_000) } },
  { finding: '11', files: { 'deep.gltf': () => deepJsonGltf(5_000) } },
  { finding: '12', files: { 'many-takes.glb': () => manyAnimationsGlb(2_000) } },
  { finding: '17', files: { 'long-takes.fbx': () => manyLongTakesFbx(14, 999_000) } },
];

describe.skipIf(!existsSync(HOST_SCRIPT) || process.platform !== 'linux')('security: the host keeps answering while the hostile files of issue 24 are described and converted', () => {
  let host: StartedHost;
  let root: string;
  let pinger: ReturnType<typeof startPinger> | undefined;

  beforeAll(async () => {
    // Inside the host's HOME (testkit/host.ts: the temp folder), so it opens without a question.
    root = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-ping-')));
    for (const [i, probe] of PROBES.entries()) {
      for (const [name, make] of Object.entries(probe.files)) {
        const path = join(root, `f${String(i).padStart(2, '0')}`, name);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, make());
      }
    }
    host = await startHost();
    pinger = startPinger(host);
  }, 120_000);

  afterAll(async () => {
    await pinger?.stop(0);
    await host?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('describes every file (three at a time), converts every folder, its thread never held by a ping’s 500 ms of CPU, 30 s of CPU per file, under 1 GiB', async () => {
    const pid = host.process.pid!;
    const opened = await api<LibrarySnapshot>(host, 'openFolder', root);
    expect(opened.error).toBeUndefined();
    const entries = opened.value!.entries;
    expect(entries.map((e) => e.name).sort()).toEqual(PROBES.flatMap((p) => Object.keys(p.files)).sort());

    // The library's describe: three calls at a time, each timed from its send.
    const described: { file: string; ms: number; cpuMs: number; details?: FileDetails; error?: string }[] = [];
    const queue = [...entries];
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let e = queue.shift(); e; e = queue.shift()) {
          const sent = performance.now(), cpu = processCpuMs(pid);
          const r = await api<FileDetails>(host, 'describeFile', e.path);
          described.push({ file: e.path, ms: performance.now() - sent, cpuMs: processCpuMs(pid) - cpu, details: r.value, error: r.error?.message });
        }
      }),
    );

    // Convert Folder, one folder per probe; 50+ takes ask first (CONFIRM), then "no".
    const converted: { folder: string; ms: number; cpuMs: number; summary?: ConvertSummary; asked: boolean; error?: string }[] = [];
    for (const [i] of PROBES.entries()) {
      const folder = join(root, `f${String(i).padStart(2, '0')}`);
      const sent = performance.now(), cpu = processCpuMs(pid);
      let r = await api<ConvertSummary>(host, 'convertFolder', { folder, overwrite: true });
      const asked = r.error?.code === 'CONFIRM';
      if (asked) r = await api<ConvertSummary>(host, 'convertFolder', { folder, overwrite: true, allTakes: false });
      converted.push({ folder, ms: performance.now() - sent, cpuMs: processCpuMs(pid) - cpu, summary: r.value, asked, error: r.error?.message });
    }
    const pings = await pinger!.stop(PING_HANG_MS); // the last pings in flight
    const hwm = vmHwmKb(host.process.pid!);

    const base = (p: string) => p.slice(root.length + 1);
    const short = (s: string | undefined) => (s ?? '').slice(0, 110);
    console.log(
      [
        `pings: ${pings.length}, slowest ${Math.max(...pings.map((p) => p.ms)).toFixed(0)} ms wall, most main-thread CPU while one waited ${
          Math.max(...pings.map((p) => p.cpuMs)).toFixed(0)
        } ms, failed ${pings.filter((p) => !p.ok).length}; host VmHWM ${(hwm / 1024).toFixed(0)} MB`,
        ...described.sort((a, b) => (a.file < b.file ? -1 : 1)).map((d) =>
          `describe ${base(d.file)}: ${(d.ms / 1000).toFixed(2)} s, host CPU ${(d.cpuMs / 1000).toFixed(2)} s, ${d.details?.kind} ${short(d.details?.error ?? d.error)}`
        ),
        ...converted.map((c) =>
          `convert ${base(c.folder)}: ${(c.ms / 1000).toFixed(2)} s, host CPU ${(c.cpuMs / 1000).toFixed(2)} s${c.asked ? ' (asked)' : ''}, ${
            c.summary ? `${c.summary.converted.length} converted, ${c.summary.failed.length} failed: ${short(c.summary.failed.map((f) => `${base(f.source)}: ${f.message}`).join('; '))}` : c.error
          }`
        ),
      ].join('\n'),
    );

    // Every file ended, within 30 s of host CPU (a file of takes answers once per take), with its own answer (a description, or a message for that file).
    expect(described).toHaveLength(entries.length);
    for (const d of described) {
      expect(d.error, base(d.file)).toBeUndefined();
      expect(d.details?.path, base(d.file)).toBe(d.file);
      if (d.details?.kind === 'unreadable') expect(d.details.error, base(d.file)).toMatch(/\w{3}/);
      expect(d.cpuMs, base(d.file)).toBeLessThan(FILE_CPU_LIMIT_MS);
    }
    for (const c of converted) {
      expect(c.error, base(c.folder)).toBeUndefined();
      expect(c.cpuMs, base(c.folder)).toBeLessThan(FILE_CPU_LIMIT_MS);
      const motions = Object.keys(PROBES[Number(base(c.folder).slice(1))].files).filter((n) => !/\.(pmd|vrma)$/.test(n));
      const ended = [...c.summary!.converted.map((x) => x.source), ...c.summary!.failed.map((x) => x.source), ...c.summary!.skipped];
      expect([...new Set(ended.map(base))].sort(), base(c.folder)).toEqual(motions.map((n) => `${base(c.folder)}/${n}`).sort());
      for (const f of c.summary!.failed) expect(f.message, base(f.source)).toMatch(/\w{3}/);
    }
    // The question came for the 2,000-take file, and "no" left it out with its reason.
    const takes = converted[PROBES.findIndex((p) => 'many-takes.glb' in p.files)];
    expect(takes.asked).toBe(true);
    expect(takes.summary!.failed.map((f) => f.problem?.detail)).toEqual(['take.tooMany']);

    // The host kept answering: every ping, its main thread never busy for 500 ms of CPU while one waited.
    expect(pings.length).toBeGreaterThan(10);
    expect(blockedPings(pings, PING_CPU_LIMIT_MS)).toEqual([]);
    expect(hwm).toBeLessThan(HWM_LIMIT_KB);
  }, 600_000);
});
