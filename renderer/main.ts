/**
 * The studio's entry point: builds the layout, starts the viewport with the generated mannequin
 * walking, and wires files, commands, shortcuts, the desktop menu and the Bedroom scene.
 */
import './styles.css';
import { startStudio } from './app/startStudio';
import { t } from '../shared/i18n';
import { startHostSession } from './platform/httpStudioApi';

// Browser host: trade the one-time launch code for this tab's session token first (no-op in Electron).
(window.studio ? Promise.resolve() : startHostSession()).then(() => startStudio(document.getElementById('app') ?? document.body)).catch((e: unknown) => {
  // Never a blank screen: whatever broke is written where the studio would be.
  const box = document.createElement('pre');
  box.className = 'fatal';
  box.setAttribute('role', 'alert');
  box.textContent = t('studio.couldNotStart', { detail: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
  document.body.append(box);
  console.error(e);
});
