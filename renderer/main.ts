/**
 * The studio's entry point: builds the layout, starts the viewport with the generated mannequin
 * walking, and wires files, commands, shortcuts, the desktop menu and the Bedroom scene.
 */
import './styles.css';
import { t } from '../shared/i18n';
import { startHostSession, takeHostToken } from './platform/httpStudioApi';
import { startCalls } from './platform/startCalls';
import { showNoAccessPage } from './shell/noAccessPage';
import { testHookModule } from './shell/testHookModule';

const root = document.getElementById('app') ?? document.body;
// The studio's code (most of the page's script) is fetched and compiled while the host answers the
// session, settings and platform calls below, instead of after them (issue 30: the first frame).
const studioModule = import('./shell/startStudio');
// As soon as it has loaded: the viewport, walk cycle and mannequin, which need no answer from the host.
const prelude = studioModule.then((m) => m.prepareStudio());
prelude.catch(() => undefined); // reported below, once the session is there (or not at all on the no-access page)

/** Browser host: trade the one-time launch code for this tab's session token (no-op in Electron). */
async function session(): Promise<boolean> {
  if (window.studio) return true;
  try {
    await startHostSession();
  } catch (e) {
    // The code was used or expired: say how to get a working address, with the host's own words.
    showNoAccessPage(root, e instanceof Error ? e.message : String(e));
    return false;
  }
  if (takeHostToken()) return true;
  // No code and no token (an address typed without its ?code=): explain instead of a half-working studio.
  showNoAccessPage(root);
  return false;
}

session().then(async (ok) => {
  if (!ok) return undefined;
  const early = startCalls();
  // Only with VRMA_STUDIO_TEST_HOOK=1: its chunk loads beside the studio's, not after it.
  void testHookModule();
  return (await studioModule).startStudio(root, early, await prelude);
}).catch((e: unknown) => {
  // Never a blank screen: whatever broke is written where the studio would be.
  const box = document.createElement('pre');
  box.className = 'fatal';
  box.setAttribute('role', 'alert');
  box.textContent = t('studio.couldNotStart', { detail: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
  document.body.append(box);
  console.error(e);
});
