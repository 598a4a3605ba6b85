/**
 * One client cannot starve others of an open read route (issue 31, "No read blocks the server"):
 * a client that opens heavy reads (trace exports) and leaves their answers unread holds their
 * places until it reads them or goes (lib/server/heavy-reads.ts). Before, one client could hold
 * every running place with as many exports as there are places (2), and every other client's
 * heavy read waited behind them, for as long as it pleased; it could also hold 17 places in all.
 * Now a client runs at most RUNLENS_HEAVY_READS − 1 at once, so another client's read takes the
 * place left, and past RUNLENS_HEAVY_READS_PER_CLIENT places it is refused 429 with Retry-After.
 * On each store, through the real route handlers.
 *
 * Not a timing: which answer comes first, B's or B's read joining the queue (counts of the
 * admission), and status codes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as trace } from "@/app/api/runs/[id]/trace.json/route";
import { heavyReads } from "@/lib/server/heavy-reads";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadGeneratedAiperf, waitForDrilldown } from "../helpers/test-app";

const PER_CLIENT = 2;
const A = { "x-forwarded-for": "198.51.100.10" };
const B = { "x-forwarded-for": "198.51.100.20" };

/** Resolves once `ok()` holds, checking a turn of the event loop at a time. */
async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 2));
}

describe.each(TEST_STORES)("heavy reads per client (%s)", (_store, pgUrl) => {
  useStoreTestApp(pgUrl);
  const saved: Record<string, string | undefined> = {};
  const env = {
    RUNLENS_HEAVY_READS: "2",
    RUNLENS_HEAVY_READ_QUEUE: "32",
    RUNLENS_HEAVY_READS_PER_CLIENT: String(PER_CLIENT),
  };
  beforeEach(() => {
    for (const [k, v] of Object.entries(env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  afterEach(() => {
    for (const k of Object.keys(env)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it("a client holding its exports unread leaves a place for another; its next is refused 429", async () => {
    const id = await uploadGeneratedAiperf({ records: 300, seed: 3 });
    await waitForDrilldown(id);
    const ask = (headers: Record<string, string>) =>
      trace(new Request(`http://localhost/api/runs/${id}/trace.json`, { headers }), idParams(id));

    // Client A opens PER_CLIENT exports and reads none of them.
    const held = Array.from({ length: PER_CLIENT }, () => ask(A));
    await until(() => heavyReads.counts().active + heavyReads.counts().queued === PER_CLIENT);
    const queuedBefore = heavyReads.counts().queued;

    // Client B's export answers while A still holds its places: it is not queued behind them.
    const answer = ask(B);
    const first = await Promise.race([
      answer.then(() => "B answered"),
      until(() => heavyReads.counts().queued > queuedBefore).then(() => "B queued behind A"),
    ]);
    expect(first).toBe("B answered");
    const b = await answer;
    expect(b.status).toBe(200);
    expect(((await b.json()) as { traceEvents: unknown[] }).traceEvents.length).toBeGreaterThan(0);

    // A's next export is refused, with JSON and Retry-After; A's held ones still come.
    const refused = await ask(A);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.headers.get("content-type")).toContain("application/json");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("too_many_reads");

    const statuses = [];
    for (const res of held) {
      const r = await res;
      await r.arrayBuffer();
      statuses.push(r.status);
    }
    expect(statuses).toEqual(Array(PER_CLIENT).fill(200));
    expect(heavyReads.counts()).toEqual({ active: 0, queued: 0 });
    // Its places given back, A reads again.
    const again = await ask(A);
    await again.arrayBuffer();
    expect(again.status).toBe(200);
  }, 180_000);
});
