/**
 * The server in front of the app (bin/http-server.mjs): its timeouts follow
 * RUNLENS_UPLOAD_TIMEOUT_MS instead of Node's 300 s request cut-off, and whatever it answers
 * itself (a stalled request, a method Next cannot take) has the JSON error shape. Real sockets
 * against a stand-in handler; test/e2e/server-entry.test.ts does the same against the built app.
 */
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createAppServer, serverOptions } from "../../bin/http-server.mjs";

/** Node's own whole-request cut-off, which used to end every upload slower than it. */
const NODE_DEFAULT_REQUEST_TIMEOUT_MS = 300_000;

describe("serverOptions", () => {
  it("lets the default upload timeout (30 min) govern, not Node's 300 s", () => {
    const o = serverOptions({});
    expect(o.requestTimeout).toBeGreaterThan(30 * 60_000);
    expect(o.requestTimeout).toBeGreaterThan(NODE_DEFAULT_REQUEST_TIMEOUT_MS);
    expect(o.headersTimeout).toBe(60_000);
    expect(o.keepAliveTimeout).toBeGreaterThanOrEqual(5_000);
  });

  it("follows RUNLENS_UPLOAD_TIMEOUT_MS up and down", () => {
    for (const ms of [1_000, 60_000, 3 * 60 * 60_000]) {
      const o = serverOptions({ RUNLENS_UPLOAD_TIMEOUT_MS: String(ms) });
      expect(o.requestTimeout).toBeGreaterThan(ms);
      // Node refuses a head timeout longer than the request's.
      expect(o.headersTimeout).toBeLessThanOrEqual(o.requestTimeout);
      expect(o.connectionsCheckingInterval).toBeLessThan(o.requestTimeout);
    }
  });

  it("ignores a setting that is not a positive number, as the app does", () => {
    expect(serverOptions({ RUNLENS_UPLOAD_TIMEOUT_MS: "soon" })).toEqual(serverOptions({}));
    expect(serverOptions({ RUNLENS_UPLOAD_TIMEOUT_MS: "-5" })).toEqual(serverOptions({}));
  });
});

let server: http.Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = null;
});

/** Starts the server around `handle` with a tiny upload timeout, so Node's cut-off comes fast. */
async function listen(handle: http.RequestListener, uploadTimeoutMs = 300): Promise<number> {
  server = createAppServer(handle, { RUNLENS_UPLOAD_TIMEOUT_MS: String(uploadTimeoutMs) });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return (server!.address() as net.AddressInfo).port;
}

/** Writes `head` on a raw socket and returns everything the server sends until it closes. */
function exchange(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(head));
    let got = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => (got += d));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
  });
}

function parse(raw: string): { status: number; headers: string; body: unknown } {
  const [headers, body] = raw.split("\r\n\r\n", 2);
  return { status: Number(headers.split(" ")[1]), headers, body: body ? JSON.parse(body) : null };
}

const neverAnswers: http.RequestListener = (req) => req.resume();

describe("createAppServer", () => {
  it("answers a request whose head stalls with a JSON 408", async () => {
    const port = await listen(neverAnswers);
    const res = parse(await exchange(port, "POST /api/runs HTTP/1.1\r\nHost: x\r\n"));
    expect(res.status).toBe(408);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(res.body).toEqual({ error: { code: "request_timeout", message: expect.any(String) } });
  });

  it("answers a body that stalls past the request cut-off with a JSON 408", async () => {
    const port = await listen(neverAnswers);
    const head = "POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part";
    const res = parse(await exchange(port, head));
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ error: { code: "request_timeout" } });
  });

  it.each(["TRACE", "TRACK", "CONNECT"])("answers %s with a JSON 405 and Allow", async (method) => {
    let reached = false;
    const port = await listen((_req, res) => {
      reached = true;
      res.end("app");
    }, 60_000);
    const target = method === "CONNECT" ? "example.com:443" : "/api/health";
    const res = parse(
      await exchange(port, `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    expect(res.status).toBe(405);
    expect(res.headers).toMatch(/^allow: GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH$/im);
    expect(res.body).toMatchObject({ error: { code: "method_not_allowed" } });
    expect(reached).toBe(false);
  });

  it("passes the methods the app answers to it", async () => {
    const port = await listen((req, res) => res.end(req.method), 60_000);
    const raw = await exchange(port, "DELETE /api/runs/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw.endsWith("DELETE")).toBe(true);
  });
});
