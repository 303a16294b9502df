/**
 * One-time launch codes for the browser host (issue 16, finding 5). The URL the host prints and
 * hands to the browser carries a launch code, never the session token: the page exchanges it once
 * (POST /api/session) for the token, which then lives only in that tab's sessionStorage and in
 * request headers. A code works once and for LAUNCH_CODE_TTL_MS; a second use, an expired code or a
 * forged one is refused.
 *
 * A code is `expiry.nonce.mac` with mac = HMAC-SHA256(token, "launch:expiry.nonce"): whoever holds
 * the session token may mint codes (that grants nothing the token does not), so a test helper or an
 * open studio tab can make a fresh link without a round trip, and the host keeps no list of issued
 * codes, only of the used ones until they expire.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const LAUNCH_CODE_TTL_MS = 2 * 60_000;
const CODE_PATTERN = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{22})$/;

function mac(token: string, body: string): string {
  return createHmac('sha256', token).update(`launch:${body}`).digest('base64url').slice(0, 22);
}

/** A fresh code for `token`, valid until now + ttl. */
export function mintLaunchCode(token: string, now = Date.now(), ttlMs = LAUNCH_CODE_TTL_MS): string {
  const body = `${(now + ttlMs).toString(36)}.${randomBytes(9).toString('base64url')}`;
  return `${body}.${mac(token, body)}`;
}

export type LaunchCodeVerdict = 'ok' | 'malformed' | 'forged' | 'expired' | 'used';

/** Remembers used codes until they expire, so each works exactly once. */
export class LaunchCodes {
  private readonly used = new Map<string, number>();

  constructor(
    private readonly token: string,
    private readonly clock: () => number = Date.now,
  ) {}

  mint(): string {
    return mintLaunchCode(this.token, this.clock());
  }

  /** Checks `code` and, when it is good, spends it. */
  redeem(code: string): LaunchCodeVerdict {
    const now = this.clock();
    for (const [c, expiry] of this.used) if (expiry <= now) this.used.delete(c);
    const m = CODE_PATTERN.exec(code);
    if (!m) return 'malformed';
    const expected = Buffer.from(mac(this.token, `${m[1]}.${m[2]}`));
    const given = Buffer.from(m[3]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
    const expiry = parseInt(m[1], 36);
    if (!(expiry > now) || expiry > now + LAUNCH_CODE_TTL_MS) return 'expired';
    if (this.used.has(code)) return 'used';
    this.used.set(code, expiry);
    return 'ok';
  }
}
