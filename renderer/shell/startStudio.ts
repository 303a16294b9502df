/** Builds the studio in `root` and resolves once the first frame with the avatar is drawn. */
// Plugs the video capture into the studio's Open (loaded with the first video, not with the page).
import '../capture/installCapture';
import type { StudioApi } from '../../shared/contract/studioApi';
import { getStudioApi, isElectron } from '../platform/studioApi';
import { buildMotion } from '../../shared/vrma/buildMotion';
import { Viewport } from '../viewport/viewport';
import { Studio } from '../app/studio';
import { registerStudioCommands } from './studioCommands';
import { bindShortcuts } from './shortcuts';
import { mannequinBytes, walkCycleMotion } from '../app/core';
import { PoseEditor } from '../pose/poseEditor';
import { applyDrag, poseDeltaFor } from '../pose/applyDrag';
import { IkHandles } from '../pose/ikHandles';
import { applyIk } from '../pose/applyIk';
import { createTimeline } from '../timeline/timelinePanel';
import { createDopeSheet } from '../timeline/dopeSheetPanel';
import { createCurveView } from '../timeline/curveViewPanel';
import { createEditPanel } from '../panels/editPanel';
import { createCaptureControls } from '../panels/captureControls';
import { createInfoPanel } from '../panels/infoPanel';
import { createExpressionPanel } from '../panels/expressionPanel';
import { LookAtTarget } from '../viewport/lookAtTarget';
import { setLookAtKey } from '../../shared/edits/lookAtKeys';
import { frameOf } from '../app/frames';
import { createLibraryPanel } from '../panels/libraryPanel';
import { createTransportBar } from '../panels/transportBar';
import { commandButton } from '../panels/commandButton';
import { createSceneSwitcher } from './sceneSwitcher';
import { bindFileDrop } from './fileDrop';
import { testHookEnabled } from '../platform/testHookEnabled';
import { syncDesktop } from './desktopSync';
import { attachDesktopSession } from '../platform/desktopSession';
import { BUILTIN_AVATAR_NAME } from '../app/builtinAvatar';
import { answerCloseRequests } from './closeRequests';
import { createDocumentActions } from './documentActions';
import { createDocumentPanels } from '../panels/documentPanels';
import { createRecentProjects } from '../platform/recentProjects';
import { h } from '../ui/dom';
import { errorText } from '../ui/messages';
import { t, onLocaleChange, formatNumber } from '../../shared/i18n';
import { LanguageChoice } from '../app/language';
import { SettingsClient } from '../app/settings';
import { createLanguageControl, registerLanguageCommands } from './languageControl';
import { createShortcutsOverlay } from './shortcutsOverlay';
import { openQuestions } from '../panels/openQuestions';
import { createOnionSkin } from '../viewport/onionSkinControls';
import { createNoticeHistory } from '../ui/noticeHistory';
import { placeNotices } from '../ui/noticePlacement';
import { createSplitters } from './splitters';

export async function startStudio(root: HTMLElement): Promise<Studio> {
  const startedAt = performance.now();
  // The test hook's chunk is fetched only when the host says it runs for tests (VRMA_STUDIO_TEST_HOOK=1),
  // in parallel with the start-up below; it is installed before the first frame is drawn.
  const testHookModule = testHookEnabled()
    .then((on) => (on ? import('./testHook') : null))
    .catch((e: unknown) => {
      console.warn('test hook:', e);
      return null;
    });
  let api: StudioApi | null = null;
  try {
    api = getStudioApi();
  } catch {
    // No Electron bridge and no host to talk to: the studio still works on files opened in the page.
  }
  // The language is settled before anything is built, so the first frame is already in it.
  const settings = new SettingsClient(api), language = new LanguageChoice(settings);
  await language.load();
  const viewportBox = h('div', { class: 'viewport', id: 'viewport' });
  const viewport = new Viewport(viewportBox);

  const walk = (await walkCycleMotion().catch(() => null)) ?? buildMotion({ rotations: {}, generator: 'VRMA Studio rest pose' });
  const studio = new Studio(viewport, api, walk, 'walk', settings);
  const shortcuts = createShortcutsOverlay(studio.commands);
  // Native dialogs (Electron) give the file's path, so saves can land beside it; the browser uses the file input.
  const platform = api ? api.getPlatform().catch(() => null) : Promise.resolve(null);
  let nativeDialogs = false;
  void platform.then((info) => (nativeDialogs = !!info?.nativeDialogs));
  const documentActions = createDocumentActions(studio, platform);
  studio.leaveGuard = () => documentActions.confirmLeave();
  studio.questions = openQuestions;
  // The Electron window closing (or the app quitting) with unsaved edits: main asks, this dialog answers.
  if (api) answerCloseRequests(api, () => documentActions.confirmLeave('close'));
  // Reload or close with unsaved edits: the browser asks. Not in Electron: there main asks this page on
  // close (answerCloseRequests above), and a prevented unload would keep the window open after the user chose.
  if (!isElectron())
    window.addEventListener('beforeunload', (e) => {
      if (!studio.doc.dirty) return;
      e.preventDefault();
      e.returnValue = '';
    });

  let timelineFit = () => {};
  registerStudioCommands(studio, {
    openFile: () => void openFileCommand(),
    save: async () => void (await documentActions.save()),
    saveAs: async () => void (await documentActions.saveAs()),
    exportCopy: async () => void (await documentActions.exportCopy()),
    exportAs: async (format) => void (await documentActions.exportAs(format)),
    fitTimeline: () => timelineFit(),
  });
  studio.commands.register({ id: 'help.shortcuts', label: 'Keyboard Shortcuts', description: 'Show every keyboard shortcut', shortcuts: ['?', 'F1'], menu: 'help', run: () => shortcuts.toggle() });
  registerLanguageCommands(studio.commands, language);

  const poseEditor = new PoseEditor(viewport, {
    select: (bone) => studio.select(bone),
    setDragging: (d) => {
      studio.dragging = d;
      if (d) studio.setPlaying(false);
      else studio.preview?.invalidate();
    },
    commitDrag: (drag) => {
      if (!studio.avatar) return;
      try {
        const req = poseDeltaFor(drag, studio.avatar, studio.clock.time, studio.falloff);
        studio.commit(
          applyDrag(studio.motion, req),
          drag.kind === 'rotate' ? t('studio.pose.rotate', { bone: drag.bone }) : t('studio.pose.moveHips'),
          () => (drag.kind === 'rotate' ? t('studio.pose.rotated', { bone: drag.bone }) : t('studio.pose.movedHips')),
        );
      } catch (e) {
        studio.messages.error(() => t('studio.pose.failed', { detail: errorText(e) }));
      }
      // The dragged node shows the mixer's pose again (the edited one, or the old one after a failure).
      studio.seek(studio.clock.time);
    },
  });
  studio.events.on('selection', (bone) => poseEditor.attach(bone));
  studio.events.on('avatar', (a) => poseEditor.setAvatar(a));

  // IK handles on the hands, feet and hips: a drag solves the limb and is one edit (issue 17).
  const ikHandles = new IkHandles(viewport, {
    setDragging: (d) => {
      studio.dragging = d;
      if (d) studio.setPlaying(false);
      else studio.preview?.invalidate();
    },
    commitIk: (effector, target) => {
      if (!studio.avatar) return;
      try {
        studio.commit(applyIk(studio.motion, studio.avatar, effector, target, studio.clock.time, studio.falloff), t('ik.drag', { bone: effector }), () => t('ik.dragged', { bone: effector }));
      } catch (e) {
        studio.messages.error(() => t('ik.failed', { detail: errorText(e) }));
      }
      studio.seek(studio.clock.time);
    },
  });
  studio.events.on('avatar', (a) => ikHandles.setAvatar(a));

  // Expressions and the gaze (issue 13): weight sliders in the right column, a gaze target in the viewport.
  const expressionPanel = createExpressionPanel(studio);
  const lookAtTarget = new LookAtTarget(viewport, {
    setDragging: (d) => {
      studio.dragging = d;
      if (d) studio.setPlaying(false);
      else studio.preview?.invalidate();
    },
    live: (gaze) => expressionPanel.showLiveGaze(gaze),
    commitGaze: (gaze) => {
      try {
        const frame = frameOf(studio.keyTime, studio.fps);
        const [yaw, pitch] = [gaze.yaw, gaze.pitch].map((v) => formatNumber(v, 1, 1));
        studio.commit(setLookAtKey(studio.motion, studio.keyTime, gaze.yaw, gaze.pitch), t('expressions.gaze.undoLabel'), () => t('expressions.gaze.keyed', { yaw, pitch, frame }));
      } catch (e) {
        studio.messages.error(() => t('expressions.gaze.failed', { detail: errorText(e) }));
      }
      studio.seek(studio.clock.time);
    },
  });
  studio.events.on('avatar', (a) => lookAtTarget.setAvatar(a));

  const timeline = createTimeline(studio);
  const dopeSheet = createDopeSheet(studio);
  const curveView = createCurveView(studio, dopeSheet);
  // H: hide the bone markers for a clean preview (issue 13).
  studio.commands.register({
    id: 'view.toggleBoneMarkers',
    label: 'Show bone markers',
    description: 'Show or hide the bone markers for a clean preview',
    shortcuts: ['H'],
    menu: 'view',
    isChecked: () => poseEditor.markersVisible,
    run: () => {
      poseEditor.setMarkersVisible(!poseEditor.markersVisible);
      lookAtTarget.setVisible(poseEditor.markersVisible);
    },
  });
  timelineFit = () => timeline.view.fit();
  // Onion skin (issue 13): ghosts at -N/+N frames, its controls in the transport bar.
  const onionSkin = createOnionSkin(studio);
  const loadMannequin = async () => {
    const bytes = await mannequinBytes('1.0');
    if (!bytes) {
      studio.messages.error(() => t('studio.mannequin.unavailable'));
      return;
    }
    await studio.setAvatar(bytes, BUILTIN_AVATAR_NAME);
  };
  const library = createLibraryPanel(studio, () => void loadMannequin());

  const openFileCommand = async () => {
    // Decided synchronously: a file input may only be opened within the user's click.
    if (!api || !nativeDialogs) {
      library.fileInput.click();
      return;
    }
    try {
      const file = await api.openFile();
      if (file) await studio.openFile(file.name, file.bytes, file.path);
    } catch (e) {
      studio.messages.error(() => t('studio.open.failed', { detail: errorText(e) }));
    }
  };

  const documentPanels = createDocumentPanels(studio);
  const noticeHistory = createNoticeHistory(studio.messages);
  const header = h(
    'header',
    { class: 'topbar' },
    h('h1', { text: 'VRMA Studio' }),
    h('span', { class: 'doc-title', id: 'doc-title' }),
    h('span', { class: 'spacer' }),
    commandButton(studio, 'edit.undo', { icon: '↶' }),
    commandButton(studio, 'edit.redo', { icon: '↷' }),
    ...documentPanels.buttons,
    noticeHistory.button,
    commandButton(studio, 'view.frame', { icon: '◎' }),
    createLanguageControl(language),
    commandButton(studio, 'help.shortcuts', { icon: '?' }),
  );
  const studioView = h(
    'div',
    { class: 'studio', id: 'studio-view' },
    h('aside', { class: 'left' }, library.element),
    // The onion skin's controls in the viewport's corner: the transport bar keeps its labels at 1024 px.
    h('main', { class: 'center' }, viewportBox, onionSkin.element),
    // The motion info strip first and always in view; the edit sections scroll below it.
    h('aside', { class: 'right' }, createInfoPanel(studio), expressionPanel.element, createEditPanel(studio), createCaptureControls(studio)),
    h('footer', { class: 'bottom' }, createTransportBar(studio), timeline.element, dopeSheet.element, curveView.element),
  );
  // Splitters: the library and edit columns and the dope sheet's height, kept in the settings.
  const sizeOf = (sel: string) => () => studioView.querySelector<HTMLElement>(sel)?.getBoundingClientRect().height ?? 0;
  const splitters = createSplitters(
    studioView,
    {
      left: () => studioView.querySelector('.left')!.getBoundingClientRect().width,
      right: () => studioView.querySelector('.right')!.getBoundingClientRect().width,
      dopeSheet: () => Math.max(sizeOf('.dope-sheet')(), sizeOf('.curve-view')()),
    },
    studio.settings,
  );
  studioView.querySelector('.center')!.append(splitters.elements.left, splitters.elements.right);
  studioView.querySelector('.bottom')!.prepend(splitters.elements.dopeSheet);
  void studio.settings.ready().then((s) => splitters.apply(s.panels));
  const bedroomView = h('div', { class: 'bedroom-view', id: 'bedroom-view', hidden: true });
  const switcher = createSceneSwitcher(studio, studioView, bedroomView);
  header.insertBefore(switcher.element, header.children[2]);
  root.replaceChildren(header, ...documentPanels.panels, noticeHistory.panel, studioView, bedroomView, studio.messages.element, shortcuts.element);
  placeNotices(studio.messages.element, [viewportBox.parentElement!, bedroomView]);

  const docTitle = header.querySelector('#doc-title')!;
  const updateTitle = () => {
    const name = `${studio.dirty ? '● ' : ''}${studio.doc.fileLabel}`;
    docTitle.textContent = name;
    document.title = t('studio.title', { name });
  };
  studio.events.on('document', updateTitle);
  onLocaleChange(updateTitle);
  updateTitle();

  bindShortcuts(studio.commands, window, () => !switcher.isBedroom());
  bindFileDrop(studio, window);
  syncDesktop(studio);

  try {
    await loadMannequin();
  } catch (e) {
    studio.messages.error(() => t('studio.mannequin.failed', { detail: errorText(e) }));
  }
  studio.setPlaying(studio.duration > 0);
  const hook = await testHookModule;
  hook?.installTestHook(studio, { poseEditor, ikHandles, lookAtTarget, contactStrip: timeline.contacts, timeline: timeline.view, startedAt, onionSkin: onionSkin.onion });
  // The dope sheet's key geometry for e2e tests and the bench (only with the test hook).
  if (hook) (window as unknown as { __dopeSheet?: unknown }).__dopeSheet = dopeSheet;
  if (hook) (window as unknown as { __curveView?: unknown }).__curveView = curveView;
  viewport.start();
  requestAnimationFrame(() => setTimeout(() => poseEditor.warmUp(), 200));
  // Autosave, crash recovery and OS/command-line open requests (after the start-up document is in place).
  if (api) {
    attachDesktopSession(studio, {
      // The autosave is written and uploaded in a worker, so the page keeps drawing; a burst of edits
      // while one is on its way goes out as one more (desktopSession.ts), and main's one debouncer
      // bounds what a crash can lose to about a second (main/services/autosave.ts).
      loadBuiltinAvatar: loadMannequin,
    });
    library.element.querySelector('.button-column')?.append(...['file.convertFolder'].filter((id) => studio.commands.get(id)).map((id) => commandButton(studio, id)));
    const recent = createRecentProjects(api, {
      onFolderOpened: () => {},
      onFileOpened: async (f) => void (await studio.openFile(f.name, f.bytes, f.path)),
      onError: (m) => studio.messages.error(m),
    });
    library.element.append(recent.element);
    // Opening a folder makes it recent: its first change event (the whole listing) is the cue. Later
    // changes inside known folders say nothing about the recent list, so it is not read again for them.
    const knownRoots = new Set<string>();
    api.onLibraryChanged((change) => {
      if (knownRoots.has(change.root)) return;
      knownRoots.add(change.root);
      void recent.refresh();
    });
  }
  await switcher.ready;
  return studio;
}
