/**
 * The bedroom's placement sliders (toward the head, toward the wall, up, turn), named for what they
 * do in the bed's directions: a drag previews, the release saves, Reset puts the avatar back.
 */
import { OFFSET_LIMIT_M, TURN_LIMIT_DEG, type PlacementOffsets } from '../../shared/contract/bedroomSettings';
import { t, type MessageKey } from '../../shared/i18n';
import { tAttr, tText } from '../ui/i18n';
import { button, el } from './controlElements';

/** The placement sliders, named for what they do, in the bed's directions. */
export const PLACEMENT_SLIDERS = [
  { key: 'towardHead', label: 'bedroom.placement.towardHead', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'towardWall', label: 'bedroom.placement.towardWall', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'up', label: 'bedroom.placement.up', min: -OFFSET_LIMIT_M, max: OFFSET_LIMIT_M, step: 0.01, unit: 'cm' },
  { key: 'turn', label: 'bedroom.placement.turn', min: -TURN_LIMIT_DEG, max: TURN_LIMIT_DEG, step: 1, unit: '°' },
] as const satisfies readonly { readonly key: string; readonly label: MessageKey; readonly min: number; readonly max: number; readonly step: number; readonly unit: string }[];

export function formatOffset(v: number, unit: string): string {
  if (unit === 'cm') return t('bedroom.unit.cm', { value: `${v > 0 ? '+' : ''}${Math.round(v * 100)}` });
  return t('bedroom.unit.deg', { value: `${v > 0 ? '+' : ''}${v.toFixed(0)}` });
}

export interface PlacementControls {
  readonly element: HTMLElement;
  show(offsets: PlacementOffsets): void;
}

export function createPlacementControls(events: { setOffsets(offsets: PlacementOffsets, final: boolean): void; resetPlacement(): void }): PlacementControls {
  const sliders = {} as Record<(typeof PLACEMENT_SLIDERS)[number]['key'], { input: HTMLInputElement; out: HTMLOutputElement }>;
  const placement = el('fieldset', { className: 'bedroom-placement' }, tText(el('legend'), 'bedroom.placement'));
  const readOffsets = (): PlacementOffsets => ({
    towardHead: Number(sliders.towardHead.input.value),
    towardWall: Number(sliders.towardWall.input.value),
    up: Number(sliders.up.input.value),
    turn: Number(sliders.turn.input.value),
  });
  for (const a of PLACEMENT_SLIDERS) {
    const input = el('input', { type: 'range', min: String(a.min), max: String(a.max), step: String(a.step) });
    tAttr(input, 'aria-label', a.label);
    // The slider itself carries its value for assistive tech (aria-valuetext); the visible readout
    // is hidden from it so the panel has exactly one status region.
    const out = el('output', {});
    out.setAttribute('aria-hidden', 'true');
    input.addEventListener('input', () => {
      out.textContent = formatOffset(Number(input.value), a.unit);
      input.setAttribute('aria-valuetext', out.textContent);
      events.setOffsets(readOffsets(), false);
    });
    input.addEventListener('change', () => events.setOffsets(readOffsets(), true));
    sliders[a.key] = { input, out };
    placement.append(el('label', { className: 'bedroom-slider' }, tText(el('span'), a.label), el('span', { className: 'bedroom-slider-row' }, input, out)));
  }
  const reset = button('bedroom.placement.reset');
  reset.addEventListener('click', () => events.resetPlacement());
  placement.append(reset);
  return {
    element: placement,
    show(offsets) {
      for (const a of PLACEMENT_SLIDERS) {
        sliders[a.key].input.value = String(offsets[a.key]);
        sliders[a.key].out.textContent = formatOffset(offsets[a.key], a.unit);
        sliders[a.key].input.setAttribute('aria-valuetext', sliders[a.key].out.textContent ?? '');
      }
    },
  };
}
