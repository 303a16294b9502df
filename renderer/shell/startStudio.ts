/** Builds the studio in `root` and resolves once the first frame with the avatar is drawn. */
// Plugs the video capture into the studio's Open (loaded with the first video, not with the page).
import '../capture/installCapture';
import { isElectron } from '../platform/studioApi';
import { buildMotion } from '../../shared/vrma/buildMotion';
import { Studio } from '../app/studio';
import { registerStudioCommands } from './studioCommands';
import { bindShortcuts } from './shortcuts';
import { mannequinBytes } from '../app/core';
import { createTimeline } from '../timeline/timelinePanel';
import { createDopeSheet } from '../timeline/dopeSheetPanel';
import { createCurveView } from '../timeline/curveViewPanel';
import { createExpressionPanel } from '../panels/expressionPanel';
import { buildStudioPage } from './studioPage';
import { startDesktop } from './desktopStart';
import { createViewportTools, registerMarkersCommand } from './viewportTools';
import { createAutoKey } from './autoKeyCommand';
import { createLibraryPanel } from '../panels/libraryPanel';
import { bindFileDrop } from './fileDrop';
import { testHookModule } from './testHookModule';
import { watchFirstAvatarFrame } from './firstAvatarFrame';
import { startCalls, type StartCalls } from '../platform/startCalls';
import { syncDesktop } from './desktopSync';
import { BUILTIN_AVATAR_NAME } from '../app/builtinAvatar';
import { answerCloseRequests } from './closeRequests';
import { createDocumentActions } from './documentActions';
import { errorText } from '../ui/messages';
import { t } from '../../shared/i18n';
import { LanguageChoice } from '../app/language';
import { registerLanguageCommands } from './languageControl';
import { createShortcutsOverlay } from './shortcutsOverlay';
import { openQuestions } from '../panels/openQuestions';
import { createOnionSkin } from '../viewport/onionSkinControls';
import { markSceneReady } from '../ui/sceneReady';
import { prepareStudio, type StudioPrelude } from './studioPrelude';
import { relocalize } from '../ui/i18n';

export { prepareStudio };

/**
 * `early`: the StudioApi and the settings client renderer/main.ts made (and started reading) before this code had loaded;
 * `prelude`: the viewport, walk cycle and mannequin it started as soon as this code had loaded (studioPrelude.ts).
 */
export async function startStudio(root: HTMLElement, early: StartCalls = startCalls(), prelude: StudioPrelude = prepareStudio()): Promise<Studio> {
  const startedAt = performance.now();
  // The test hook's chunk, fetched only when the host says it runs for tests (VRMA_STUDIO_TEST_HOOK=1),
  // since the session's first calls (testHookModule.ts); the first frame does not wait for it.
  const testHook = testHookModule();
  const { api, settings } = early;
  // The language is settled before anything is built, so the first frame is already in it.
  const language = new LanguageChoice(settings);
  await language.load();
  const { viewportBox, viewport } = prelude;
  const walk = (await prelude.walk) ?? buildMotion({ rotations: {}, generator: 'VRMA Studio rest pose' });
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

  // Pose edits (the viewport's drags, the expression sliders, typed gaze) key through auto-key.
  const autoKey = createAutoKey(studio);
  studio.drag.keyWith(autoKey);
  // Expressions and the gaze (issue 13): weight sliders in the right column, a gaze target in the viewport.
  const expressionPanel = createExpressionPanel(studio, autoKey);
  const tools = createViewportTools(studio, viewport, expressionPanel);
  const { poseEditor, ikHandles, lookAtTarget } = tools;
  const timeline = createTimeline(studio);
  const dopeSheet = createDopeSheet(studio, autoKey);
  const curveView = createCurveView(studio, dopeSheet);
  registerMarkersCommand(studio, tools);
  timelineFit = () => timeline.view.fit();
  // Onion skin (issue 13): ghosts at -N/+N frames, its controls in the transport bar.
  const onionSkin = createOnionSkin(studio, viewport);
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

  const switcher = buildStudioPage(root, studio, { language, shortcuts, viewport, viewportBox, library: library.element, onionSkin, expressionPanel, timeline, dopeSheet, curveView });
  // The prelude made the viewport (its canvas's label) before the settings named the language, and it
  // joins the page after installPageLocale's first pass: its labels are rendered again in the page's language.
  relocalize(viewportBox);

  bindShortcuts(studio.commands, window, () => !switcher.isBedroom());
  bindFileDrop(studio, window);
  syncDesktop(studio);

  try {
    // The start-up mannequin is the one the prelude read (its programs already compiling); the library's button makes a new one.
    const mannequin = await prelude.mannequin;
    if (mannequin) studio.placeAvatar(mannequin);
    else studio.messages.error(() => t('studio.mannequin.unavailable'));
  } catch (e) {
    studio.messages.error(() => t('studio.mannequin.failed', { detail: errorText(e) }));
  }
  studio.setPlaying(studio.duration > 0);
  const firstAvatarFrameAt = watchFirstAvatarFrame(studio);
  // Drawn in the page's next frame, with it: waiting for the test hook's chunk here (tests only) had
  // made the first frame miss it and wait for the GPU process to raster the page first (issue 30).
  viewport.start();
  const hook = await testHook;
  hook?.installTestHook(studio, { viewport, poseEditor, ikHandles, lookAtTarget, contactStrip: timeline.contacts, timeline: timeline.view, startedAt, firstAvatarFrameAt, onionSkin: onionSkin.onion });
  // The dope sheet's key geometry for e2e tests and the bench (only with the test hook).
  if (hook) (window as unknown as { __dopeSheet?: unknown }).__dopeSheet = dopeSheet;
  if (hook) (window as unknown as { __curveView?: unknown }).__curveView = curveView;
  requestAnimationFrame(() => setTimeout(() => poseEditor.warmUp(), 200));
  // Autosave, crash recovery, recent projects and OS/command-line open requests (after the start-up document is in place).
  if (api) startDesktop(studio, api, library.element, loadMannequin);
  await switcher.ready;
  markSceneReady('studio');
  return studio;
}
