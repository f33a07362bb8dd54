import { WebSocketTransport, type TransportOptions } from "@colyseus/ws-transport";

/** One WebSocket as the keep-alive sees it (ws's WebSocket; pingCount is Colyseus's field, reset by its pong handler). */
export interface PingedSocket {
  pingCount?: number;
  ping(callback?: (err?: Error) => void): void;
  terminate(): void;
}

/** How often the spread keep-alive runs a slice, ms: each slice pings interval/tick of the clients. */
export const PING_SLICE_MS = 100;

function noop(): void {}

/**
 * The WebSocket keep-alive of Colyseus's transport, spread out (issue 29). Colyseus pings every
 * connected socket in one synchronous loop every `pingInterval`: at 10,000 clients that is
 * 10,000 socket writes in one turn of the event loop, and 10,000 pongs read right after, every
 * 10 s: one stall of the whole process that grows with the clients even when they are idle
 * (the event-loop p99 at 10,000 clients). Here the sockets are pinged in slices, one slice
 * every PING_SLICE_MS, so each socket is still pinged once per interval and a socket that
 * missed `maxRetries` pings in a row is still terminated, but no turn of the loop writes more
 * than clients x PING_SLICE_MS / interval pings.
 *
 * `tick()` runs one slice; the round (the sockets to visit) is a snapshot taken every interval,
 * so a socket that joins waits at most one round for its first ping. A round used to start
 * again as soon as the previous one was done: with fewer sockets than slices each socket was
 * pinged every few slices (two sockets: every 200 ms) and one whose pongs came 300-600 ms late
 * (a starved client) was terminated (issue 29, the cluster loop).
 */
export class SpreadPinger {
  private round: PingedSocket[] = [];
  private next = 0;
  private readonly slices: number;

  constructor(
    private readonly sockets: () => Iterable<PingedSocket>,
    private readonly intervalMs: number,
    private readonly maxRetries: number,
    sliceMs = PING_SLICE_MS,
  ) {
    this.slices = Math.max(1, Math.round(intervalMs / sliceMs));
  }

  /**
   * Pings the next slice of the round. A round lasts the interval whatever the number of sockets
   * (`slices` ticks, each pinging its share of the round's snapshot, rounded up), so a socket
   * is pinged once per interval even when there are fewer sockets than slices. Returns the
   * sockets pinged.
   */
  tick(): number {
    if (this.slice === 0) {
      this.round = [...this.sockets()];
      this.next = 0;
    }
    this.slice += 1;
    const end = Math.ceil((this.round.length * this.slice) / this.slices);
    if (this.slice >= this.slices) this.slice = 0;
    let pinged = 0;
    for (; this.next < end; this.next++) {
      const socket = this.round[this.next]!;
      if ((socket.pingCount ?? 0) >= this.maxRetries) {
        socket.terminate();
        continue;
      }
      socket.pingCount = (socket.pingCount ?? 0) + 1;
      socket.ping(noop);
      pinged++;
    }
    return pinged;
  }

  /** the slice of the round the next tick runs (0: a new round starts) */
  private slice = 0;
}

/**
 * Colyseus's WebSocket transport with its keep-alive spread over the interval (SpreadPinger):
 * same interval, same retries, same pong handling (Colyseus resets pingCount on each pong).
 */
export class SpreadPingTransport extends WebSocketTransport {
  private readonly pinger: SpreadPinger;
  private readonly timer: NodeJS.Timeout;

  constructor(options: TransportOptions & { pingInterval: number; pingMaxRetries: number }) {
    // Colyseus's own all-at-once loop is off (an interval of 0); the pong handler stays.
    super({ ...options, pingInterval: 0 });
    this.pinger = new SpreadPinger(() => this.wss.clients as unknown as Iterable<PingedSocket>, options.pingInterval, options.pingMaxRetries);
    this.timer = setInterval(() => this.pinger.tick(), PING_SLICE_MS);
    this.timer.unref();
    options.server?.on("close", () => clearInterval(this.timer));
  }

  /** The WebSocket server's open sockets (shutdown terminates them). */
  get sockets(): Set<{ terminate(): void }> {
    return this.wss.clients;
  }

  override shutdown(): void {
    clearInterval(this.timer);
    super.shutdown();
  }
}
