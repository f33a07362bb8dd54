import net from "node:net";

/**
 * The benches' load generator: keep-alive HTTP/1.1 over plain sockets, one request in flight
 * per connection, requests prepared once as bytes, answers read only as far as the status line
 * and Content-Length (the body of a failure is parsed as JSON, a success's is skipped).
 *
 * Why not node:http or autocannon: the load generator shares the two cores with the server and
 * Postgres, so its CPU per request lowers the very rate it measures. Driving a node:http server
 * that answers 2 KB, with 16 connections, in one run: node:http's client spent 0.065 ms per
 * request, autocannon 0.042 ms, this 0.014-0.018 ms (docs/performance.md). pgbench, the
 * reference, is a C client whose cost is as small.
 *
 * It only understands what our servers send: answers with a Content-Length, no chunked
 * encoding, no 1xx. Anything else fails the request loudly rather than being misread.
 */
export interface RawAnswer {
  status: number;
  /** the parsed JSON body of a non-200 answer; undefined for a 200 */
  body: any;
}

/** A request as the bytes to send; prepare once, send many times. */
export function prepareRequest(method: string, path: string, body?: unknown, token?: string): Buffer {
  const payload = body === undefined ? "" : JSON.stringify(body);
  const lines = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: keep-alive"];
  if (body !== undefined) lines.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(payload)}`);
  if (token) lines.push(`Authorization: Bearer ${token}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${payload}`);
}

const HEADER_END = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:[^\r]*chunked/i;

/** One keep-alive connection; one request at a time. */
class RawConnection {
  private readonly socket: net.Socket;
  private readonly ready: Promise<void>;
  private buffered: Buffer | undefined;
  private pending: { resolve(answer: RawAnswer): void; reject(err: Error): void } | undefined;
  private failed: Error | undefined;

  constructor(port: number) {
    this.socket = net.connect(port, "127.0.0.1");
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once("connect", resolve);
      this.socket.once("error", reject);
    });
    this.socket.on("data", (chunk: Buffer) => this.onData(chunk));
    this.socket.on("error", (err) => this.fail(err));
    this.socket.on("close", () => this.fail(new Error("connection closed by the server")));
  }

  async send(request: Buffer): Promise<RawAnswer> {
    await this.ready;
    if (this.failed) throw this.failed;
    if (this.pending) throw new Error("one request at a time per connection");
    return new Promise<RawAnswer>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(err: Error): void {
    this.failed ??= err;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(err);
  }

  private onData(chunk: Buffer): void {
    const data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    const headerEnd = data.indexOf(HEADER_END);
    if (headerEnd < 0) {
      this.buffered = data;
      return;
    }
    const head = data.toString("latin1", 0, headerEnd);
    if (CHUNKED.test(head)) return this.fail(new Error("chunked answers are not supported by the bench's load generator"));
    const length = CONTENT_LENGTH.exec(head);
    if (!length) return this.fail(new Error(`an answer without Content-Length: ${head.split("\r\n", 1)[0]}`));
    const total = headerEnd + HEADER_END.length + Number(length[1]);
    if (data.length < total) {
      this.buffered = data;
      return;
    }
    if (data.length > total) return this.fail(new Error("more bytes than the answer's Content-Length"));
    this.buffered = undefined;
    const status = Number(head.slice(9, 12));
    let body: any;
    if (status !== 200) {
      const text = data.toString("utf8", headerEnd + HEADER_END.length);
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve({ status, body });
  }
}

/** A fixed set of keep-alive connections to one port, handed to callers one request at a time. */
export class RawHttpClient {
  private readonly idle: RawConnection[];
  private readonly all: RawConnection[];
  private readonly waiting: ((connection: RawConnection) => void)[] = [];

  constructor(port: number, connections: number) {
    this.all = Array.from({ length: connections }, () => new RawConnection(port));
    this.idle = [...this.all];
  }

  async send(request: Buffer): Promise<RawAnswer> {
    const connection = this.idle.pop() ?? (await new Promise<RawConnection>((resolve) => this.waiting.push(resolve)));
    try {
      return await connection.send(request);
    } finally {
      const next = this.waiting.shift();
      if (next) next(connection);
      else this.idle.push(connection);
    }
  }

  close(): void {
    for (const connection of this.all) connection.close();
  }
}
