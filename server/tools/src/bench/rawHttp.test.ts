import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { prepareRequest, RawHttpClient } from "./rawHttp.js";

const servers: net.Server[] = [];
const clients: RawHttpClient[] = [];

async function listen(server: net.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

function client(port: number, connections: number): RawHttpClient {
  const c = new RawHttpClient(port, connections);
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe("the benches' raw keep-alive load generator", () => {
  it("sends what node:http reads as the request, and answers the status, the body of a failure only", async () => {
    const seen: { method?: string; url?: string; auth?: string; body: string }[] = [];
    const port = await listen(
      http.createServer((req, res) => {
        let body = "";
        req.on("data", (c) => (body += c));
        req.on("end", () => {
          seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
          const ok = req.url === "/ok";
          const answer = JSON.stringify(ok ? { success: true, data: "x".repeat(5000) } : { success: false, error: "Not enough turns" });
          res.writeHead(ok ? 200 : 409, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
          res.end(answer);
        });
      }),
    );
    const c = client(port, 2);
    const ok = prepareRequest("POST", "/ok", { countryId: 7, turnsToSpend: 1 }, "tok");
    const answers = await Promise.all([c.send(ok), c.send(ok), c.send(prepareRequest("GET", "/refused")), c.send(ok)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 409, 200]);
    expect(answers[0]!.body).toBeUndefined();
    expect(answers[2]!.body).toEqual({ success: false, error: "Not enough turns" });
    expect(seen.filter((s) => s.url === "/ok")).toHaveLength(3);
    expect(seen.find((s) => s.url === "/ok")).toEqual({ method: "POST", url: "/ok", auth: "Bearer tok", body: '{"countryId":7,"turnsToSpend":1}' });
  });

  it("reads an answer that arrives a few bytes at a time", async () => {
    const answer = Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\ncontent-length: 31\r\n\r\n{"success":false,"error":"bad"}');
    const port = await listen(
      net.createServer((socket) => {
        const trickle = async () => {
          for (let i = 0; i < answer.length; i += 7) {
            socket.write(answer.subarray(i, i + 7));
            await new Promise((r) => setTimeout(r, 1));
          }
        };
        socket.on("data", () => void trickle());
      }),
    );
    const c = client(port, 1);
    const first = await c.send(prepareRequest("GET", "/"));
    const second = await c.send(prepareRequest("GET", "/"));
    expect(first).toEqual({ status: 400, body: { success: false, error: "bad" } });
    expect(second).toEqual(first);
  });

  it("refuses an answer it cannot delimit instead of misreading it", async () => {
    const port = await listen(
      http.createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("a");
        res.end("b"); // no Content-Length: node:http sends it chunked
      }),
    );
    await expect(client(port, 1).send(prepareRequest("GET", "/"))).rejects.toThrow(/chunked/);
  });
});
