/**
 * An upload over RUNLENS_MAX_UPLOAD_BYTES, sent to the server `npm start` runs (bin/server.mjs):
 * the client hears `413 payload_too_large` as JSON while it is still sending, whether the body
 * declared its length or came chunked, and is not reset before it has read the answer
 * (docs/http-api.md §Errors). Nothing of the upload is kept.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "./harness";

const LIMIT = 1 << 20;
const BOUNDARY = "runlens-limit";

let app: RunningApp;
beforeAll(async () => {
  app = await startApp({ env: { RUNLENS_MAX_UPLOAD_BYTES: String(LIMIT) } });
});
afterAll(async () => {
  await app?.stop();
});

const partHead = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="profile_export.jsonl"\r\n` +
    "Content-Type: application/octet-stream\r\n\r\n",
);

/**
 * Sends a POST of `total` bytes in 64 KiB pieces over a raw socket, as a client that keeps
 * sending until the answer is in; resolves with what the server wrote and any socket error.
 */
async function sendLarge(total: number, chunked: boolean): Promise<{ answer: string; error: string | null }> {
  const { port } = new URL(app.url);
  const sock = net.connect(Number(port), "127.0.0.1");
  let answer = "";
  let error: string | null = null;
  let closed = false;
  sock.on("data", (d) => (answer += String(d)));
  sock.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  sock.on("close", () => (closed = true));
  await new Promise<void>((r) => sock.once("connect", () => r()));
  sock.write(
    `POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
      (chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${total}\r\n`) +
      "\r\n",
  );
  const piece = Buffer.alloc(64 << 10, 0x61);
  const frame = (b: Buffer) =>
    chunked ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")]) : b;
  let sent = 0;
  let piecesAfter = 0;
  const write = (b: Buffer) => new Promise<void>((r) => sock.write(frame(b), () => r()));
  await write(partHead);
  sent += partHead.length;
  // Until the answer is in and a few pieces more: an answer given while the client still sends.
  while (sent < total && !closed && error === null && piecesAfter < 16) {
    await write(piece);
    sent += piece.length;
    if (answer.includes("\r\n\r\n")) piecesAfter++;
  }
  const deadline = Date.now() + 10_000;
  while (
    !/\r\n\r\n[\s\S]*(\}|\r\n0\r\n\r\n)$/.test(answer) &&
    !closed &&
    error === null &&
    Date.now() < deadline
  )
    await new Promise((r) => setTimeout(r, 20));
  sock.destroy();
  return { answer, error };
}

/** The status line, head and JSON body of a raw HTTP/1.1 answer (chunked or not). */
function parse(answer: string) {
  const at = answer.indexOf("\r\n\r\n");
  const head = answer.slice(0, at);
  let body = answer.slice(at + 4);
  if (/transfer-encoding: chunked/i.test(head)) {
    let text = "";
    for (let i = 0; ;) {
      const eol = body.indexOf("\r\n", i);
      const size = parseInt(body.slice(i, eol), 16);
      if (!(size > 0)) break;
      text += body.slice(eol + 2, eol + 2 + size);
      i = eol + 2 + size + 2;
    }
    body = text;
  }
  return { status: Number(head.split(" ")[1]), head, body: JSON.parse(body) };
}

describe("an upload over the size limit", () => {
  for (const chunked of [false, true])
    it(`${chunked ? "chunked" : "with its length declared"}: 413 as JSON, not a reset`, async () => {
      const { answer, error } = await sendLarge(32 * LIMIT, chunked);
      expect(error, answer).toBeNull();
      const res = parse(answer);
      expect(res.status, answer).toBe(413);
      expect(res.head).toMatch(/content-type: application\/json/i);
      expect(res.body.error.code).toBe("payload_too_large");
      expect(res.body.error.message).toBe(`upload exceeds ${LIMIT} bytes`);
      const runs = await (await fetch(`${app.url}/api/runs`)).json();
      expect(runs.runs).toEqual([]);
    });

  it("through fetch, as the CLI sends: the 413 arrives, not a failed request", async () => {
    const form = new FormData();
    form.append("file", new Blob([Buffer.alloc(8 * LIMIT, 0x61)]), "profile_export.jsonl");
    const res = await fetch(`${app.url}/api/runs`, { method: "POST", body: form });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("payload_too_large");
    const blobs = path.join(app.dataDir, "blobs");
    const kept = fs.existsSync(blobs)
      ? fs
          .readdirSync(blobs, { recursive: true })
          .filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}(\.gz|\.raw)?$/.test(String(f)))
      : [];
    expect(kept).toEqual([]);
  });
});
