/**
 * For the tests that hold the built host to answering while it works (hostPing, workerOom): calls over
 * its HTTP API as the page makes them, a pinger that times getPlatform every 200 ms and measures the
 * CPU time the host's main thread ran while each ping waited, the host's CPU time, and the host
 * process's memory high-water mark (VmHWM of /proc/PID/status, its worker threads included).
 *
 * Why CPU time: a host that blocks (a parse on its own thread) runs its main thread for the whole
 * wait, so the thread's CPU time during a ping is about the ping's delay, whatever the machine's load.
 * A loaded machine only delays the ping: the host waits for a core, and its thread's CPU time does
 * not grow (pings of several seconds at load 40 failed a wall-clock limit of 1 s).
 */
import { readFileSync } from 'node:fs';
import type { StartedHost } from '../../testkit/host';
import { waitFor } from '../../testkit/waitFor';
import { call, decoded } from './hostClient';
import type { HostServer } from '../../main/host/server';

export const PING_EVERY_MS = 200;

export async function api<T>(host: Pick<StartedHost, 'port' | 'token'>, method: string, ...args: unknown[]): Promise<{ value?: T; error?: { code: string; message: string } }> {
  return decoded(await call({ port: host.port, token: host.token } as HostServer, method, args)) as { value?: T; error?: { code: string; message: string } };
}

export interface Ping {
  /** When it was sent (ms after the pinger started). */
  readonly at: number;
  /** Send to answer. */
  readonly ms: number;
  readonly ok: boolean;
  /** CPU time (ms) of the host's main thread from send to answer (the rest of the wait to a failure). */
  readonly cpuMs: number;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU time (ms, user + system) of /proc/PID/stat or /proc/PID/task/TID/stat; NaN once the process has gone. */
function statCpuMs(path: string): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return NaN;
  }
  // Fields after "(comm)": state is the 3rd field of the line, utime the 14th and stime the 15th.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S;
}

/** CPU time (ms) of the host's main thread (its thread id is the process id). */
export const mainThreadCpuMs = (pid: number): number => statCpuMs(`/proc/${pid}/task/${pid}/stat`);

/** CPU time (ms) of the whole host process, every thread (its workers') included. */
export const processCpuMs = (pid: number): number => statCpuMs(`/proc/${pid}/stat`);

/**
 * Pings the host every 200 ms until stop(), which waits up to `settleMs` for the pings in flight
 * (a bound for a host that hangs, not a speed limit: a ping not answered by then counts as failed).
 */
export function startPinger(host: Pick<StartedHost, 'port' | 'token' | 'process'>): { pings: Ping[]; stop(settleMs?: number): Promise<Ping[]> } {
  const pings: Ping[] = [];
  const pid = host.process.pid!;
  /** Send times (ms after start) of the pings not answered yet, with the main thread's CPU time then. */
  const inFlight = new Map<number, number>();
  const t0 = performance.now();
  const timer = setInterval(() => {
    const sent = performance.now();
    const cpu = mainThreadCpuMs(pid);
    inFlight.set(sent - t0, cpu);
    const answered = (ok: boolean) => {
      inFlight.delete(sent - t0);
      pings.push({ at: sent - t0, ms: performance.now() - sent, ok, cpuMs: mainThreadCpuMs(pid) - cpu });
    };
    api(host, 'getPlatform').then(
      (r) => answered(r.value !== undefined),
      () => answered(false),
    );
  }, PING_EVERY_MS);
  return {
    pings,
    async stop(settleMs = 2_000) {
      clearInterval(timer);
      // The pings in flight answer (or fail) within settleMs; one that has not by then counts as failed.
      await waitFor(() => inFlight.size === 0, 'the pings in flight', settleMs).catch(() => {});
      for (const [at, cpu] of inFlight) pings.push({ at, ms: performance.now() - t0 - at, ok: false, cpuMs: mainThreadCpuMs(pid) - cpu });
      inFlight.clear();
      return pings;
    },
  };
}

/** Pings slower than `limitMs`, as "SECONDS s: MS ms" (an empty list when the host always answered). */
export function slowPings(pings: readonly Ping[], limitMs: number): string[] {
  return pings.filter((p) => !p.ok || p.ms > limitMs).map((p) => `${(p.at / 1000).toFixed(1)} s: ${p.ok ? `${p.ms.toFixed(0)} ms` : 'failed'}`);
}

/**
 * Pings the host's main thread held: failed, or waiting while that thread ran more than `limitMs` of
 * CPU (a block on its thread), as "SECONDS s: CPU ms of main-thread CPU (WALL ms)".
 */
export function blockedPings(pings: readonly Ping[], limitMs: number): string[] {
  return pings.filter((p) => !p.ok || !(p.cpuMs <= limitMs)).map((p) => `${(p.at / 1000).toFixed(1)} s: ${p.ok ? '' : 'failed, '}${p.cpuMs.toFixed(0)} ms of main-thread CPU (${p.ms.toFixed(0)} ms)`);
}

/** The host process's peak resident memory (kB). */
export function vmHwmKb(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}
