/**
 * Copy and paste in the timeline (Ctrl+C, Ctrl+V, Ctrl+Shift+V): copy takes the selected keys, or the
 * whole pose at the playhead when none is selected; paste puts back whichever was copied last, at the
 * playhead, and Paste flipped puts the pose back mirrored left and right.
 */
import type { Studio } from '../app/studio';
import type { Motion } from '../../shared/motion/types';
import { copyKeys, pasteKeys, type KeyClip } from '../../shared/edits/pasteKeys';
import { pastePose } from '../../shared/edits/pastePose';
import { t } from '../../shared/i18n';
import type { DopeSheet } from './dopeSheet';
import { frameOf } from '../app/frames';

type Clipboard = { kind: 'keys'; clip: KeyClip; count: number } | { kind: 'pose'; motion: Motion; time: number };

export function registerClipboardCommands(studio: Studio, sheet: DopeSheet): void {
  let clipboard: Clipboard | null = null;
  const frame = () => frameOf(studio.keyTime, studio.fps);
  const r = studio.commands;
  r.register({
    id: 'keys.copy',
    label: 'Copy',
    description: 'Copy the selected keys, or the pose at the playhead',
    shortcuts: ['Mod+C'],
    menu: 'edit',
    run: () => {
      const f = frame();
      if (!sheet.selection.empty) {
        const count = sheet.selection.size;
        clipboard = { kind: 'keys', clip: copyKeys(studio.motion, sheet.selection.toKeySelection()), count };
        studio.messages.show('notice', () => t('timeline.keys.copied', { count }));
      } else {
        clipboard = { kind: 'pose', motion: studio.motion, time: studio.keyTime };
        studio.messages.show('notice', () => t('timeline.pose.copied', { frame: f }));
      }
    },
  });
  const paste = (mirrored: boolean) => {
    const f = frame();
    const time = studio.keyTime;
    if (!clipboard) {
      studio.messages.show('notice', () => t('timeline.keys.nothingToPaste'));
      return;
    }
    if (clipboard.kind === 'keys' && !mirrored) {
      studio.commit(pasteKeys(studio.motion, clipboard.clip, time), 'Paste keys', () => t('timeline.keys.pasted', { frame: f }));
      return;
    }
    // The pose as it was when copied (the motion of that moment); copied keys flip as the pose at the playhead.
    const source = clipboard.kind === 'pose' ? clipboard : { motion: studio.motion, time };
    const out = pastePose(studio.motion, source.time, time, { mirrored, source: source.motion });
    studio.commit(out, mirrored ? 'Paste flipped' : 'Paste pose', () => t(mirrored ? 'timeline.pose.pastedFlipped' : 'timeline.pose.pasted', { frame: f }));
  };
  r.register({
    id: 'keys.paste',
    label: 'Paste',
    description: 'Paste the copied keys or pose at the playhead',
    shortcuts: ['Mod+V'],
    menu: 'edit',
    isEnabled: () => clipboard !== null,
    run: () => paste(false),
  });
  r.register({
    id: 'keys.pasteFlipped',
    label: 'Paste flipped',
    description: 'Paste the copied pose mirrored left and right',
    shortcuts: ['Mod+Shift+V'],
    menu: 'edit',
    isEnabled: () => clipboard !== null,
    run: () => paste(true),
  });
}
