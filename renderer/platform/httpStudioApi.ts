/**
 * StudioApi over loopback HTTP, for the browser host (main/host).
 *
 * Token: the host prints `http://127.0.0.1:PORT/?code=C`, a one-time launch code (2 minutes). Before
 * the studio starts, startHostSession() trades it once for the session token (POST /api/session), keeps
 * the token in sessionStorage (so reloads keep working in this tab) and removes the code from the
 * address bar (history.replaceState keeps any #hash such as #bedroom). Every API request carries the
 * token in the `X-VRMA-Token` header; static files need no token. A custom header also means a
 * cross-origin page cannot send the request without a CORS preflight, which the host never grants.
 *
 * Typed paths outside the home folder or in a system folder come back with code 'CONFIRM': this
 * client asks the user (window.confirm) and calls again confirmed.
 *
 * Calls: POST /api/call/<method> with the arguments array in the wire envelope (shared/contract/wire.ts);
 * the reply is {value} or, with an error status, {error: {code, message}}.
 * File bytes: GET /api/file with the path in `X-VRMA-Path` (URI-encoded), streamed raw.
 * Events: GET /api/events, a text/event-stream read with fetch (EventSource cannot send headers).
 */
import {
  StudioApiError,
  type PlatformInfo,
  type StudioApi,
  type StudioEventName,
  type StudioEvents,
  type StudioInvokeMethod,
  type Unsubscribe,
} from '../../shared/contract/studioApi';
import { decodeWire } from '../../shared/contract/wire';
import { postWireCall, wireFailure, TOKEN_HEADER, type WireCallTarget } from './wireCall';
import { choose } from '../ui/dialog';
import { h } from '../ui/dom';
import { t } from '../../shared/i18n';

export { TOKEN_HEADER };
export const PATH_HEADER = 'X-VRMA-Path';
export const LAUNCH_CODE_HEADER = 'X-VRMA-Launch-Code';
const TOKEN_STORAGE_KEY = 'vrma-studio-token';
/** Set when sessionStorage is disabled: the token then lasts until reload. */
let memoryToken: string | null = null;
/**
 * The answers of the page's first calls (getPlatform, getSettings) that came with the token
 * (main/host/sessionAnswers.ts): each is taken by its first call, so the studio is built one round
 * trip after the session instead of two (issue 30); every later call asks the host.
 */
let sessionAnswers = new Map<string, unknown>();

/**
 * Redeems the launch code in ?code= for the session token (once; the code is then removed from the
 * address bar). Without a code the tab keeps the token it already has. Throws with the host's message
 * (link used or expired, with what to do) when the code is refused and the tab has no token.
 */
export async function startHostSession(baseUrl = ''): Promise<void> {
  const url = new URL(window.location.href);
  const code = url.searchParams.get('code');
  if (!code) return;
  url.searchParams.delete('code');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  const res = await fetch(`${baseUrl}/api/session`, { method: 'POST', headers: { [LAUNCH_CODE_HEADER]: code } });
  if (!res.ok) {
    const error = await wireFailure(res);
    // A reload of a tab that already traded its code keeps working with the token it has.
    if (takeHostToken()) return;
    throw error;
  }
  // The settings can be long (folders, recent files): the wire's own bound, not the token's 4 kB.
  const body = decodeWire(new Uint8Array(await res.arrayBuffer())) as { value: { token: string; answers?: Record<string, unknown> } };
  memoryToken = body.value.token;
  sessionAnswers = new Map(Object.entries(body.value.answers ?? {}));
  try {
    sessionStorage.setItem(TOKEN_STORAGE_KEY, body.value.token);
  } catch {
    /* storage disabled: memoryToken serves until reload */
  }
}

/** The session token of this tab (from startHostSession), or null. */
export function takeHostToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? memoryToken;
  } catch {
    return memoryToken;
  }
}

/**
 * Asks before opening a typed path the host flagged (outside home, system or hidden folder), in the
 * studio's own dialog (renderer/ui/dialog.ts) like every other question; Cancel answers null, as a
 * cancelled native dialog does.
 */
async function withConfirmation<T>(path: string, run: (confirmed: boolean) => Promise<T>): Promise<T | null> {
  try {
    return await run(false);
  } catch (e) {
    if (!(e instanceof StudioApiError && e.code === 'CONFIRM') || typeof document === 'undefined') throw e;
    // The host's reason names the folder it found (English: it comes from main/); the question is the catalogue's.
    const detail = h('p', { class: 'dialog-conflict warning', text: t('pathCheck.detail', { reason: e.message.replace(/\s*Open it anyway\?$/, '') }) });
    const choice = await choose({
      id: 'path-check-dialog',
      title: t('pathCheck.title'),
      text: t('pathCheck.text', { path }),
      body: detail,
      choices: [
        { id: 'cancel', label: t('pathCheck.cancel'), default: true },
        { id: 'open', label: t('pathCheck.open'), danger: true },
      ],
      cancel: 'cancel',
    });
    return choice === 'open' ? run(true) : null;
  }
}

export function createHttpStudioApi(baseUrl = '', token: string | null = takeHostToken()): StudioApi {
  const headers = (): Record<string, string> => {
    if (!token) {
      throw new StudioApiError(
        'DENIED',
        'No access token: open the studio with the link that `npm run web` printed (it ends in ?code=...; press Enter there for a new one).',
      );
    }
    return { [TOKEN_HEADER]: token };
  };

  const failure = wireFailure;
  // Async, so a missing token rejects the call rather than throwing at the caller.
  const call = async <T>(method: StudioInvokeMethod, ...args: unknown[]): Promise<T> => postWireCall<T>({ baseUrl, token: headers()[TOKEN_HEADER] }, method, args);
  // A call without arguments that the session answered already: that answer, once.
  const first = async <T>(method: StudioInvokeMethod): Promise<T> => {
    if (!sessionAnswers.has(method)) return call<T>(method);
    const value = sessionAnswers.get(method) as T;
    sessionAnswers.delete(method);
    return value;
  };

  const events = createEventStream(baseUrl, headers);

  let platform: Promise<PlatformInfo> | null = null;
  const api: StudioApi = {
    // What the host runs on does not change within a session: asked once (the test-hook check and the studio both read it at start).
    getPlatform: () => (platform ??= first<PlatformInfo>('getPlatform').catch((e: unknown) => {
      platform = null;
      throw e;
    })),
    openFolder: (
      path,
      options,
    ) => (path === undefined || options ? call('openFolder', path, options) : withConfirmation(path, (confirmed) => call('openFolder', path, confirmed ? { confirmed } : undefined))),
    closeFolder: (root) => call('closeFolder', root),
    listLibrary: () => call('listLibrary'),
    describeFile: (path) => call('describeFile', path),
    onLibraryChanged: (cb) => events.on('libraryChanged', cb),
    openFile: (
      path,
      options,
    ) => (path === undefined || options ? call('openFile', path, options) : withConfirmation(path, (confirmed) => call('openFile', path, confirmed ? { confirmed } : undefined))),
    readFile: async (path) => {
      const res = await fetch(`${baseUrl}/api/file`, { headers: { ...headers(), [PATH_HEADER]: encodeURIComponent(path) } });
      if (!res.ok) throw await failure(res);
      return new Uint8Array(await res.arrayBuffer());
    },
    findMmdModel: (motionPath) => call('findMmdModel', motionPath),
    openDropped: (path) => call('openDropped', path),
    pathForFile: () => null,
    saveFile: (req) => call('saveFile', req),
    putPiece: async (piece) => void (await postWireCall({ baseUrl, token: headers()[TOKEN_HEADER] }, 'putPiece', [piece])),
    saveFileAs: (req) => call('saveFileAs', req),
    exportMotion: (req) => call('exportMotion', req),
    convertFolder: (req) => call('convertFolder', req),
    onConvertProgress: (cb) => events.on('convertProgress', cb),
    listRecent: () => call('listRecent'),
    clearRecent: () => call('clearRecent'),
    autosave: (session) => call('autosave', session),
    clearAutosave: () => call('clearAutosave'),
    checkRecovery: () => call('checkRecovery'),
    getSettings: () => first('getSettings'),
    setSettings: (patch) => call('setSettings', patch),
    setCommands: (commands) => call('setCommands', commands),
    onCommand: (cb) => events.on('command', cb),
    setDocumentState: (state) => call('setDocumentState', state),
    takeLaunchRequests: () => call('takeLaunchRequests'),
    onOpenRequest: (cb) => events.on('openRequest', cb),
    onCloseRequest: (cb) => events.on('closeRequest', cb),
    answerClose: (id, answer) => call('answerClose', id, answer),
  };
  // Absolute, so a worker (whose own URL is under /assets/) reaches the same host.
  const absoluteBase = absoluteUrl(baseUrl || '/');
  if (token && absoluteBase) callTargets.set(api, { baseUrl: absoluteBase.replace(/\/$/, ''), token });
  return api;
}

const callTargets = new WeakMap<StudioApi, WireCallTarget>();

function absoluteUrl(url: string): string | null {
  try {
    return new URL(url, typeof location === 'undefined' ? undefined : location.href).href;
  } catch {
    return null;
  }
}

/**
 * Where an HTTP StudioApi sends its calls, so a worker can make one itself (the autosave upload);
 * null for any other StudioApi (the Electron preload's) or one without a token.
 */
export function httpCallTarget(api: StudioApi): WireCallTarget | null {
  return callTargets.get(api) ?? null;
}

type Listener = (payload: never) => void;

/** One shared event stream, opened with the first subscriber and closed with the last. */
function createEventStream(baseUrl: string, headers: () => Record<string, string>) {
  const listeners = new Map<StudioEventName, Set<Listener>>();
  let abort: AbortController | null = null;

  const count = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);

  function dispatch(name: string, data: string) {
    const set = listeners.get(name as StudioEventName);
    if (!set) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    for (const l of [...set]) {
      try {
        (l as (p: unknown) => void)(payload);
      } catch (e) {
        console.error(`studio event ${name} listener failed`, e);
      }
    }
  }

  async function run(ctrl: AbortController) {
    while (!ctrl.signal.aborted) {
      try {
        const res = await fetch(`${baseUrl}/api/events`, { headers: headers(), signal: ctrl.signal });
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let name = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) name = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length) dispatch(name, data.join('\n'));
          }
        }
      } catch {
        if (ctrl.signal.aborted) return;
      }
      // The host went away (or restarted): retry calmly.
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  return {
    on<K extends StudioEventName>(name: K, cb: (payload: StudioEvents[K]) => void): Unsubscribe {
      let set = listeners.get(name);
      if (!set) listeners.set(name, set = new Set());
      const l = cb as Listener;
      set.add(l);
      if (!abort) {
        abort = new AbortController();
        void run(abort);
      }
      return () => {
        set!.delete(l);
        if (count() === 0 && abort) {
          abort.abort();
          abort = null;
        }
      };
    },
  };
}
