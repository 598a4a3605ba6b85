/**
 * A compressed upload that expands past RUNLENS_MAX_EXPANDED_BYTES while its body is still
 * arriving is answered 413 at once, instead of waiting for a body the server no longer parses;
 * the rest of the body is read and dropped, so the client is not reset before it reads the
 * answer. It leaves no run, no blob and no temp file, on both stores.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import type { AppContext } from "@/lib/server/app-context";
import { trtRecordText } from "../fixtures/bad/generate-big";
import { makeTarGz, makeZip } from "../helpers/archives";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { streamingUploadRequest, uploadRequest, useTestApp } from "../helpers/test-app";

const LIMIT = 1 << 20;
const BOUNDARY = "----runlens-expanding-test";

/** TensorRT-LLM records, so the file is recognised and analysed while it arrives. */
const trtRecords = (count: number) =>
  Array.from({ length: count }, (_, i) => trtRecordText(i)).join("\n") + "\n";

const partHead = (name: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\n` +
      `content-type: application/octet-stream\r\n\r\n`,
  );
const closing = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/**
 * An upload of one file part whose bytes are all sent but whose closing boundary is held back:
 * the body is still arriving for as long as the test wants; the rest is sent when the test ends.
 */
function heldUpload(name: string, bytes: Buffer) {
  const pieces: Buffer[] = [partHead(name)];
  for (let at = 0; at < bytes.length; at += 16 << 10) pieces.push(bytes.subarray(at, at + (16 << 10)));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let sent!: () => void;
  const state = { complete: false, sent: new Promise<void>((r) => (sent = r)) };
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      const next = pieces.shift();
      if (next) return c.enqueue(new Uint8Array(next));
      await held;
      c.enqueue(new Uint8Array(closing));
      c.close();
      state.complete = true;
      sent();
    },
  });
  onTestFinished(() => release());
  return { req: streamingUploadRequest(body, BOUNDARY), state, release };
}

const bigText = () => Buffer.alloc(4 * LIMIT, "runlens ");

const cases: Array<[string, () => Promise<Buffer> | Buffer]> = [
  ["big.txt.gz", () => gzipSync(bigText())],
  ["big.tar.gz", () => makeTarGz([{ name: "run/big.txt", content: bigText() }])],
  ["perf_metrics.jsonl.gz", () => gzipSync(trtRecords(8_000))],
];

const stores: Array<[string, string | undefined]> = [["SQLite", undefined]];
if (PG_URL) stores.push(["PostgreSQL", PG_URL]);

/** Runs, blobs and temp files the store holds. */
async function leftovers(app: AppContext, dataDir: string) {
  const runs = await app.store.db.selectFrom("runs").select(["id", "status"]).execute();
  if (app.store.dialect === "postgres") {
    const chunks = await sql<{ key: string }>`select distinct blob_key as key from blob_chunks`.execute(
      app.store.db,
    );
    return { runs, blobs: chunks.rows.map((r) => r.key) };
  }
  const dir = path.join(dataDir, "blobs");
  const blobs = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    : [];
  return { runs, blobs };
}

describe.each(stores)("an upload expanding past the limit while it arrives, on %s", (_store, pgUrl) => {
  let t: Awaited<ReturnType<typeof useTestApp>>;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const schema = pgUrl ? await freshSchema(pgUrl) : undefined;
    drop = schema?.drop;
    t = await useTestApp({ DATABASE_URL: schema?.url, RUNLENS_MAX_EXPANDED_BYTES: String(LIMIT) });
  });
  afterAll(async () => {
    await t?.cleanup();
    await drop?.();
  });

  for (const [name, make] of cases) {
    it(`${name}: 413 before the body has ended, nothing kept`, async () => {
      const { req, state, release } = heldUpload(name, await make());
      const res = await upload(req);
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(413);
      expect(body.error.code).toBe("payload_too_large");
      expect(state.complete).toBe(false);
      expect(await leftovers(t.app, t.dataDir)).toEqual({ runs: [], blobs: [] });
      // The rest of the body is still read, to its end.
      release();
      await state.sent;
    });
  }

  it("a zip whose directory declares more than the limit: 413 before any entry is expanded", async () => {
    // Each entry fits the limit on its own; together they do not.
    const zip = await makeZip(
      [0, 1, 2, 3].map((i) => ({ name: `run/part-${i}.txt`, content: Buffer.alloc(LIMIT / 2, "runlens ") })),
    );
    const put = vi.spyOn(t.app.blobs, "put");
    onTestFinished(() => put.mockRestore());
    const res = await upload(uploadRequest([{ name: "flat.zip", content: zip }]));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(413);
    expect(body.error.code).toBe("payload_too_large");
    expect(put).not.toHaveBeenCalled();
    expect(await leftovers(t.app, t.dataDir)).toEqual({ runs: [], blobs: [] });
  });

  it("a limit error from another copy of the store module is still a 413", async () => {
    // Next.js may bundle the store more than once; the store kept on globalThis then throws an
    // error that is no instance of the class the upload code imported.
    vi.resetModules();
    const other = await import("@/lib/store/blob-store");
    const put = vi.spyOn(t.app.blobs, "put").mockRejectedValue(new other.BlobTooLargeError(LIMIT));
    onTestFinished(() => put.mockRestore());
    const res = await upload(uploadRequest([{ name: "big.txt.gz", content: gzipSync(bigText()) }]));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(413);
    expect(body.error.code).toBe("payload_too_large");
  });

  it("a zip that declares less than it expands to is still stopped at the limit", async () => {
    // The directory states the .gz entry's own size; what it gunzips to is known only as it flows.
    const zip = await makeZip([{ name: "run/big.txt.gz", content: gzipSync(bigText()) }]);
    const res = await upload(uploadRequest([{ name: "nested.zip", content: zip }]));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(413);
    expect(body.error.code).toBe("payload_too_large");
    expect(await leftovers(t.app, t.dataDir)).toEqual({ runs: [], blobs: [] });
  });
});

describe("on a real socket", () => {
  let t: Awaited<ReturnType<typeof useTestApp>>;
  let server: http.Server;
  beforeAll(async () => {
    t = await useTestApp({ RUNLENS_MAX_EXPANDED_BYTES: String(LIMIT) });
    // The route handler behind a plain Node server, the way Next.js hands it the request.
    server = http.createServer(async (req, res) => {
      const request = new Request(`http://localhost${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        // Next.js passes the Node request itself as the body, read through its async iterator.
        body: req as unknown as ReadableStream<Uint8Array>,
        duplex: "half",
      } as RequestInit);
      const answer = await upload(request);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await t?.cleanup();
  });

  it("answers 413 while the client is still sending, and reads the rest without resetting it", async () => {
    const { port } = server.address() as AddressInfo;
    // A kept-alive connection, as browsers and curl use: a server that stopped reading it could
    // only close it, and closing while the client still sends can reset the answer away.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/api/runs",
      headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      agent,
    });
    let clientError: Error | null = null;
    req.once("error", (err) => (clientError = err));
    let answered: http.IncomingMessage | null = null;
    const response = new Promise<http.IncomingMessage>((r) => req.once("response", r));
    void response.then((res) => (answered = res));
    req.write(partHead("big.txt.gz"));
    req.write(gzipSync(bigText()));
    // Filler, a piece at a time, until the answer is in: only an answer given while the client
    // is still sending can arrive at all.
    const filler = Buffer.alloc(64 << 10, 0x61);
    let piecesAfter = 0;
    while (piecesAfter < 16) {
      await new Promise<void>((r) => req.write(filler, () => r()));
      if (answered) piecesAfter++;
    }
    const res = await response;
    req.end(closing);
    await new Promise<void>((r) => req.once("finish", () => r()));
    let text = "";
    for await (const c of res) text += String(c);
    expect(res.statusCode, text).toBe(413);
    expect(JSON.parse(text).error.code).toBe("payload_too_large");
    expect(clientError).toBeNull();
    // The answer leaves while the upload is still arriving; the refused file's temporary blob
    // goes as its stream is torn down, just after.
    await expect
      .poll(() => leftovers(t.app, t.dataDir), { timeout: 10_000 })
      .toEqual({ runs: [], blobs: [] });
  });
});
