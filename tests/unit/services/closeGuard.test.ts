/**
 * Closing with unsaved changes (issue 11, main/services/closeGuard.ts): main asks the page, the page's
 * answer decides, a page that does not answer in time hands over to main's own dialog. Timers are
 * vitest's fake timers; the "page" and the "native dialog" are plain callbacks recording what they saw.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CloseGuard, CLOSE_ACK_TIMEOUT_MS, type CloseDecision, type CloseRequest } from '../../../main/services/closeGuard';
import { StudioBackend } from '../../../main/services/backend';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function setup(fallbackAnswer: CloseDecision = 'close') {
  const asked: CloseRequest[] = [];
  let fallbacks = 0;
  const guard = new CloseGuard({
    ask: (req) => asked.push(req),
    fallback: async () => {
      fallbacks++;
      return fallbackAnswer;
    },
  });
  return { guard, asked, fallbacks: () => fallbacks };
}

/** Settles a promise's state without waiting: 'pending' when it has not resolved after the microtasks ran. */
async function state<T>(p: Promise<T>): Promise<T | 'pending'> {
  const marker = Symbol('pending');
  const r = await Promise.race([p, Promise.resolve().then(() => Promise.resolve(marker))]);
  return r === marker ? 'pending' : (r as T);
}

describe('CloseGuard', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a clean document closes at once, without asking the page', async () => {
    const { guard, asked, fallbacks } = setup();
    await expect(guard.request(false)).resolves.toBe('close');
    expect(asked).toEqual([]);
    expect(fallbacks()).toBe(0);
  });

  it.each(
    [
      ['close', 'close'], // Save (after the save) or Don't save
      ['cancel', 'cancel'],
    ] as const,
  )('dirty: the page shows its dialog, answers %s -> main %s, however long the user takes', async (answer, decision) => {
    const { guard, asked, fallbacks } = setup();
    const p = guard.request(true);
    expect(asked).toHaveLength(1);
    expect(guard.answer(asked[0].id, 'shown')).toBe(true);
    // The user thinks for a minute: the dialog is up, so no fallback.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await state(p)).toBe('pending');
    expect(guard.answer(asked[0].id, answer)).toBe(true);
    await expect(p).resolves.toBe(decision);
    expect(fallbacks()).toBe(0);
    expect(guard.asking).toBe(false);
  });

  it("no answer from the page within the timeout -> main's own dialog decides; a late answer is ignored", async () => {
    const { guard, asked, fallbacks } = setup('cancel');
    const p = guard.request(true);
    await vi.advanceTimersByTimeAsync(CLOSE_ACK_TIMEOUT_MS - 1);
    expect(await state(p)).toBe('pending');
    expect(fallbacks()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toBe('cancel');
    expect(fallbacks()).toBe(1);
    expect(guard.answer(asked[0].id, 'close')).toBe(false);
  });

  it('an answer naming another request is ignored; a second close while asking waits for the same decision', async () => {
    const { guard, asked } = setup();
    const a = guard.request(true);
    const b = guard.request(true);
    expect(asked).toHaveLength(1);
    expect(guard.answer(asked[0].id + 1, 'close')).toBe(false);
    expect(await state(a)).toBe('pending');
    guard.answer(asked[0].id, 'close');
    await expect(a).resolves.toBe('close');
    await expect(b).resolves.toBe('close');
    // The next close asks again, with a new id.
    void guard.request(true);
    expect(asked).toHaveLength(2);
    expect(asked[1].id).not.toBe(asked[0].id);
  });
});

describe('StudioBackend close request (the contract path: closeRequest event, answerClose call)', () => {
  it('emits closeRequest and settles on answerClose; without a fallback an unanswered close keeps the window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-close-'));
    const backend = new StudioBackend({ host: 'browser', userDataDir: dir, appVersion: '0', closeAckTimeoutMs: 50 });
    try {
      const seen: CloseRequest[] = [];
      backend.on('closeRequest', (r) => seen.push(r));
      const p = backend.closeGuard.request(true);
      expect(seen).toHaveLength(1);
      await backend.invoke('answerClose', [seen[0].id, 'shown']);
      await backend.invoke('answerClose', [seen[0].id, 'close']);
      await expect(p).resolves.toBe('close');
      await expect(backend.invoke('answerClose', [seen[0].id, 'maybe'])).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
      await expect(backend.closeGuard.request(true)).resolves.toBe('cancel'); // nobody answers in 50 ms
    } finally {
      await backend.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
