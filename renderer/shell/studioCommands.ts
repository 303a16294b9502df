/** The studio's commands: one definition each for the buttons, the keyboard and the desktop menu. */
import type { Studio } from '../app/studio';
import { setIn, setOut } from '../app/range';
import { EDITS } from '../../shared/edits/registry';
import { editDisabledReason, runEdit } from '../panels/editPanel';
import { registerFileCommands, type FileCommandHooks } from './fileCommands';

export interface CommandHooks extends FileCommandHooks {
  fitTimeline(): void;
}

export function registerStudioCommands(studio: Studio, hooks: CommandHooks): void {
  const r = studio.commands;
  const hasRange = () => studio.range !== null;
  registerFileCommands(studio, hooks);
  r.register({
    id: 'edit.undo',
    label: 'Undo',
    description: 'Undo the last change',
    shortcuts: ['Mod+Z'],
    menu: 'edit',
    isEnabled: () => studio.history.canUndo,
    run: () => studio.undo(),
  });
  r.register({
    id: 'edit.redo',
    label: 'Redo',
    description: 'Redo the change you undid',
    shortcuts: ['Mod+Shift+Z', 'Mod+Y'],
    menu: 'edit',
    isEnabled: () => studio.history.canRedo,
    run: () => studio.redo(),
  });
  r.register({ id: 'playback.toggle', label: 'Play/Pause', description: 'Play or pause the preview', shortcuts: ['Space'], menu: 'view', run: () => studio.setPlaying(!studio.clock.playing) });
  r.register({ id: 'playback.stepBack', label: 'Previous frame', description: 'Step one frame back', shortcuts: ['ArrowLeft'], run: () => step(-1) });
  r.register({ id: 'playback.stepForward', label: 'Next frame', description: 'Step one frame forward', shortcuts: ['ArrowRight'], run: () => step(1) });
  r.register({ id: 'playback.start', label: 'Go to start', description: 'Go to the first frame', shortcuts: ['Home'], run: () => studio.seek(0) });
  r.register({ id: 'playback.end', label: 'Go to end', description: 'Go to the last frame', shortcuts: ['End'], run: () => studio.seek(studio.duration) });
  r.register({
    id: 'range.in',
    label: 'Set IN',
    description: 'Start the range at the current time',
    shortcuts: ['I'],
    menu: 'edit',
    run: () => studio.setRange(setIn(studio.range, studio.clock.time, studio.duration)),
  });
  r.register({
    id: 'range.out',
    label: 'Set OUT',
    description: 'End the range at the current time',
    shortcuts: ['O'],
    menu: 'edit',
    run: () => studio.setRange(setOut(studio.range, studio.clock.time, studio.duration)),
  });
  r.register({ id: 'range.clear', label: 'Clear range', description: 'Remove the IN/OUT range', shortcuts: ['Escape'], isEnabled: hasRange, run: () => studio.setRange(null) });
  // Every edit of the registry is a command `edit.<id>`, run with the edit panel's values.
  for (const def of EDITS) {
    r.register({ id: `edit.${def.id}`, label: def.label, description: def.summary, isEnabled: () => editDisabledReason(studio, def) === null, run: () => void runEdit(studio, def) });
  }
  const deleteEdit = EDITS.find((e) => e.id === 'delete')!;
  r.register({
    id: 'range.delete',
    label: 'Delete range',
    description: 'Remove the IN/OUT range, joining the rest with a blend',
    shortcuts: ['Delete'],
    menu: 'edit',
    isEnabled: hasRange,
    run: () => {
      if (runEdit(studio, deleteEdit)) studio.setRange(null);
    },
  });
  r.register({ id: 'view.frame', label: 'Frame avatar', description: 'Point the camera at the avatar', shortcuts: ['F'], menu: 'view', run: () => studio.frameAvatar() });
  r.register({ id: 'view.fitTimeline', label: 'Fit timeline', description: 'Show the whole motion on the timeline', menu: 'view', run: hooks.fitTimeline });

  function step(frames: number) {
    studio.setPlaying(false);
    studio.clock.step(frames, studio.fps);
    studio.seek(studio.clock.time);
  }
}
