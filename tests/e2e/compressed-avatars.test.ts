/**
 * Compressed avatars in the studio and the bedroom (issue 14), in Chromium through the built host:
 * real fixture VRMs compressed in the test set-up (testkit/compressAvatar.ts: meshopt with
 * meshoptimizer's encoder, Draco bitstreams for the shipped Draco decoder, textures as KTX2
 * containers) load with the same geometry as the plain
 * files and draw the same picture; the decoders come from the app itself (every request the page
 * makes stays on the host's origin) under the strict CSP (no CSP report, no console error); a
 * damaged compressed file is refused with a message naming the file and the compression; a broken
 * VRM still names what is wrong.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, readFixture } from '../../testkit/fixtures';
import { dracoCompress, glbImages, ktx2Textures, meshoptCompress } from '../../testkit/compressAvatar';
import { pngToRawKtx2, pngToUastcKtx2 } from '../../testkit/ktx2Writer';
import { dropFiles, hook, openStudio, state, type StudioSession } from '../../testkit/studioHarness';
import { parseGlb, packGlb } from '../../shared/gltf/glb';

type MeshGeometry = { name: string; vertices: number; indices: number; min: number[]; max: number[] };
type AvatarPixels = { share: number; mean: number[] };

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('compressed avatars (meshopt, KTX2) in the studio and the bedroom', () => {
  let s: StudioSession;
  const requests: string[] = [];
  beforeAll(async () => {
    s = await openStudio();
    s.page.on('request', (r) => requests.push(r.url()));
    await hook(s.page, 'setPlaying', false);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function open(page: Page, name: string, bytes: Uint8Array): Promise<{ geometry: MeshGeometry[]; pixels: AvatarPixels }> {
    const before = (await state(page)).messages.length;
    await dropFiles(page, [{ name, bytes }]);
    // Loaded, or refused with a message (then the expectation below shows it).
    await page.waitForFunction(
      ([n, count]) => {
        const st = (window as unknown as { __studio: { state(): { avatarName: string | null; messages: { kind: string }[] } } }).__studio.state();
        return st.avatarName === n || st.messages.slice(count as number).some((m) => m.kind === 'error');
      },
      [name, before] as const,
      { timeout: 60_000, polling: 50 },
    );
    const fresh = (await state(page)).messages.slice(before);
    expect(fresh.filter((m) => m.kind === 'error'), name).toEqual([]);
    expect((await state(page)).avatarName).toBe(name);
    await hook(page, 'seek', 0);
    return { geometry: await hook<MeshGeometry[]>(page, 'avatarGeometry'), pixels: await hook<AvatarPixels>(page, 'avatarPixels') };
  }

  /** Same meshes, counts and bounding boxes (within `tol` metres), same silhouette (within 0.2% of the viewport). */
  function expectSameAvatar(plain: { geometry: MeshGeometry[]; pixels: AvatarPixels }, packed: { geometry: MeshGeometry[]; pixels: AvatarPixels }, tol: number) {
    expect(packed.geometry.length).toBe(plain.geometry.length);
    plain.geometry.forEach((m, i) => {
      const p = packed.geometry[i];
      expect(p.vertices, m.name).toBe(m.vertices);
      expect(p.indices, m.name).toBe(m.indices);
      for (let k = 0; k < 3; k++) {
        expect(Math.abs(p.min[k] - m.min[k]), `${m.name} min`).toBeLessThanOrEqual(tol);
        expect(Math.abs(p.max[k] - m.max[k]), `${m.name} max`).toBeLessThanOrEqual(tol);
      }
    });
    // Pixels drawn: the avatar covers a real part of the view, as much as the plain file does.
    expect(packed.pixels.share).toBeGreaterThan(0.01);
    expect(Math.abs(packed.pixels.share - plain.pixels.share)).toBeLessThanOrEqual(0.002);
  }

  for (const [folder, file] of [['vrm0', 'cryptovoxels.vrm'], ['vrm1', 'debug_robot.vrm']] as const) {
    it(`${file} with meshopt-compressed geometry: same vertices, indices, boxes and silhouette`, async () => {
      const plainBytes = readFixture(folder, file);
      const packed = await meshoptCompress(plainBytes);
      expect(packed.encodedBytes).toBeLessThan(packed.rawBytes);
      const plain = await open(s.page, file, plainBytes);
      const meshopt = await open(s.page, file.replace('.vrm', '.meshopt.vrm'), packed.bytes);
      // meshopt without filters is lossless: boxes equal to float precision.
      expectSameAvatar(plain, meshopt, 1e-6);
      // Same picture: mean colour within 3 levels of 255 (spring bones settle a little differently in two loads).
      for (let c = 0; c < 3; c++) expect(Math.abs(meshopt.pixels.mean[c] - plain.pixels.mean[c]), `channel ${c}`).toBeLessThanOrEqual(3);
    }, 120_000);
  }

  for (const [folder, file] of [['vrm0', 'cryptovoxels.vrm'], ['vrm1', 'debug_robot.vrm']] as const) {
    it(`${file} with Draco meshes: decoded by the shipped decoder, same vertices, indices, boxes and silhouette`, async () => {
      const plainBytes = readFixture(folder, file);
      const draco = dracoCompress(plainBytes);
      expect(draco.primitives).toBeGreaterThanOrEqual(1);
      const plain = await open(s.page, file, plainBytes);
      const packed = await open(s.page, file.replace('.vrm', '.draco.vrm'), draco.bytes);
      // The stream stores the values raw (no quantization): boxes equal to float precision.
      expectSameAvatar(plain, packed, 1e-6);
      // Same picture: mean colour within 3 levels of 255 (spring bones settle a little differently in two loads).
      for (let c = 0; c < 3; c++) expect(Math.abs(packed.pixels.mean[c] - plain.pixels.mean[c]), `channel ${c}`).toBeLessThanOrEqual(3);
      // The decoder came from the app: its wasm and wrapper from the host's own origin.
      const origin = new URL(s.host.url).origin;
      const decoder = requests.filter((u) => /draco_(decoder|wasm_wrapper)/.test(u));
      expect(decoder.length).toBeGreaterThanOrEqual(2);
      for (const u of decoder) expect(u.startsWith(origin), u).toBe(true);
    }, 120_000);
  }

  it('a damaged Draco stream is refused with a message naming the file and the compression', async () => {
    const draco = dracoCompress(readFixture('vrm0', 'cryptovoxels.vrm'));
    const { json, bin } = parseGlb(draco.bytes) as { json: Record<string, any>; bin: Uint8Array };
    const view = json.bufferViews[json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView];
    const broken = bin.slice();
    broken.fill(0xff, view.byteOffset + 11, view.byteOffset + 24); // face and point counts and the connectivity method
    const before = await state(s.page);
    await dropFiles(s.page, [{ name: 'damaged.draco.vrm', bytes: packGlb(json, broken) }]);
    await s.page.waitForFunction((n) => (window as unknown as { __studio: { state(): { messages: unknown[] } } }).__studio.state().messages.length > (n as number), before.messages.length, {
      timeout: 60_000,
    });
    const st = await state(s.page);
    const errors = st.messages.slice(before.messages.length).filter((m) => m.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].text).toContain('damaged.draco.vrm');
    expect(errors[0].text).toContain('the Draco-compressed mesh (KHR_draco_mesh_compression) could not be decoded');
    expect(st.avatarName).toBe(before.avatarName);
  }, 120_000);

  it('debug_robot.vrm with KTX2 textures (KHR_texture_basisu): same geometry, the textures drawn in the same colours', async () => {
    const plainBytes = readFixture('vrm1', 'debug_robot.vrm');
    expect(glbImages(plainBytes).map((i) => i.mimeType)).toEqual(['image/png', 'image/png', 'image/png']);
    const packedBytes = await ktx2Textures(plainBytes, (_, png) => pngToRawKtx2(png));
    expect(glbImages(packedBytes).map((i) => i.mimeType)).toEqual(['image/ktx2', 'image/ktx2', 'image/ktx2']);
    const plain = await open(s.page, 'debug_robot.vrm', plainBytes);
    const ktx2 = await open(s.page, 'debug_robot.ktx2.vrm', packedBytes);
    expectSameAvatar(plain, ktx2, 0);
    // The same texels (sRGB RGBA8, as decoded from the PNG): the avatar's mean colour within 3 levels of 255.
    for (let c = 0; c < 3; c++) expect(Math.abs(ktx2.pixels.mean[c] - plain.pixels.mean[c]), `channel ${c}`).toBeLessThanOrEqual(3);
  }, 120_000);

  it("debug_robot.vrm with Basis UASTC textures: transcoded by the shipped transcoder in the app's own worker file, drawn in the same colours", async () => {
    // Real UASTC blocks (testkit/compressAvatar.ts: mode 8, one colour per 4x4 block).
    const plainBytes = readFixture('vrm1', 'debug_robot.vrm');
    const packedBytes = await ktx2Textures(plainBytes, (_, png) => pngToUastcKtx2(png));
    const plain = await open(s.page, 'debug_robot.vrm', plainBytes);
    const basis = await open(s.page, 'debug_robot.basis.vrm', packedBytes);
    expectSameAvatar(plain, basis, 0);
    // The block means of the textures: the avatar's mean colour within 6 levels of 255.
    for (let c = 0; c < 3; c++) expect(Math.abs(basis.pixels.mean[c] - plain.pixels.mean[c]), `channel ${c}`).toBeLessThanOrEqual(6);
    // The transcoder (wasm) and its worker came from the host's origin; the worker has its own narrow policy.
    const origin = new URL(s.host.url).origin;
    const files = requests.filter((u) => /basis_transcoder|basis_worker/.test(u));
    expect(files.some((u) => u.endsWith('.wasm'))).toBe(true);
    expect(files.some((u) => u.endsWith('/decoders/basis_worker.js'))).toBe(true);
    for (const u of files) expect(u.startsWith(origin), u).toBe(true);
    const csp = await s.page.evaluate(async () => (await fetch('decoders/basis_worker.js')).headers.get('content-security-policy'));
    expect(csp).toBe("default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'");
  }, 120_000);

  it('a KTX2 texture that cannot be decoded: the avatar loads without it and the notice names the file, the count and the problem', async () => {
    const plainBytes = readFixture('vrm1', 'debug_robot.vrm');
    // A vkFormat no loader knows (the header's format field set to 9999).
    const packedBytes = await ktx2Textures(plainBytes, async (_, png) => {
      const k = await pngToRawKtx2(png);
      new DataView(k.buffer, k.byteOffset).setUint32(12, 9999, true);
      return k;
    });
    const before = await state(s.page);
    const loaded = await open(s.page, 'debug_robot.badktx2.vrm', packedBytes);
    expect(loaded.geometry.length).toBeGreaterThan(0);
    const notices = (await state(s.page)).messages.slice(before.messages.length).filter((m) => m.kind === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0].text).toMatch(/^Avatar debug_robot\.badktx2\.vrm loaded without 3 textures: the KTX2\/Basis texture \(KHR_texture_basisu\) could not be decoded: .+/);
  }, 60_000);

  it('the bedroom loads the compressed avatar the studio holds (meshopt + KTX2 together)', async () => {
    const both = (await meshoptCompress(await ktx2Textures(readFixture('vrm1', 'debug_robot.vrm'), (_, png) => pngToRawKtx2(png)))).bytes;
    await open(s.page, 'debug_robot.both.vrm', both);
    await s.page.getByRole('tab', { name: 'Bedroom' }).click();
    await s.page.waitForFunction(() => !!(window as unknown as { __bedroom?: unknown }).__bedroom, undefined, { timeout: 30_000 });
    await s.page.evaluate(() => (window as unknown as { __bedroom: { ready: Promise<void> } }).__bedroom.ready);
    const bedroom = s.page.getByRole('region', { name: 'Bedroom controls' });
    await bedroom.getByRole('status').filter({ hasText: 'Awake' }).waitFor({ timeout: 90_000 });
    const probe = await s.page.evaluate(() => (window as unknown as { __bedroom: { probeHeights(t: number[]): Promise<{ avatarPixels: number }> } }).__bedroom.probeHeights([0]));
    expect(probe.avatarPixels).toBeGreaterThan(2000);
    await s.page.getByRole('tab', { name: 'Studio' }).click();
  }, 180_000);

  it('a damaged meshopt buffer is refused with a message naming the file and the compression; the avatar stays', async () => {
    const packed = await meshoptCompress(readFixture('vrm0', 'cryptovoxels.vrm'));
    const { json, bin } = parseGlb(packed.bytes) as { json: Record<string, any>; bin: Uint8Array };
    const ext = json.bufferViews.find((v: Record<string, any>) => v.extensions?.EXT_meshopt_compression).extensions.EXT_meshopt_compression;
    const broken = bin.slice();
    broken[ext.byteOffset] = 0x00; // the codec's header byte
    const before = await state(s.page);
    await dropFiles(s.page, [{ name: 'damaged.meshopt.vrm', bytes: packGlb(json, broken) }]);
    await s.page.waitForFunction((n) => (window as unknown as { __studio: { state(): { messages: unknown[] } } }).__studio.state().messages.length > (n as number), before.messages.length);
    const st = await state(s.page);
    const errors = st.messages.slice(before.messages.length).filter((m) => m.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].text).toContain('damaged.meshopt.vrm');
    expect(errors[0].text).toContain('the meshopt-compressed geometry (EXT_meshopt_compression) could not be decoded');
    expect(st.avatarName).toBe(before.avatarName);
  }, 120_000);

  it('a broken VRM still names what is wrong (humanoid bone pointing at a missing node)', async () => {
    const g = parseGlb(readFixture('vrm0', 'triangle.vrm'));
    const json = structuredClone(g.json) as Record<string, any>;
    json.extensions.VRM.humanoid.humanBones[0].node = 4242;
    const bone = json.extensions.VRM.humanoid.humanBones[0].bone as string;
    const before = await state(s.page);
    await dropFiles(s.page, [{ name: 'human_bone.vrm', bytes: packGlb(json, g.bin) }]);
    await s.page.waitForFunction((n) => (window as unknown as { __studio: { state(): { messages: unknown[] } } }).__studio.state().messages.length > (n as number), before.messages.length);
    const errors = (await state(s.page)).messages.slice(before.messages.length).filter((m) => m.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].text).toContain('human_bone.vrm');
    expect(errors[0].text).toContain(`humanoid bone "${bone}" points at node 4242`);
    expect(errors[0].text).not.toMatch(/Cannot read properties/);
  }, 60_000);

  it('everything came from the app: no request left the host, no CSP violation or console error', async () => {
    const origin = new URL(s.host.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    for (const url of requests) expect(url.startsWith(origin) || url.startsWith('blob:') || url.startsWith('data:'), url).toBe(true);
    // The drops of damaged files log their decoder error (DRACOLoader logs its own); nothing else may.
    const unexpected = s.errors.filter((e) => !/damaged\.(meshopt|draco)|DRACOLoader: Decoding failed: Failed to decode geometry data|Couldn't load texture|human_bone/.test(e));
    expect(unexpected).toEqual([]);
    expect(s.errors.join('\n')).not.toMatch(/Content Security Policy|Refused to/);
  });
});
