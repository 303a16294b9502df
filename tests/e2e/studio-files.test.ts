/**
 * Loading real files in the studio: VRM 1.0 and 0.x avatars from the fixtures by the file input
 * and by a synthetic drop, motions as .vrma, .vmd and .bvh; the preview's fast clip equals the clip
 * three-vrm-animation builds from the exported bytes; a bad file leaves the work as it was.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath, fixtureFiles, readFixture } from '../../testkit/fixtures';
import { dropFiles, hook, motionBytes, openStudio, quatDot, screenshot, state, waitForState, type StudioSession } from '../../testkit/studioHarness';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { convertToMotion } from '../../shared/formats/index';
import { durationOf } from '../../shared/motion/types';
import { MAIN_BONES } from '../../shared/vrm/humanBones';
import { writeVpd } from '../../testkit/mmdWriters';

type Pose = { rotations: Record<string, number[]>; positions: Record<string, number[]> };

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: files', () => {
  let s: StudioSession;
  beforeAll(async () => {
    s = await openStudio();
  });
  afterAll(async () => {
    await s?.close();
  });

  async function comparePreviewToReference(bones: string[], times: number[]): Promise<number> {
    let worst = 1;
    for (const t of times) {
      const fast = await hook<Pose>(s.page, 'previewPose', bones, t);
      const ref = await hook<Pose>(s.page, 'referencePose', bones, t);
      expect(Object.keys(fast.rotations).sort()).toEqual(Object.keys(ref.rotations).sort());
      for (const b of Object.keys(fast.rotations)) {
        const d = Math.abs(quatDot(fast.rotations[b], ref.rotations[b]));
        if (d < 0.99999) console.log(`t=${t} ${b}: |dot| ${d}`, fast.rotations[b], ref.rotations[b]);
        worst = Math.min(worst, d);
      }
      // Hips position: the same within a tenth of a millimetre.
      for (let c = 0; c < 3; c++) expect(Math.abs(fast.positions.hips[c] - ref.positions.hips[c])).toBeLessThan(1e-4);
    }
    return worst;
  }

  it('opens a VRM 1.0 avatar by the file input and keeps the motion', async () => {
    const before = await state(s.page);
    await s.page.setInputFiles('#open-file-input', fixturePath('vrm1', 'debug_robot.vrm'));
    await waitForState(s.page, 'avatarName', 'debug_robot.vrm');
    const after = await state(s.page);
    expect(after.metaVersion).toBe('1');
    expect(after.duration).toBe(before.duration);
    expect(after.historyLength).toBe(before.historyLength);
    const share = await hook<number>(s.page, 'silhouetteShare');
    expect(share).toBeGreaterThan(0.005);
    expect(share).toBeLessThan(0.6);
  });

  it('opens a .vrma motion and previews it exactly as three-vrm-animation reads the exported file', async () => {
    await s.page.setInputFiles('#open-file-input', fixturePath('vrma', 'hips_spine_twisting.vrma'));
    await waitForState(s.page, 'motionName', 'hips_spine_twisting');
    const st = await state(s.page);
    const expected = readVrma(readFixture('vrma', 'hips_spine_twisting.vrma'));
    expect(st.duration).toBeCloseTo(durationOf(expected), 5);
    expect(st.channels).toBe(expected.channels.length);
    const worst = await comparePreviewToReference([...MAIN_BONES], [0, 7.3, 31.05, st.duration]);
    expect(worst).toBeGreaterThanOrEqual(0.99999);
  });

  it('opens every VRM 0.x fixture by a synthetic drop and the preview still matches the reference', async () => {
    for (const file of fixtureFiles('vrm0', '.vrm')) {
      const name = file.split('/').pop()!;
      await dropFiles(s.page, [{ name, bytes: readFixture('vrm0', name) }]);
      await waitForState(s.page, 'avatarName', name);
      const st = await state(s.page);
      expect(st.metaVersion).toBe('0');
      const worst = await comparePreviewToReference(['hips', 'spine', 'leftUpperArm', 'rightUpperLeg', 'head'], [0, 12.5]);
      expect(worst).toBeGreaterThanOrEqual(0.99999);
    }
    await screenshot(s.page, 'vrm0-avatar');
  });

  it('converts .vmd and .bvh motions on the fly with a notice', async () => {
    const cases: [string, string, string][] = [
      ['bvh', 'cmu_12_01_walk.bvh', 'cmu_12_01_walk'],
      ['vmd/mmdagent', 'mei_greeting.vmd', 'mei_greeting'],
    ];
    for (const [folder, name, motionName] of cases) {
      const n = (await state(s.page)).messages.length;
      await s.page.setInputFiles('#open-file-input', fixturePath(...folder.split('/'), name));
      await s.page.waitForFunction(
        ([mn, count]) => {
          const st = (window as unknown as { __studio: { state(): { motionName: string; messages: unknown[] } } }).__studio.state();
          return st.motionName === mn || st.messages.length > (count as number);
        },
        [motionName, n] as const,
      );
      const st = await state(s.page);
      const fresh = st.messages.slice(n);
      expect(fresh.filter((m) => m.kind === 'error')).toEqual([]);
      expect(st.motionName).toBe(motionName);
      expect(st.duration).toBeGreaterThan(1);
      expect(fresh.some((m) => m.kind === 'notice' && m.text.includes('converted'))).toBe(true);
    }
  });

  it('opens a .vpd pose as a one-frame motion, exactly as the core converts it', async () => {
    const vpd = writeVpd({
      modelName: 'studio test',
      bones: [
        { name: '首', position: [0, 0, 0], rotation: [0, Math.sin(Math.PI / 12), 0, Math.cos(Math.PI / 12)] },
        { name: '左腕', position: [0, 0, 0], rotation: [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)] },
      ],
      morphs: [],
    });
    await dropFiles(s.page, [{ name: 'nod.vpd', bytes: vpd }]);
    await waitForState(s.page, 'motionName', 'nod');
    const st = await state(s.page);
    expect(st.duration).toBe(0);
    expect(st.playing).toBe(false);
    expect(st.messages.some((m) => m.kind === 'notice' && m.text.includes('nod.vpd was converted from VPD'))).toBe(true);
    const expected = writeVrma(convertToMotion('nod.vpd', vpd));
    expect(Buffer.from(await motionBytes(s.page)).equals(Buffer.from(expected))).toBe(true);
    // Edits that need a length say why they are off.
    await expect.poll(() => s.page.locator('#edit-reverse').isDisabled()).toBe(true);
    expect(await s.page.locator('#edit-reverse-reason').textContent()).toMatch(/single frame/);
  });

  it('drops an avatar and a motion together (avatar first) and previews the pair', async () => {
    await dropFiles(s.page, [
      { name: 'test.vrma', bytes: readFixture('vrma', 'test.vrma') },
      { name: 'debug_robot.vrm', bytes: readFixture('vrm1', 'debug_robot.vrm') },
    ]);
    await waitForState(s.page, 'motionName', 'test');
    const st = await state(s.page);
    expect(st.avatarName).toBe('debug_robot.vrm');
    const worst = await comparePreviewToReference(['rightUpperArm', 'hips', 'head'], [0, 0.25, 0.5, st.duration]);
    expect(worst).toBeGreaterThanOrEqual(0.99999);
  });

  it('a dropped .glb avatar (a VRM named .glb) loads like a .vrm, as the Electron drop path now does too', async () => {
    // The Electron side (main opening the dropped path) is tested in tests/unit/services/avatarOpen.test.ts.
    await dropFiles(s.page, [{ name: 'robot.glb', bytes: readFixture('vrm1', 'debug_robot.vrm') }]);
    await waitForState(s.page, 'avatarName', 'robot.glb');
    const st = await state(s.page);
    expect(st.messages.filter((m) => m.kind === 'error')).toEqual([]);
    const worst = await comparePreviewToReference(['rightUpperArm', 'hips', 'head'], [0, 0.25, 0.5, st.duration]);
    expect(worst).toBeGreaterThanOrEqual(0.99999);
  });

  it('shows expressions, lookAt and the reader warnings in the info panel', async () => {
    await s.page.setInputFiles('#open-file-input', fixturePath('vrma', 'test_2023-11_no-specVersion.vrma'));
    await waitForState(s.page, 'motionName', 'test_2023-11_no-specVersion');
    const info = s.page.locator('.info-panel');
    expect(await info.locator('[data-info="expressions"]').textContent()).toBe('happy');
    expect(await info.locator('[data-info="look-at"]').textContent()).toBe('animated');
    expect(await info.locator('[data-info="duration"]').textContent()).toContain('3.000 s');
    expect(await info.locator('.warnings li').allTextContents()).toEqual(['specVersion is missing (a pre-release file); read as 1.0']);
    // The warning is in the document's report, announced by one toast that points at it.
    const st = await state(s.page);
    expect(st.document.reports.some((t) => t.includes('specVersion is missing'))).toBe(true);
    expect(st.toasts.some((t) => /1 note in the report/.test(t.text))).toBe(true);
    // The expression and gaze tracks survive into the export: the bytes are the core's write of the file.
    const expected = writeVrma(readVrma(readFixture('vrma', 'test_2023-11_no-specVersion.vrma')));
    expect(Buffer.from(await motionBytes(s.page)).equals(Buffer.from(expected))).toBe(true);
  });

  it('reports a bad file in the UI and keeps the current motion and avatar', async () => {
    const before = await motionBytes(s.page);
    const st0 = await state(s.page);
    const truncated = readFixture('vrma', 'test.vrma').subarray(0, 300);
    await dropFiles(s.page, [{ name: 'broken.vrma', bytes: truncated }]);
    await waitForState(s.page, 'messages', st0.messages.length + 1);
    await dropFiles(s.page, [{ name: 'broken.vrm', bytes: new Uint8Array([1, 2, 3, 4]) }]);
    await waitForState(s.page, 'messages', st0.messages.length + 2);
    const st = await state(s.page);
    const errors = st.messages.slice(st0.messages.length);
    expect(errors.map((m) => m.kind)).toEqual(['error', 'error']);
    expect(errors[0].text).toContain('broken.vrma');
    expect(errors[1].text).toContain('broken.vrm');
    expect(st.avatarName).toBe(st0.avatarName);
    expect(st.motionName).toBe(st0.motionName);
    expect(Buffer.from(await motionBytes(s.page)).equals(Buffer.from(before))).toBe(true);
    // The error is visible on the page, not only in the log.
    expect(await s.page.locator('.message.error').count()).toBeGreaterThanOrEqual(1);
    expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });
});
