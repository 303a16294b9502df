/**
 * The studio's page: the top bar (scene switch, undo/redo, the document panels' buttons, notices,
 * frame, language, help), the three columns and the bottom strip with their splitters, the bedroom's
 * place, the notices' placement and the window title (the document's name, ● while unsaved).
 */
import type { Studio } from '../app/studio';
import type { LanguageChoice } from '../app/language';
import { h } from '../ui/dom';
import { createNoticeHistory } from '../ui/noticeHistory';
import { placeNotices } from '../ui/noticePlacement';
import { t, onLocaleChange } from '../../shared/i18n';
import { commandButton } from '../panels/commandButton';
import { createDocumentPanels } from '../panels/documentPanels';
import { createInfoPanel } from '../panels/infoPanel';
import { createEditPanel } from '../panels/editPanel';
import { createCaptureControls } from '../panels/captureControls';
import { createTransportBar } from '../panels/transportBar';
import { createLanguageControl } from './languageControl';
import { createSceneSwitcher } from './sceneSwitcher';
import { createSplitters } from './splitters';
import type { ShortcutsOverlay } from './shortcutsOverlay';
import type { Viewport } from '../viewport/viewport';

/** The parts built before the page (each view made by its own module). */
export interface PageParts {
  readonly language: LanguageChoice;
  readonly shortcuts: ShortcutsOverlay;
  readonly viewport: Viewport;
  readonly viewportBox: HTMLElement;
  readonly library: HTMLElement;
  readonly onionSkin: { readonly element: HTMLElement };
  readonly expressionPanel: { readonly element: HTMLElement };
  readonly timeline: { readonly element: HTMLElement };
  readonly dopeSheet: { readonly element: HTMLElement };
  readonly curveView: { readonly element: HTMLElement };
}

export function buildStudioPage(
  root: HTMLElement,
  studio: Studio,
  { language, shortcuts, viewport, viewportBox, library, onionSkin, expressionPanel, timeline, dopeSheet, curveView }: PageParts,
): ReturnType<typeof createSceneSwitcher> {
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
    h('aside', { class: 'left' }, library),
    // The onion skin's controls in the viewport's corner: the transport bar keeps its labels at 1024 px.
    h('main', { class: 'center' }, viewportBox, onionSkin.element),
    // The motion info strip first and always in view; the edit sections scroll below it.
    h('aside', { class: 'right' }, createInfoPanel(studio), expressionPanel.element, withCapture(createEditPanel(studio), createCaptureControls(studio))),
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
  const switcher = createSceneSwitcher(studio, viewport, studioView, bedroomView);
  header.insertBefore(switcher.element, header.children[2]);
  root.replaceChildren(header, ...documentPanels.panels, noticeHistory.panel, studioView, bedroomView, studio.messages.element, shortcuts.element);
  placeNotices(studio.messages.element, [viewportBox.parentElement!, bedroomView]);

  const docTitle = header.querySelector('#doc-title')!;
  const updateTitle = () => {
    const name = `${studio.dirty ? '● ' : ''}${studio.doc.fileLabel}`;
    // Written only when they change: an edit announces the document twice, and setting the page's
    // title costs even when it is the same (3.9 ms of a drag end in one profile under load).
    if (docTitle.textContent !== name) docTitle.textContent = name;
    const title = t('studio.title', { name });
    if (document.title !== title) document.title = title;
  };
  studio.events.on('document', updateTitle);
  onLocaleChange(updateTitle);
  updateTitle();
  return switcher;
}

/** The capture controls scroll with the edit sections (the right column's fixed parts leave no room at 1024×640). */
function withCapture(editPanel: HTMLElement, capture: HTMLElement): HTMLElement {
  editPanel.append(capture);
  return editPanel;
}
