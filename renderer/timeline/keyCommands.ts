/**
 * The animator's key and marker commands (issue 27), in the one command registry so the menu, the
 * shortcuts and the buttons are the same commands:
 * - A / Alt+A / Ctrl+I: select every key of the shown rows, none, or invert (Blender's keys);
 *   Ctrl+K: the columns of the selected keys (Alt+click on a key selects its column);
 * - ↑ / ↓: the playhead to the next / previous key of the shown rows (Blender's jump to keyframe);
 * - S: scale the selected keys' times around the playhead by a typed factor (scaleKeys);
 * - Value…: type the selected keys' value in the curve view's units (keyValueCommand.ts);
 * - T: the interpolation of the selected keys, Constant / Linear / Bézier (keyKindCommand.ts);
 * - markers: M adds one named "Marker N" with a new N, F2 renames, Delete removes the picked one
 *   (or the one on the playhead's frame), a drag on the ruler moves it.
 */
import type { Studio } from '../app/studio';
import { changeMarker, markersOf, nextMarkerName, withMarkers } from '../../shared/motion/markers';
import { keysLandedOn, scaleKeys } from '../../shared/edits/retimeKeys';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { t } from '../../shared/i18n';
import { choose } from '../ui/dialog';
import { errorText } from '../ui/messages';
import type { DopeSheet } from './dopeSheet';
import { frameOf, snapToFrame } from '../app/frames';
import { registerInterpolationCommand } from './keyKindCommand';
import { registerKeyValueCommand } from './keyValueCommand';
import { askFields } from './fieldsDialog';

/** Asks before moved keys replace `landed` keys already at their new times: key edits never lose keys silently. */
export async function confirmReplace(moving: number, landed: number): Promise<boolean> {
  const choice = await choose({
    id: 'replace-keys-dialog',
    title: t('timeline.keys.replaceTitle'),
    text: t('timeline.keys.replaceText', { moving, landed }),
    choices: [
      { id: 'replace', label: t('timeline.keys.replace'), default: true, danger: true },
      { id: 'cancel', label: t('timeline.keys.cancel') },
    ],
    cancel: 'cancel',
  });
  return choice === 'replace';
}

/** Marker edits the dope sheet's ruler asks for (drag, double-click, Delete). */
export function markerEdits(studio: Studio) {
  const label = (i: number) => markersOf(studio.motion)[i]?.name ?? '';
  return {
    moveMarker(index: number, time: number): void {
      const to = snapToFrame(time, studio.fps, studio.duration);
      const name = label(index);
      const frame = frameOf(to, studio.fps);
      studio.commit(changeMarker(studio.motion, index, { time: to }), 'Move marker', () => t('timeline.marker.moved', { name, frame }));
    },
    async renameMarker(index: number): Promise<void> {
      const old = label(index);
      const got = await askFields('marker-name-dialog', t('timeline.marker.renameTitle'), [{ id: 'marker-name', label: t('timeline.marker.nameLabel'), value: old, type: 'text' }]);
      const name = got?.[0].trim();
      if (!name || name === old) return;
      studio.commit(changeMarker(studio.motion, index, { name }), 'Rename marker', () => t('timeline.marker.renamed', { old, name }));
    },
    deleteMarker(index: number): void {
      const name = label(index);
      studio.commit(changeMarker(studio.motion, index, null), 'Delete marker', () => t('timeline.marker.deleted', { name }));
    },
  };
}

export function registerKeyCommands(studio: Studio, sheet: DopeSheet, markers: ReturnType<typeof markerEdits>): void {
  const r = studio.commands;
  const hasKeys = () => !sheet.selection.empty;
  r.register({ id: 'keys.selectAll', label: 'Select all keys', description: 'Select every key of the rows shown', shortcuts: ['A'], menu: 'edit', run: () => sheet.selectAll(true) });
  r.register({ id: 'keys.selectNone', label: 'Deselect keys', description: 'Select no key', shortcuts: ['Alt+A'], menu: 'edit', run: () => sheet.selectAll(false) });
  r.register({
    id: 'keys.invert',
    label: 'Invert key selection',
    description: 'Select the keys that are not selected, and unselect those that are',
    shortcuts: ['Mod+I'],
    menu: 'edit',
    run: () => sheet.invertSelection(),
  });
  r.register({
    id: 'keys.columns',
    label: 'Select columns',
    description: 'Select every key at the times of the selected keys (Alt+click a key: its column)',
    shortcuts: ['Mod+K'],
    menu: 'edit',
    isEnabled: hasKeys,
    run: () => void sheet.selectColumns(),
  });

  /** The next (dir 1) or previous (-1) key time of the shown rows after the playhead's frame. */
  const jump = (dir: 1 | -1) => {
    const now = Math.fround(studio.keyTime);
    let best = dir > 0 ? Infinity : -Infinity;
    for (const row of sheet.shownKeyedRows()) {
      const times = row.channel!.times;
      const i = lowerBound(times, now);
      const cand = dir > 0 ? times[i < times.length && times[i] === now ? i + 1 : i] : times[i - 1];
      if (cand !== undefined && (dir > 0 ? cand < best : cand > best)) best = cand;
    }
    if (!Number.isFinite(best)) {
      studio.messages.show('notice', () => t(dir > 0 ? 'timeline.keys.noNext' : 'timeline.keys.noPrevious'));
      return;
    }
    studio.setPlaying(false);
    studio.seek(best);
  };
  r.register({ id: 'keys.next', label: 'Next key', description: 'Move the playhead to the next key of the rows shown', shortcuts: ['ArrowUp'], menu: 'playback', run: () => jump(1) });
  r.register({ id: 'keys.previous', label: 'Previous key', description: 'Move the playhead to the previous key of the rows shown', shortcuts: ['ArrowDown'], menu: 'playback', run: () => jump(-1) });

  r.register({
    id: 'keys.scale',
    label: 'Scale keys',
    description: 'Scale the selected keys in time around the playhead',
    shortcuts: ['S'],
    menu: 'edit',
    isEnabled: hasKeys,
    run: async () => {
      const pivot = studio.keyTime;
      const frame = frameOf(pivot, studio.fps);
      const got = await askFields('scale-keys-dialog', t('timeline.keys.scaleTitle', { frame }), [{ id: 'scale-factor', label: t('timeline.keys.scaleFactor'), value: '2', type: 'number' }]);
      if (!got) return;
      const factor = Number(got[0]);
      const count = sheet.selection.size;
      const sel = sheet.selection.toKeySelection();
      try {
        if (!(factor > 0)) scaleKeys(studio.motion, sel, pivot, factor); // refuses it with the reason
        const landed = keysLandedOn(studio.motion, sel, (x) => pivot + (x - pivot) * factor);
        if (landed > 0 && !(await confirmReplace(count, landed))) return;
        const out = scaleKeys(studio.motion, sel, pivot, factor);
        sheet.selection.clear();
        studio.commit(out, 'Scale keys', () => t(landed ? 'timeline.keys.scaledReplacing' : 'timeline.keys.scaled', { count, factor: String(factor), frame, landed }));
      } catch (e) {
        studio.messages.error(() => t('timeline.keys.scaleFailed', { detail: errorText(e) }));
      }
    },
  });

  registerKeyValueCommand(studio, sheet);
  registerInterpolationCommand(studio, sheet);

  /** The picked marker, else the one on the playhead's frame. */
  const currentMarker = (): number => {
    if (sheet.selectedMarker !== null) return sheet.selectedMarker;
    const f = frameOf(studio.keyTime, studio.fps);
    return markersOf(studio.motion).findIndex((m) => frameOf(m.time, studio.fps) === f);
  };
  r.register({
    id: 'markers.add',
    label: 'Add marker',
    description: 'Add a named marker at the playhead (saved in the .vrma)',
    shortcuts: ['M'],
    menu: 'edit',
    run: () => {
      const name = nextMarkerName(studio.motion, (n) => t('timeline.marker.name', { n }));
      const time = studio.keyTime;
      const f = frameOf(time, studio.fps);
      studio.commit(withMarkers(studio.motion, [...markersOf(studio.motion), { time, name, kind: 'user' }]), 'Add marker', () => t('timeline.marker.added', { name, frame: f }));
    },
  });
  r.register({
    id: 'markers.rename',
    label: 'Rename marker',
    description: 'Rename the picked marker (or the one at the playhead)',
    shortcuts: ['F2'],
    menu: 'edit',
    isEnabled: () => currentMarker() >= 0,
    run: () => markers.renameMarker(currentMarker()),
  });
  r.register({
    id: 'markers.delete',
    label: 'Delete marker',
    description: 'Delete the picked marker (or the one at the playhead)',
    menu: 'edit',
    isEnabled: () => currentMarker() >= 0,
    run: () => markers.deleteMarker(currentMarker()),
  });
}
