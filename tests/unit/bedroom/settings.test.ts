/** The one bedroom settings type and its one sanitizer (shared/contract/bedroomSettings.ts). */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BEDROOM_SETTINGS,
  MAX_PLACEMENTS,
  placementOf,
  sanitizeBedroomSettings,
  withPlacement,
  ZERO_OFFSETS,
} from '../../../shared/contract/bedroomSettings';
import { validateArgs } from '../../../shared/contract/validate';

describe('bedroom settings', () => {
  it('keeps valid values and repairs everything else', () => {
    const ok = {
      pose: 'left',
      sides: 'both',
      autoTurn: false,
      autoSec: 300,
      placement: { 'robot.vrm': { towardHead: 0.1, towardWall: -0.2, up: 0.05, turn: 45 } },
      poseFiles: { side: '/poses/a.vrma' },
      sound: { muted: true, volume: 0.3 },
    };
    expect(sanitizeBedroomSettings(ok)).toEqual(ok);
    expect(sanitizeBedroomSettings(undefined)).toEqual(DEFAULT_BEDROOM_SETTINGS);
    expect(sanitizeBedroomSettings('garbage')).toEqual(DEFAULT_BEDROOM_SETTINGS);
    const fixed = sanitizeBedroomSettings({
      pose: 'belly',
      autoTurn: 'yes',
      autoSec: 5,
      placement: { a: { towardHead: 9, up: NaN, towardWall: '1', turn: -720 }, '': {} },
      poseFiles: { back: 7, side: 'x\0y' },
      sound: { muted: 'no', volume: 3 },
    });
    expect(fixed).toEqual({ ...DEFAULT_BEDROOM_SETTINGS, autoSec: 20, placement: { a: { towardHead: 0.5, towardWall: 0, up: 0, turn: -180 } }, sound: { muted: false, volume: 1 } });
    expect(sanitizeBedroomSettings({ autoSec: 1e9 }).autoSec).toBe(600);
  });

  it('reads version 1 settings: "side" is the right side; the left side needs both sides on', () => {
    expect(sanitizeBedroomSettings({ pose: 'side', offsetX: 0.1 }).pose).toBe('right');
    expect(sanitizeBedroomSettings({ pose: 'left' }).pose).toBe('right');
    expect(sanitizeBedroomSettings({ pose: 'left', sides: 'both' }).pose).toBe('left');
  });

  it('placement is per avatar, capped, the newest kept', () => {
    let s = DEFAULT_BEDROOM_SETTINGS;
    for (let i = 0; i < MAX_PLACEMENTS + 5; i++) s = withPlacement(s, `a${i}.vrm`, { ...ZERO_OFFSETS, up: i / 1000 });
    expect(Object.keys(s.placement)).toHaveLength(MAX_PLACEMENTS);
    expect(placementOf(s, 'a0.vrm')).toEqual(ZERO_OFFSETS);
    expect(placementOf(s, `a${MAX_PLACEMENTS + 4}.vrm`).up).toBeCloseTo((MAX_PLACEMENTS + 4) / 1000, 9);
    expect(sanitizeBedroomSettings(s)).toEqual(s);
  });

  it('the IPC check accepts the type and refuses a wrong field, naming it', () => {
    expect(() => validateArgs('setSettings', [{ bedroom: DEFAULT_BEDROOM_SETTINGS }])).not.toThrow();
    expect(() => validateArgs('setSettings', [{ bedroom: { placement: { a: { towardHead: 'far' } } } }])).toThrow(/bedroom\.placement\["a"\]\.towardHead must be a finite number/);
    expect(() => validateArgs('setSettings', [{ bedroom: { pose: 'side' } }])).toThrow(/bedroom\.pose must be one of back, right, left/);
  });
});
