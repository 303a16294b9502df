/**
 * TEST-ONLY (see testHook.ts): the studio's state as one plain object, with the counters the UI does
 * not print (preview rebuilds, timeline layer draws, the last bytes written, the first frame with the
 * avatar), and the studio's intents driven as the UI drives them. The counters are kept here, not in
 * the studio's classes; each view answers for itself through its inspect().
 */
import type { Studio } from '../app/studio';
import type { Viewport } from '../viewport/viewport';
import type { TimelineView } from '../timeline/timelineView';
import type { ContactStrip } from '../timeline/contactStrip';
import type { OnionSkin } from '../viewport/onionSkin';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { writeVrma } from '../app/core';
import { workerCounts } from '../app/motionFiles';
import { fileSaverCounts } from '../platform/autosaveWriter';
import { fromBase64, toBase64, type PoseReaders } from './testHookPose';

export interface StateDeps {
  readonly viewport: Viewport;
  readonly timeline: TimelineView;
  readonly contactStrip?: ContactStrip;
  readonly onionSkin?: OnionSkin;
  readonly startedAt: number;
  /** The first frame with the avatar (firstAvatarFrame.ts: kept by the page, the hook may come later). */
  readonly firstAvatarFrameAt: () => number | null;
}

/** Timeline layer paints, counted by wrapping the view's static draw and overlay paint on this instance. */
function countDraws(timeline: TimelineView): { static: number; overlay: number } {
  const draws = { static: 0, overlay: 0 };
  const layers = timeline as unknown as { drawStatic(): void; paintOverlay(...a: unknown[]): void };
  const drawStatic = layers.drawStatic.bind(timeline);
  const paintOverlay = layers.paintOverlay.bind(timeline);
  layers.drawStatic = () => {
    draws.static++;
    drawStatic();
  };
  layers.paintOverlay = (...a: unknown[]) => {
    draws.overlay++;
    paintOverlay(...a);
  };
  return draws;
}

function toastsOf(studio: Studio) {
  return [...studio.messages.element.querySelectorAll(':scope > .message')].map((m) => ({
    kind: m.classList.contains('error') ? 'error' : m.classList.contains('success') ? 'success' : 'notice',
    text: m.querySelector('span')?.textContent ?? '',
  }));
}

export function stateProbes(studio: Studio, { viewport, timeline, contactStrip, onionSkin, startedAt, firstAvatarFrameAt }: StateDeps, read: PoseReaders) {
  // Preview rebuilds: every motion change and every new avatar rebuilds the clip (Studio.rebuildPreview).
  let previewVersion = 0;
  studio.events.on('motion', () => previewVersion++);
  studio.events.on('avatar', () => previewVersion++);
  const draws = countDraws(timeline);
  // The last write (Save, Save As, Export, downloads): what, where and how large. Its bytes only once a
  // test asked (keepWrittenBytes): the Save of an hour is a 413 MB file the page would hold for nothing,
  // and a Save through the autosave worker never has its bytes in the page at all.
  let lastWritten: { kind: string; path: string | null; size: number } | null = null;
  let keepBytes = false;
  let lastBytes: Uint8Array | null = null;
  studio.doc.events.on('written', (w) => {
    lastWritten = { kind: w.kind, path: w.path ?? null, size: w.size };
    lastBytes = keepBytes ? (w.bytes ?? null) : null;
  });
  const { doc, history, clock } = studio;
  return {
    startedAt,
    firstAvatarFrameAt,
    framesDrawn: () => viewport.framesDrawn,
    state: () => ({
      time: clock.time,
      duration: studio.duration,
      playing: clock.playing,
      loop: clock.loop,
      speed: clock.speed,
      fps: studio.fps,
      range: studio.range,
      selectedBone: studio.selectedBone,
      falloff: studio.falloff,
      dirty: studio.dirty,
      canUndo: history.canUndo,
      canRedo: history.canRedo,
      historyLength: history.length,
      undoDepth: history.position,
      motionName: studio.motionName,
      channels: studio.motion.channels.length,
      avatarName: studio.avatar?.name ?? null,
      metaVersion: studio.avatar?.metaVersion ?? null,
      previewVersion,
      previewIsCurrent: studio.preview?.motion === studio.motion,
      timelineView: timeline.inspect().view,
      timelineDraws: { ...draws },
      messages: studio.messages.log.map((m) => ({ kind: m.kind, text: m.text })),
      document: {
        name: doc.name,
        fileLabel: doc.fileLabel,
        filePath: doc.filePath ?? null,
        sourcePath: doc.sourcePath ?? null,
        needsSave: doc.needsSave,
        reports: [...doc.reports],
        history: history.entries.map((e) => e.label),
      },
      toasts: toastsOf(studio),
    }),
    /** The foot contacts the timeline's strip shows, and the strip's drawn size. */
    footContacts: () => contactStrip?.inspect() ?? { contacts: [], width: 0 },
    motionBytes: () => toBase64(writeVrma(studio.motion)),
    previewMotionBytes: () => toBase64(writeVrma(studio.preview?.motion ?? studio.motion)),
    lastWritten: () => lastWritten,
    /** From now on the hook keeps the bytes of each write the page made (lastExportBytes), or no longer. */
    keepWrittenBytes: (on: boolean) => {
      keepBytes = on;
      if (!on) lastBytes = null;
    },
    lastExportBytes: () => (lastBytes ? toBase64(lastBytes) : null),
    openBase64: (name: string, data: string) => studio.openFile(name, fromBase64(data)),
    /** Runs a registered command by id, as a desktop menu pick does. */
    runCommand: (id: string) => studio.commands.run(id),
    /** Every registered command with its shortcuts (the shortcuts overlay is compared with it). */
    commands: () => studio.commands.all().map((c) => ({ id: c.id, shortcuts: [...(c.shortcuts ?? [])] })),
    seek: (t: number) => {
      studio.setPlaying(false);
      studio.seek(t);
    },
    setPlaying: (p: boolean) => studio.setPlaying(p),
    setRange: (start: number, end: number) => studio.setRange({ start, end }),
    clearRange: () => studio.setRange(null),
    select: (bone: HumanBoneName | null) => studio.select(bone),
    setFalloff: (s: number) => studio.setFalloff(s),
    /** The onion skin's setting and the ghosts (side, time) the last frame drew. */
    onionSkin: () => ({ ...(onionSkin?.inspect() ?? { enabled: false, seconds: 0, lastDrawn: [] }), framesDrawn: viewport.framesDrawn }),
    setOnionSkin: (patch: { enabled?: boolean; seconds?: number }) => onionSkin?.set(patch),
    /** Draws a frame now and returns each ghost's pose (normalized rotations and positions) as the onion skin posed it. */
    onionGhostPoses: (bones: HumanBoneName[]) => {
      if (!onionSkin) return [];
      const out: { side: number; time: number; rotations: Record<string, number[]>; positions: Record<string, number[]> }[] = [];
      onionSkin.onGhostPosed = (side, time) => out.push({ side, time, rotations: read.rotations(bones), positions: read.positions(bones) });
      try {
        viewport.renderNow(0);
      } finally {
        onionSkin.onGhostPosed = null;
      }
      return out;
    },
    /** Reads and writes the motion file worker has done (renderer/app/motionFiles.ts), and Saves made by the autosave worker. */
    fileWorkerCounts: () => ({ ...workerCounts, ...fileSaverCounts }),
  };
}
