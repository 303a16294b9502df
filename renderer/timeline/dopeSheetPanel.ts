/**
 * Wires the dope sheet to the studio: what it shows, its edits committed through the document (one
 * undo step each), and its commands in the one command registry (K, Ctrl+C, Ctrl+V, Ctrl+Shift+V,
 * Delete keys; copy and paste in clipboardCommands.ts).
 */
import type { Studio } from '../app/studio';
import type { AutoKey } from '../app/autoKey';
import { insertKeys, type TrackRef } from '../../shared/edits/insertKeys';
import { onLocaleChange, t } from '../../shared/i18n';
import { DopeSheet } from './dopeSheet';
import { confirmReplace, markerEdits, registerKeyCommands } from './keyCommands';
import { registerClipboardCommands } from './clipboardCommands';
import { frameOf, snapToFrame } from '../app/frames';
import { afterTask } from '../ui/deferred';

/** `autoKey`: K keys a pose it shows unkeyed (auto-key off) before anything else. */
export function createDopeSheet(studio: Studio, autoKey: AutoKey): DopeSheet {
  const markers = markerEdits(studio);
  const sheet = new DopeSheet({
    ...markers,
    motion: () => studio.motion,
    duration: () => studio.duration,
    fps: () => studio.fps,
    time: () => studio.clock.time,
    playing: () => studio.clock.playing,
    selectedBone: () => studio.selectedBone,
    seek: (time, free) => {
      studio.setPlaying(false);
      studio.seek(free ? time : snapToFrame(time, studio.fps, studio.duration));
    },
    selectBone: (bone) => studio.select(bone),
    commit: (motion, label, message) => studio.commit(motion, label, message),
    confirmReplace,
  });
  studio.events.on('motion', () => {
    sheet.motionChanged();
    sheet.updateInfo();
  });
  // The frame field and timecode once per task (a seek loop, a scrub's events), like the expression sliders.
  studio.events.on('time', afterTask(() => sheet.timeChanged()));
  studio.events.on('playback', () => sheet.timeChanged());
  studio.events.on('selection', () => sheet.invalidate());
  onLocaleChange(() => {
    sheet.updateInfo();
    sheet.invalidate();
  });
  sheet.motionChanged();
  sheet.updateInfo();
  sheet.timeChanged();

  const frame = () => frameOf(studio.keyTime, studio.fps);

  /** K: the selected bone's rotation (and the hips position for the hips), else the rows picked by label. */
  const insertTargets = (): TrackRef[] => {
    const m = studio.motion;
    const bone = studio.selectedBone;
    const node = bone ? m.humanoid.boneToNode[bone] : undefined;
    if (node !== undefined) {
      const refs: TrackRef[] = [{ node, path: 'rotation' }];
      if (bone === 'hips') refs.push({ node, path: 'translation' });
      return refs;
    }
    return [...sheet.pickedRows].map((id) => {
      const [n, path] = id.split('/');
      return { node: Number(n), path: path as TrackRef['path'] };
    });
  };

  const r = studio.commands;
  r.register({
    id: 'keys.insert',
    label: 'Insert key',
    description: 'Key the selected bone at the playhead (or the pose shown unkeyed with auto-key off)',
    shortcuts: ['K'],
    menu: 'edit',
    run: () => {
      if (autoKey.keyPending()) return;
      const targets = insertTargets();
      if (!targets.length) {
        studio.messages.show('notice', () => t('timeline.keys.noBone'));
        return;
      }
      const f = frame();
      studio.commit(insertKeys(studio.motion, targets, studio.keyTime), 'Insert key', () => t('timeline.keys.inserted', { frame: f }));
    },
  });
  registerClipboardCommands(studio, sheet);
  r.register({ id: 'keys.delete', label: 'Delete keys', description: 'Delete the selected keys', menu: 'edit', isEnabled: () => !sheet.selection.empty, run: () => void sheet.deleteSelected() });
  registerKeyCommands(studio, sheet, markers);
  return sheet;
}
