/**
 * Wires the curve view to the studio: which channels it shows (the selected bone's rotation, the
 * hips position with the hips, and the rows picked in the dope sheet), the optimizer's band while
 * the optimize panel is open (the edit panel's own optimize settings and range, run through the
 * registry), edits committed as one undo step, and the G command that toggles it with the dope
 * sheet (listed in the ? overlay and the View menu).
 */
import type { Studio } from '../app/studio';
import type { Channel, Motion } from '../../shared/motion/types';
import { EDITS, type EditDefinition } from '../../shared/edits/registry';
import { editContext, editState } from '../panels/editPanel';
import { panelEditInput, runPanelEdit, type EditState } from '../panels/editCatalog';
import { onLocaleChange, t } from '../../shared/i18n';
import { commandButton } from '../panels/commandButton';
import type { DopeSheet } from './dopeSheet';
import { CurveView } from './curveView';
import { curveChannel, type CurveChannel } from './curveData';
import type { Band } from './curveBand';
import { CurveBands, type BandRun } from './curveBands';
import { snapToFrame } from '../app/frames';

/** The name a channel's node goes by: its bone, expression, "lookAt", or the glTF node's name. */
function nodeName(motion: Motion, node: number): string {
  const bone = motion.humanoid.nodeToBone.get(node);
  if (bone) return bone;
  const ex = motion.expressions.find((e) => e.node === node);
  if (ex) return ex.name;
  if (motion.lookAtNode === node) return 'lookAt';
  const nodes = Array.isArray(motion.gltf.nodes) ? (motion.gltf.nodes as { name?: unknown }[]) : [];
  return typeof nodes[node]?.name === 'string' ? (nodes[node].name as string) : `#${node}`;
}

/** The optimize edit as the edit panel would run it (its values and IN/OUT), for a track's band. */
function bandRun(studio: Studio, def: EditDefinition, state: EditState): BandRun {
  const ctx = { ...editContext(studio), motion: studio.motion };
  const { range } = panelEditInput(def, ctx, state);
  return {
    motion: studio.motion,
    tolerances: { rotation: Number(state.values['rot-tol']), position: Number(state.values['pos-tol']) },
    given: state.values,
    ...(range ? { range } : {}),
    reduce: (m) => runPanelEdit(def, { ...ctx, motion: m }, state).motion,
  };
}

export function createCurveView(studio: Studio, sheet: DopeSheet): CurveView {
  const optimizeDef = EDITS.find((e) => e.id === 'optimize');
  // Per channel object: an edit that does not touch a track keeps it, and its curve with it.
  const curveCache = new WeakMap<Channel, CurveChannel>();
  let listKey = '';
  let listMotion: Motion | null = null;
  let list: CurveChannel[] = [];
  const curves = (): readonly CurveChannel[] => {
    const m = studio.motion;
    const bone = studio.selectedBone;
    const ids: string[] = [];
    const node = bone ? m.humanoid.boneToNode[bone] : undefined;
    if (node !== undefined) {
      ids.push(`${node}/rotation`);
      if (bone === 'hips') ids.push(`${node}/translation`);
    }
    for (const id of sheet.pickedRows) if (!ids.includes(id)) ids.push(id);
    const key = ids.join(',');
    if (key === listKey && m === listMotion) return list;
    listKey = key;
    listMotion = m;
    list = [];
    for (const id of ids) {
      const [n, path] = id.split('/');
      const channel = m.channels.find((c) => c.node === Number(n) && c.path === path);
      if (!channel || channel.times.length === 0) continue;
      let curve = curveCache.get(channel);
      if (!curve) curveCache.set(channel, curve = curveChannel(m, channel, nodeName(m, channel.node)));
      list.push(curve);
    }
    return list;
  };

  /** The optimize panel (its edit section) is open: the band shows, at its settings. */
  const optimizeOpen = () => !!(document.getElementById('edit-optimize')?.closest('details') as HTMLDetailsElement | null)?.open;
  // `view` is made below; a band measured in the worker redraws it when it comes.
  const bands = new CurveBands(() => view.invalidate());
  const band = (curve: CurveChannel): Band | null => {
    if (!optimizeDef || !optimizeOpen()) return null;
    const state = editState(studio, optimizeDef);
    const range = studio.range;
    const key = JSON.stringify([state.values, range?.start, range?.end]);
    return bands.get(curve, key, () => bandRun(studio, optimizeDef, state));
  };

  // `view` is made below; the command runs only after this function returns.
  const toggle = (): void => {
    if (view.visible) {
      sheet.setTimeSpan(view.time.start, view.time.end);
      view.show(false);
      sheet.element.hidden = false;
    } else {
      view.show(true, sheet.view);
      sheet.element.hidden = true;
      view.overlay.focus();
    }
  };
  // Registered before the buttons are made (they read it); both buttons and the G key run it.
  studio.commands.register({
    id: 'view.curves',
    label: 'Curve view',
    description: 'Switch between the dope sheet and the curves of the selected bone',
    shortcuts: ['G'],
    menu: 'view',
    isChecked: () => view.visible,
    run: toggle,
  });
  const back = commandButton(studio, 'view.curves', { label: () => t('curves.toDopeSheet') });
  back.id = 'curve-to-dope-sheet';
  const view = new CurveView(
    {
      motion: () => studio.motion,
      duration: () => studio.duration,
      fps: () => studio.fps,
      time: () => studio.clock.time,
      curves,
      band,
      seek: (time, free) => {
        studio.setPlaying(false);
        studio.seek(free ? time : snapToFrame(time, studio.fps, studio.duration));
      },
      commit: (motion, label, message) => studio.commit(motion, label, message),
      error: (message) => studio.messages.error(message),
    },
    [back],
  );

  const open = commandButton(studio, 'view.curves');
  open.id = 'dope-to-curves';
  sheet.element.querySelector('.dope-bar')?.append(open);

  studio.events.on('motion', () => {
    view.motionChanged();
    view.updateReadout();
  });
  studio.events.on('time', () => view.timeChanged(studio.clock.playing));
  studio.events.on('playback', () => view.timeChanged(studio.clock.playing));
  studio.events.on('selection', () => view.invalidate());
  studio.events.on('range', () => view.invalidate());
  // The optimize settings live in the edit panel: a changed field or an opened/closed section redraws.
  document.addEventListener('change', (e) => {
    if ((e.target as HTMLElement | null)?.id?.startsWith('edit-optimize')) view.invalidate();
  });
  document.addEventListener('toggle', () => view.invalidate(), true);
  onLocaleChange(() => {
    view.updateReadout();
    view.invalidate();
  });
  view.motionChanged();
  return view;
}
