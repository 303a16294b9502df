/**
 * Export's "Smaller file" checkbox (issue 18): off by default (Export writes floats, byte for byte
 * writeVrma of the motion); on, Export writes writeVrma(motion, { quantize: true }): 16-bit rotations,
 * 0 validator errors, the pose within the rounding of the float file. The choice survives a reload.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath, readFixture } from '../../testkit/fixtures';
import { openStudio, waitForState, waitForStudio, type StudioSession } from '../../testkit/studioHarness';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { maxPoseError } from '../../shared/edits/poseError';
import { ROTATION_ROUNDING_ERROR } from '../../shared/vrma/quantize';
import { fileEncoding } from '../../shared/vrma/encoding';
import { validateVrmaBytes } from '../../testkit/validate';

const FIXTURE = 'idle_loop.vrma';

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: Export "Smaller file"', () => {
  let s: StudioSession;
  beforeAll(async () => {
    s = await openStudio();
    await s.page.setInputFiles('#open-file-input', fixturePath('vrma', FIXTURE));
    await waitForState(s.page, 'motionName', 'idle_loop');
  });
  afterAll(async () => {
    await s?.close();
  });

  const exportBytes = async () => {
    const [download] = await Promise.all([s.page.waitForEvent('download'), s.page.getByRole('button', { name: 'Export .vrma' }).click()]);
    return new Uint8Array(readFileSync((await download.path())!));
  };

  it('is off by default: Export writes the float file', async () => {
    expect(await s.page.locator('#export-smaller-file').isChecked()).toBe(false);
    const bytes = await exportBytes();
    expect(Buffer.from(bytes).equals(Buffer.from(writeVrma(readVrma(readFixture('vrma', FIXTURE)))))).toBe(true);
    expect(fileEncoding(bytes).encoding).toBe('float');
  });

  it('checked: Export writes 16-bit rotations, valid, within the rounding of the source, and the choice is remembered', async () => {
    await s.page.locator('#export-smaller-file').check();
    const source = readVrma(readFixture('vrma', FIXTURE));
    const bytes = await exportBytes();
    expect(Buffer.from(bytes).equals(Buffer.from(writeVrma(source, { quantize: true })))).toBe(true);
    expect(fileEncoding(bytes).encoding).toBe('quantized');
    expect(bytes.length).toBeLessThan(writeVrma(source).length * 0.6);
    expect((await validateVrmaBytes(bytes)).errors).toBe(0);
    expect(maxPoseError(source, readVrma(bytes)).rotation).toBeLessThanOrEqual(ROTATION_ROUNDING_ERROR);
    await s.page.reload();
    await waitForStudio(s.page);
    expect(await s.page.locator('#export-smaller-file').isChecked()).toBe(true);
  });
});
