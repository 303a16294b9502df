/**
 * Sockets that have not shown the session token are capped on their own, below the server's socket
 * ceiling, so whoever cannot authenticate cannot fill the host (issue 24, finding 7: 1,024 slow-body
 * sockets held after their 403 locked the page out, 30 of 30 calls failing, no token needed).
 *
 * When a new socket would pass the cap, the OLDEST unauthenticated one is closed rather than the new
 * one refused: the page's fresh connection authenticates with its first request, within
 * milliseconds, while a hostile client's sockets never do, so they are the ones that age out.
 * Refusing new sockets instead would let the hostile client keep the page's next connection out.
 */
import type { Socket } from 'node:net';

export class SocketGuard {
  /** Unauthenticated sockets, oldest first (a Set keeps insertion order). */
  private readonly waiting = new Set<Socket>();

  constructor(readonly maxUnauthenticated: number) {}

  get unauthenticated(): number {
    return this.waiting.size;
  }

  /** A new connection: counted as unauthenticated until a request on it carries the token. */
  admit(socket: Socket): void {
    if (this.waiting.size >= this.maxUnauthenticated) {
      const oldest = this.waiting.values().next().value as Socket;
      this.waiting.delete(oldest);
      oldest.destroy();
    }
    this.waiting.add(socket);
    socket.once('close', () => this.waiting.delete(socket));
  }

  /** A request on `socket` carried the session token (or redeemed a launch code): it is the page's. */
  trust(socket: Socket): void {
    this.waiting.delete(socket);
  }
}
