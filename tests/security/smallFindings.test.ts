/**
 * Issue 16, finding 10 (informational): a malformed % escape in X-VRMA-Path answered 500; the window
 * opened any https URL; the CSP allowed inline styles; the Electron fuses were not set when packaging.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BASIS_WORKER_CSP, BASIS_WORKER_PATH, STUDIO_CSP, cspFor } from '../../main/services/contentSecurity';
import { CREDIT_LINKS, isCreditLink } from '../../main/electron/credits';
import { decoded, raw } from './hostClient';
import { useHostServer } from './hostServerFixture';

const REPO = resolve(__dirname, '..', '..');

describe('security: small findings (finding 10)', () => {
  const env = useHostServer('vrma-sec-small-');

  it('a malformed % escape in X-VRMA-Path is a 400 naming the header', async () => {
    const r = await raw(env.host.port, '/api/file', { headers: { 'X-VRMA-Token': env.host.token, 'X-VRMA-Path': '%E0%A4%A' } });
    expect(r.status).toBe(400);
    expect(decoded(r).error).toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/X-VRMA-Path/) });
  });

  it('opens only the credits links in the browser', () => {
    for (const url of CREDIT_LINKS) expect(isCreditLink(url), url).toBe(true);
    for (const url of ['https://evil.example/', 'https://threejs.org/../evil', 'https://threejs.org/?x=1', 'javascript:alert(1)', 'file:///etc/passwd', 'https://vrm.dev.evil.example/', 'not a url']) {
      expect(isCreditLink(url), url).toBe(false);
    }
  });

  it('the CSP allows no inline styles or scripts', () => {
    expect(STUDIO_CSP).not.toContain('unsafe-inline');
    expect(STUDIO_CSP).toContain("style-src 'self'");
  });

  it('the CSP lets the shipped wasm decoders compile and nothing more: no eval, no remote origin', () => {
    const directives = new Map(STUDIO_CSP.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    // Compressed avatars (Draco, Basis, meshopt) decode with WebAssembly loaded from the app itself.
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(STUDIO_CSP).not.toMatch(/'unsafe-eval'/);
    // Their workers start from blob: URLs made by the page; no source anywhere names another origin.
    expect(directives.get('worker-src')).toEqual(["'self'", 'blob:']);
    for (const [k, v] of directives) for (const src of v) expect(src, k).toMatch(/^('self'|'none'|'wasm-unsafe-eval'|blob:|data:)$/);
  });

  it("only the Basis transcoder's worker file may evaluate code, and it may load nothing", () => {
    // Its Emscripten glue builds functions from strings; a worker from a URL takes its response's policy.
    expect(cspFor(BASIS_WORKER_PATH)).toBe(BASIS_WORKER_CSP);
    expect(BASIS_WORKER_CSP).toBe("default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'");
    for (const path of ['/', '/index.html', '/assets/index.js', '/decoders/basis_worker.js.map', '/decoders/other.js', '/assets/basis_transcoder.js', '/DECODERS/basis_worker.js']) {
      expect(cspFor(path), path).toBe(STUDIO_CSP);
    }
  });

  it('packaging flips the Electron fuses (electron-builder afterPack hook with @electron/fuses)', async () => {
    const builder = readFileSync(join(REPO, 'electron-builder.yml'), 'utf8');
    expect(builder).toMatch(/^afterPack:\s*scripts\/fuses\.cjs\s*$/m);
    const { FUSE_CONFIG } = (await import(join(REPO, 'scripts', 'fuses.cjs'))) as { FUSE_CONFIG: Record<string, unknown> };
    const { FuseV1Options } = await import('@electron/fuses');
    expect(FUSE_CONFIG[FuseV1Options.RunAsNode]).toBe(false);
    expect(FUSE_CONFIG[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
    expect(FUSE_CONFIG[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(FUSE_CONFIG[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
    expect(FUSE_CONFIG[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
  });

  it('the hook really flips the fuse wire of a packed binary', async () => {
    // A stand-in for the packed Linux executable: the fuse sentinel, wire version 1, 8 fuses all '1'.
    const out = join(env.tmp, 'linux-unpacked');
    mkdirSync(out);
    const binary = join(out, 'vrma-studio');
    const { SENTINEL } = (await import('@electron/fuses/dist/constants')) as { SENTINEL: string };
    writeFileSync(binary, Buffer.concat([Buffer.from('ELF...'), Buffer.from(SENTINEL), Buffer.from([1, 8]), Buffer.from('11111111'), Buffer.from('...')]));
    const hook = (await import(join(REPO, 'scripts', 'fuses.cjs'))) as { default: (c: unknown) => Promise<void> };
    await hook.default({ appOutDir: out, electronPlatformName: 'linux', arch: 1, packager: { appInfo: { productFilename: 'VRMA Studio' }, executableName: 'vrma-studio' } });
    const wire = readFileSync(binary);
    const at = wire.indexOf(SENTINEL) + SENTINEL.length + 2;
    // RunAsNode, cookies, NODE_OPTIONS, --inspect, asar integrity, asar only, V8 snapshot (inherit), file://
    expect(wire.subarray(at, at + 8).toString()).toBe('01001110');
  });
});
