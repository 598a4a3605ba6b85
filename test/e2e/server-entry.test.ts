/**
 * The built app behind its own server (bin/server.mjs, what `npm start` runs), on real sockets:
 * RUNLENS_UPLOAD_TIMEOUT_MS, not Node's request cut-off, ends a slow upload, with the route's JSON
 * 408; a request that stalls before any route reads it still gets a JSON 408; methods Next cannot
 * take get a JSON 405 instead of a 500; and the example runs still load at start.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "./harness";

// The server's own cut-off is then 3 s (see serverOptions in bin/http-server.mjs).
const UPLOAD_TIMEOUT_MS = 1500;

let app: RunningApp;
let port: number;
beforeAll(async () => {
  app = await startApp({
    env: { RUNLENS_UPLOAD_TIMEOUT_MS: String(UPLOAD_TIMEOUT_MS), RUNLENS_EXAMPLES: "on" },
  });
  port = Number(new URL(app.url).port);
});
afterAll(async () => {
  await app?.stop();
});

interface Exchange {
  status: number;
  headers: string;
  body: string;
}

const chunked = (headers: string) => /transfer-encoding: chunked/i.test(headers);

function dechunk(raw: string): string {
  let out = "";
  for (let at = 0; ;) {
    const eol = raw.indexOf("\r\n", at);
    const size = parseInt(raw.slice(at, eol), 16);
    if (!size) return out;
    out += raw.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/**
 * Writes `head` on a raw socket, then `trickle` (if given) every 100 ms until the server answers,
 * and resolves with the answer once the server closes or has sent a whole body.
 */
function exchange(head: string, trickle?: string): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(head));
    const timer = trickle ? setInterval(() => socket.writable && socket.write(trickle), 100) : undefined;
    let got = "";
    const done = () => {
      clearInterval(timer);
      socket.destroy();
      const sep = got.indexOf("\r\n\r\n");
      const headers = got.slice(0, sep);
      const raw = got.slice(sep + 4);
      resolve({
        status: Number(headers.split(" ")[1]),
        headers,
        body: chunked(headers) ? dechunk(raw) : raw,
      });
    };
    socket.setEncoding("utf8");
    socket.on("data", (d) => {
      got += d;
      const sep = got.indexOf("\r\n\r\n");
      if (sep < 0) return;
      const length = /content-length: (\d+)/i.exec(got.slice(0, sep))?.[1];
      if (length && Buffer.byteLength(got.slice(sep + 4)) >= Number(length)) done();
      if (chunked(got.slice(0, sep)) && got.endsWith("0\r\n\r\n")) done();
    });
    socket.on("close", done);
    socket.on("error", (err) => (got ? done() : reject(err)));
  });
}

describe("the server entry", () => {
  it("loads the example runs at start (instrumentation still runs)", async () => {
    const res = await fetch(`${app.url}/api/runs?label=example`);
    expect(res.status).toBe(200);
    const { runs } = (await res.json()) as { runs: Array<{ status: string }> };
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.status === "ready")).toBe(true);
  });

  it("ends an upload that keeps trickling with the route's JSON 408, not Node's cut-off", async () => {
    const boundary = "runlens-slow";
    const head =
      "POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const part =
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="perf_metrics-0.jsonl"\r\n` +
      "content-type: application/octet-stream\r\n\r\n";
    const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    const res = await exchange(head + chunk(part), chunk(" "));
    expect(res.status).toBe(408);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body), res.body).toMatchObject({ error: { code: "upload_timeout" } });
  });

  it("answers a request whose head never completes with a JSON 408", async () => {
    const res = await exchange("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: "request_timeout" } });
  });

  it.each([
    ["TRACE", "/api/health"],
    ["TRACE", "/"],
    ["TRACK", "/api/runs"],
    ["CONNECT", "example.com:443"],
  ])("answers %s %s with a JSON 405", async (method, target) => {
    const res = await exchange(
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(405);
    expect(res.headers).toMatch(/^allow: GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH$/im);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: "method_not_allowed" } });
  });

  it("logged no stack for any of it, and still answers", async () => {
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    expect(app.logs()).not.toMatch(/unsupported|TypeError|⨯/);
  });
});
