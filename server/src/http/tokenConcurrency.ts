import type http from "node:http";

/**
 * Requests of one bearer token answered at once, and waiting for a slot (issue 28: one token
 * with 50 reads in flight raised another player's `/user/me` p99 from 12 ms to 1.2 s). A
 * browser opens at most 6 HTTP/1.1 connections to a host, so a player's own client never
 * waits here; a script that sends more waits in the token's queue, and beyond it is refused.
 * docs/reliability.md gives the numbers' reasons.
 */
export const REQUESTS_ACTIVE_PER_TOKEN = 6;
/**
 * Requests of one token that may wait for a slot; one more answers 429. Waiting costs a socket
 * and a few hundred bytes, no database or CPU time, so the queue is long: a burst is served in
 * turn rather than refused, and only a client holding over a hundred requests open is told to
 * back off.
 */
export const REQUESTS_WAITING_PER_TOKEN = 100;
/** Retry-After of that 429, seconds: a slot frees as soon as one of the token's requests ends. */
export const TOKEN_BUSY_RETRY_AFTER_SECONDS = 1;

interface TokenSlots {
  active: number;
  waiting: Array<() => void>;
}

/**
 * Per-token admission, keyed by the raw Authorization header (verified later by the route):
 * a forged token only ever fills its own queue, never another player's. Unauthenticated
 * requests are not counted here (login and registration have their own limits).
 */
export class TokenConcurrency {
  private readonly byToken = new Map<string, TokenSlots>();

  constructor(
    private readonly maxActive = REQUESTS_ACTIVE_PER_TOKEN,
    private readonly maxWaiting = REQUESTS_WAITING_PER_TOKEN,
  ) {}

  /**
   * Serves the request now, or once one of its token's slots frees (the slot is held until
   * the answer is finished or the connection closes). Returns false, having served nothing,
   * when the token's queue is full: the caller answers 429.
   */
  admit(token: string, res: http.ServerResponse, serve: () => void): boolean {
    let slots = this.byToken.get(token);
    if (!slots) {
      slots = { active: 0, waiting: [] };
      this.byToken.set(token, slots);
    }
    const own = slots;
    const start = () => {
      own.active += 1;
      res.once("close", () => {
        own.active -= 1;
        const next = own.waiting.shift();
        if (next) next();
        else this.forgetIfIdle(token, own);
      });
      serve();
    };
    if (own.active < this.maxActive) {
      start();
      return true;
    }
    if (own.waiting.length >= this.maxWaiting) return false;
    own.waiting.push(start);
    // a client that gives up while waiting leaves the queue
    res.once("close", () => {
      const at = own.waiting.indexOf(start);
      if (at >= 0) own.waiting.splice(at, 1);
      this.forgetIfIdle(token, own);
    });
    return true;
  }

  /** Tokens with requests active or waiting (tests, metrics). */
  get tokens(): number {
    return this.byToken.size;
  }

  private forgetIfIdle(token: string, slots: TokenSlots): void {
    if (slots.active === 0 && slots.waiting.length === 0 && this.byToken.get(token) === slots) this.byToken.delete(token);
  }
}
