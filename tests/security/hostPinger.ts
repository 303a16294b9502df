/**
 * For the tests that hold the built host to "answers within 1 s" (hostPing, workerOom): calls over
 * its HTTP API as the page makes them, a pinger that times getPlatform every 200 ms, and the host
 * process's memory high-water mark (VmHWM of /proc/PID/status, its worker threads included).
 */
import { readFileSync } from 'node:fs';
import type { StartedHost } from '../helpers/host';
import { waitFor } from '../helpers/waitFor';
import { call, decoded } from './hostClient';
import type { HostServer } from '../../main/host/server';

export const PING_EVERY_MS = 200;

export async function api<T>(host: StartedHost, method: string, ...args: unknown[]): Promise<{ value?: T; error?: { code: string; message: string } }> {
  return decoded(await call({ port: host.port, token: host.token } as HostServer, method, args)) as { value?: T; error?: { code: string; message: string } };
}

export interface Ping {
  /** When it was sent (ms after the pinger started). */
  readonly at: number;
  /** Send to answer. */
  readonly ms: number;
  readonly ok: boolean;
}

/** Pings the host every 200 ms until stop(), which waits up to `settleMs` for the pings in flight. */
export function startPinger(host: StartedHost): { pings: Ping[]; stop(settleMs?: number): Promise<Ping[]> } {
  const pings: Ping[] = [];
  /** Send times (ms after start) of the pings not answered yet. */
  const inFlight = new Set<number>();
  const t0 = performance.now();
  const timer = setInterval(() => {
    const sent = performance.now();
    inFlight.add(sent - t0);
    const answered = (ok: boolean) => {
      inFlight.delete(sent - t0);
      pings.push({ at: sent - t0, ms: performance.now() - sent, ok });
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
      for (const at of inFlight) pings.push({ at, ms: performance.now() - t0 - at, ok: false });
      inFlight.clear();
      return pings;
    },
  };
}

/** Pings slower than `limitMs`, as "SECONDS s: MS ms" (an empty list when the host always answered). */
export function slowPings(pings: readonly Ping[], limitMs: number): string[] {
  return pings.filter((p) => !p.ok || p.ms > limitMs).map((p) => `${(p.at / 1000).toFixed(1)} s: ${p.ok ? `${p.ms.toFixed(0)} ms` : 'failed'}`);
}

/** The host process's peak resident memory (kB). */
export function vmHwmKb(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}
