/**
 * Issue 16, "Also": the fuzz targets for the wire decoder and for every host route's argument
 * validation (tests/fuzz/hostInputs.ts), a few thousand cases here; `npm run fuzz` runs many more.
 * The HTTP part sends damaged argument lists to every route of a real host: each answer is a wire
 * message, a validation failure is a 400, nothing is a 500 and the host keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argsInput, checkArgs, checkWire, VALID_ARGS, wireInput } from '../fuzz/hostInputs';
import { STUDIO_INVOKE_METHODS } from '../../shared/contract/studioApi';
import { validateArgs } from '../../shared/contract/validate';
import { encodeWire } from '../../shared/contract/wire';
import { StudioBackend } from '../../main/services/backend';
import { startHostServer, type HostServer } from '../../main/host/server';
import { decoded, raw } from './hostClient';

describe('fuzz: wire decoder and route argument validation', () => {
  it('every valid argument list of the table validates (the damage starts from valid input)', () => {
    for (const m of STUDIO_INVOKE_METHODS) expect(() => validateArgs(m, VALID_ARGS[m]), m).not.toThrow();
  });

  it('decodeWire: 3000 hostile messages decode or throw WireError, nothing else', () => {
    const counts = { decoded: 0, rejected: 0 };
    fc.assert(fc.property(wireInput, (b) => void counts[checkWire(b)]++), { numRuns: 3000, seed: 16 });
    expect(counts.rejected).toBeGreaterThan(1000);
    expect(counts.decoded).toBeGreaterThan(100);
  });

  it('validateArgs: 3000 damaged argument lists over every method validate or are refused naming the method', () => {
    const counts = { accepted: 0, refused: 0 };
    fc.assert(fc.property(argsInput, (a) => void counts[checkArgs(a)]++), { numRuns: 3000, seed: 16 });
    expect(counts.refused).toBeGreaterThan(1000);
    expect(counts.accepted).toBeGreaterThan(100);
  });

  describe('through the host routes', () => {
    let tmp: string;
    let host: HostServer;
    let backend: StudioBackend;
    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'vrma-sec-fuzz-'));
      mkdirSync(join(tmp, 'renderer'));
      writeFileSync(join(tmp, 'renderer', 'index.html'), '<!doctype html>');
      // No converter: convertFolder answers INTERNAL "not available", the one legitimate 500.
      backend = new StudioBackend({ host: 'browser', userDataDir: join(tmp, 'data'), appVersion: '0', homeDir: join(tmp, 'home') });
      host = await startHostServer({ backend, rendererDir: join(tmp, 'renderer') });
    });
    afterAll(async () => {
      await host?.close();
      await backend?.dispose();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('300 damaged calls: a wire answer each, 400 for bad arguments, never a crash', async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(argsInput, async (a) => {
          let valid = true;
          try {
            validateArgs(a.method, a.args);
          } catch {
            valid = false;
          }
          const r = await raw(host.port, `/api/call/${a.method}`, { method: 'POST', headers: { 'X-VRMA-Token': host.token }, body: encodeWire(a.args) });
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          const body = decoded(r);
          if (!valid) expect(r.status, `${a.method} ${JSON.stringify(a.damage)}`).toBe(400);
          else expect(r.status === 200 ? 'value' in body : body.error?.code, a.method).toBeTruthy();
          if (r.status === 500) expect(body.error?.message, a.method).toMatch(/not available in this build/);
        }),
        { numRuns: 300, seed: 16 },
      );
      expect(statuses.get(400)).toBeGreaterThan(50);
      expect((await raw(host.port, '/api/call/getPlatform', { method: 'POST', headers: { 'X-VRMA-Token': host.token }, body: encodeWire([]) })).status).toBe(200);
    });
  });
});
