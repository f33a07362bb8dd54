import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";

async function getMetrics(server: TestServer, token?: string) {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("GET /metrics", () => {
  describe("disabled (no flag, no token)", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ metricsPublic: false, metricsToken: undefined });
    });
    afterAll(() => server.close());

    it("answers 404 as if it did not exist", async () => {
      expect((await getMetrics(server)).status).toBe(404);
      expect((await getMetrics(server, "anything")).status).toBe(404);
    });
  });

  describe("behind an operator token", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ metricsPublic: false, metricsToken: "operator-token-123" });
    });
    afterAll(() => server.close());

    it("answers 401 without or with a wrong token and 200 with the right one", async () => {
      expect((await getMetrics(server)).status).toBe(401);
      expect((await getMetrics(server, "operator-token-12")).status).toBe(401);
      const ok = await getMetrics(server, "operator-token-123");
      expect(ok.status).toBe(200);
      expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
    });

    it("finding 13: serves prom-client's default process metrics plus the game's, still only with the token", async () => {
      const player = await registerPlayer(server, "prom");
      await server.api("POST", "/exploration/explore", { countryId: player.countryId, turnsToSpend: 1 }, player.token);
      expect((await getMetrics(server)).status).toBe(401);
      const { text } = await getMetrics(server, "operator-token-123");
      // prom-client's defaults
      for (const name of [
        "process_cpu_user_seconds_total",
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "process_start_time_seconds",
        "nodejs_heap_size_used_bytes",
        "nodejs_eventloop_lag_p99_seconds",
        "nodejs_active_handles_total",
        "nodejs_version_info",
      ]) {
        expect(text, name).toContain(`# TYPE ${name} `);
      }
      // ours, with their labels
      expect(text).toMatch(/^game_actions_total\{action="explore"\} 1$/m);
      expect(text).toMatch(/^http_requests_total\{method="POST",route="\/api\/auth\/register",status="201"\} 1$/m);
      expect(text).toMatch(/^process_uptime_seconds \d/m);
      // each metric family once, even with several servers in one process
      const families = text
        .split("\n")
        .filter((l) => l.startsWith("# TYPE "))
        .map((l) => l.split(" ")[2]);
      expect(new Set(families).size).toBe(families.length);
    });

    it("reads the metrics that walk every socket at most once per 15 s: twenty more listening sockets do not show on the next scrape", async () => {
      const handles = (text: string) => Number(/^nodejs_active_handles_total (\d+)$/m.exec(text)?.[1]);
      const openFiles = (text: string) => Number(/^process_open_fds (\d+)$/m.exec(text)?.[1]);
      const before = (await getMetrics(server, "operator-token-123")).text;
      const sockets = await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            new Promise<Server>((resolve) => {
              const socket = createServer().listen(0, "127.0.0.1", () => resolve(socket));
            }),
        ),
      );
      try {
        const after = (await getMetrics(server, "operator-token-123")).text;
        expect(handles(before)).toBeGreaterThan(0);
        expect(handles(after)).toBe(handles(before));
        expect(openFiles(after)).toBe(openFiles(before));
      } finally {
        await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.close(resolve))));
      }
    });
  });

  describe("public", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ metricsPublic: true });
    });
    afterAll(() => server.close());

    it("labels requests by route pattern, not raw URL, and counts statuses", async () => {
      const player = await registerPlayer(server, "met");
      await server.api("GET", `/country/${player.countryId}`, undefined, player.token);
      await server.api("GET", `/country/${player.countryId + 1000}`, undefined, player.token);
      await server.api("GET", "/no/such/route");
      const { text } = await getMetrics(server);
      expect(text).toContain('http_requests_total{method="GET",route="/api/country/:id",status="200"} 1');
      // the 404 of a missing country still matched the route
      expect(text).toContain('http_requests_total{method="GET",route="/api/country/:id",status="404"} 1');
      expect(text).toContain('http_requests_total{method="POST",route="/api/auth/register",status="201"} 1');
      expect(text).toContain('http_requests_total{method="GET",route="unmatched",status="404"} 1');
      expect(text).not.toContain(`/api/country/${player.countryId}"`);
      // prom-client writes `le` first; Prometheus does not mind the order of labels
      expect(text).toMatch(/http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/country\/:id",status="200"\} 1/);
      const counter = server.server.ctx.metrics.httpRequests;
      expect(counter.get({ method: "GET", route: "/api/country/:id", status: "200" })).toBe(1);
    });

    it("labels a request whose body was refused with its route's pattern", async () => {
      const res = await server.api("POST", "/auth/register", "{not json");
      expect(res.status).toBe(400);
      const { text } = await getMetrics(server);
      // the pipeline matched the route before it read the body
      expect(text).toContain('http_requests_total{method="POST",route="/api/auth/register",status="400"} 1');
    });

    it("exposes process, room and client gauges", async () => {
      const { text } = await getMetrics(server);
      for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "colyseus_rooms", "colyseus_connected_clients", "nodejs_eventloop_delay_p99_seconds", "turn_tick_duration_seconds"]) {
        expect(text).toContain(`# TYPE ${name}`);
      }
      expect(text).toMatch(/^colyseus_connected_clients 0$/m);
    });
  });
});
