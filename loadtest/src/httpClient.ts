import http from "node:http";
import https from "node:https";

/** A JSON answer, or a transport failure as status 0 ("network") or "timeout". */
export interface JsonResponse<T = any> {
  /** HTTP status; 0 when no answer came (see `failure`) */
  status: number;
  body: T;
  /** set when no HTTP answer came: "timeout" or "network: <message>" */
  failure?: string;
}

/** One REST request as the tester counts it: by route pattern, like the server's metrics. */
export interface RequestRecord {
  method: string;
  /** the route pattern, e.g. /api/country/:id */
  route: string;
  status: number;
}

/**
 * A small keep-alive JSON client on node:http: cheaper per request than fetch, with a hard
 * per-request timeout, and a hook that sees every answer so the tester can count requests
 * per route and status the way the server does.
 */
export class JsonHttpClient {
  private readonly agent: http.Agent;
  /** requests sent again after a reused keep-alive socket was reset (see request) */
  staleSocketRetries = 0;
  private readonly transport: typeof http | typeof https;

  constructor(
    readonly baseUrl: URL,
    private readonly options: { timeoutMs: number; maxSockets: number; onResponse?: (record: RequestRecord) => void },
  ) {
    this.transport = baseUrl.protocol === "https:" ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets: options.maxSockets, keepAliveMsecs: 10_000 });
  }

  /**
   * Sends `body` as JSON to `path` (under the base URL). `route` is the pattern it belongs to,
   * used only for counting; it defaults to the path.
   */
  request<T = any>(method: string, path: string, options: { body?: unknown; token?: string; route?: string; headers?: Record<string, string> } = {}): Promise<JsonResponse<T>> {
    const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
    const headers: Record<string, string | number> = { accept: "application/json", ...options.headers };
    if (payload) {
      headers["content-type"] = "application/json";
      headers["content-length"] = payload.length;
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve) => {
      let settled = false;
      let req: http.ClientRequest | undefined;
      const finish = (response: JsonResponse<T>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (response.status > 0) this.options.onResponse?.({ method, route: options.route ?? url.pathname, status: response.status });
        resolve(response);
      };
      const send = (attempt: number) => {
        const current = this.transport.request(url, { method, headers, agent: this.agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let body: any = text;
            if ((res.headers["content-type"] ?? "").includes("json")) {
              try {
                body = JSON.parse(text);
              } catch {
                body = text;
              }
            }
            finish({ status: res.statusCode ?? 0, body });
          });
          res.on("error", (err) => finish({ status: 0, body: undefined as T, failure: `network: ${err.message}` }));
        });
        req = current;
        current.on("error", (err) => {
          const code = (err as NodeJS.ErrnoException).code;
          // A kept-alive socket the server closed as we reused it (its idle time-out racing our
          // request): nothing reached the server, so send again on a fresh socket once, as
          // browsers do. Node's documentation recommends exactly this check.
          if (!settled && attempt === 0 && current.reusedSocket && code === "ECONNRESET") {
            this.staleSocketRetries++;
            send(1);
            return;
          }
          finish({ status: 0, body: undefined as T, failure: `network: ${code ?? err.message}` });
        });
        current.end(payload);
      };
      const timer = setTimeout(() => {
        finish({ status: 0, body: undefined as T, failure: "timeout" });
        req?.destroy();
      }, this.options.timeoutMs);
      send(0);
    });
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.agent.destroy();
  }
}

/** The `error` of a `{ success: false, error }` body, or a short description of an odd one. */
export function errorMessageOf(response: JsonResponse): string {
  if (response.failure) return response.failure;
  const body = response.body as { error?: unknown } | string | undefined;
  if (body && typeof body === "object" && typeof body.error === "string") return body.error;
  if (typeof body === "string" && body.length > 0) return body.slice(0, 120);
  return `HTTP ${response.status}`;
}
