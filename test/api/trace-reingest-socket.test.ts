/**
 * Issue 31, "A run being re-ingested says so on every route", over a real socket: a trace export
 * that has begun streaming when a re-ingest of its run starts fails in the client's hands (the
 * connection is cut before the chunked body's end), never ends as a complete file.
 * test/api/trace-reingest-race.test.ts checks the route's body in-process; here the route's
 * answer goes out through node:http the way Next.js writes a route's body (its own
 * `pipeToNodeResponse`, which destroys the response when the body fails) and is read by `fetch`.
 * Between the server and the route, the test holds the export after its first pieces until the
 * re-ingest's first step (the run marked `ingesting`) is made; on each store.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pipeToNodeResponse } from "next/dist/server/pipe-readable";
import { afterEach, describe, expect, it } from "vitest";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadGeneratedAiperf, waitForDrilldown } from "../helpers/test-app";

const RECORDS = 3000;

/** Pieces of the route's body passed on before the hold */
const PIECES_BEFORE_HOLD = 2;

/**
 * A server for the trace route: the route's body passed on piece by piece, held after
 * PIECES_BEFORE_HOLD pieces until `release()` when `hold` is set.
 */
async function traceServer(runId: string) {
  let release: () => void = () => {};
  let held: Promise<void> | null = null;
  let reached: () => void = () => {};
  const holding = new Promise<void>((r) => (reached = r));
  const server = http.createServer(async (req, res) => {
    const answer = await getTrace(new Request(`http://localhost${req.url}`), idParams(runId));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    const reader = answer.body!.getReader();
    let pieces = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (held && pieces === PIECES_BEFORE_HOLD) {
          reached();
          await held;
        }
        const r = await reader.read();
        if (r.done) return c.close();
        pieces++;
        c.enqueue(r.value);
      },
    });
    await pipeToNodeResponse(body, res).catch(() => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/runs/${runId}/trace.json`,
    /** Holds the next export after its first pieces; `holding` resolves once it is held. */
    hold() {
      held = new Promise<void>((r) => (release = r));
      return holding;
    },
    release: () => release(),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe.each(TEST_STORES)("a trace download raced by a re-ingest, over a socket (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
  });

  it("fails in the client's hands once the run began re-ingesting", async () => {
    const id = await uploadGeneratedAiperf({ records: RECORDS, concurrency: 8, seed: 17 });
    await waitForDrilldown(id);
    const server = await traceServer(id);
    close = server.close;

    // Nothing changed during the download: the whole trace, valid JSON.
    const calm = await fetch(server.url);
    expect(calm.status).toBe(200);
    const whole = await calm.text();
    const { otherData } = JSON.parse(whole) as { otherData: { requestsInTrace: string } };
    expect(Number(otherData.requestsInTrace)).toBeGreaterThan(1000);

    const holding = server.hold();
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    await holding;
    // The export has sent its first pieces; a re-ingest begins.
    await env.app.store.db.updateTable("runs").set({ status: "ingesting" }).where("id", "=", id).execute();
    server.release();
    let failure: unknown = null;
    let text = "";
    try {
      text = await res.text();
    } catch (err) {
      failure = err;
    }
    // The connection is cut before the body's end: the client's download fails…
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toMatch(/terminated/);
    // …rather than ending as a file of the old rows up to the re-ingest.
    expect(text).toBe("");
  }, 180_000);
});
