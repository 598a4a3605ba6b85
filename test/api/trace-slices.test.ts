/**
 * Issue 31, "No read blocks the server": an aiperf trace export converts and shapes its sampled
 * rows a slice at a time, with a turn of the event loop between slices, so /api/health answers
 * while it runs. Before, DuckDB's chunk of the sample (2,000 rows of a 200,000-request run) was
 * converted to JS values in one piece and shaped as one page: 216 ms of CPU in one stretch at
 * load 33–39, beside the 435 ms of the process's first number formatter (test/unit/intl-once.test.ts).
 *
 * Counted, never timed: the rows DuckDB converts between two pauses (the export's `pause`,
 * injected here), the requests written between two pauses, and the order in which a health
 * request and the export resolve.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { DuckDBDataChunk } from "@duckdb/node-api";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getHealth } from "@/app/api/health/route";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import { runTrace } from "@/lib/runs/run-trace";
import { ROW_SLICE } from "@/lib/store/columnar/engine";
import { useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadGeneratedAiperf, waitForDrilldown } from "../helpers/test-app";

const RECORDS = 6000;
const KEPT = 2000;
/** Requests the trace writer shapes between two pauses (lib/runs/run-trace.ts) */
const REQUESTS_PER_TURN = 200;

/**
 * Counts the rows DuckDB converts to JS values: every row goes through convertRowValues, whether
 * a chunk is converted whole (yieldRowsJs, as the export did) or a slice at a time; `onFirst` is
 * called at the first.
 */
function countConversions(onFirst: () => void = () => {}) {
  const counter = { rows: 0 };
  const one = DuckDBDataChunk.prototype.convertRowValues;
  vi.spyOn(DuckDBDataChunk.prototype, "convertRowValues").mockImplementation(function (
    this: DuckDBDataChunk,
    ...a: Parameters<typeof one>
  ) {
    if (counter.rows++ === 0) onFirst();
    return one.apply(this, a);
  });
  return counter;
}

/** Lifetimes of requests in a piece of trace text (each request has one, its TTFT span apart). */
const requestsIn = (text: string) =>
  text.split("\n").filter((l) => l.includes('"ph":"X"') && !l.includes('"cat":"ttft"')).length;

describe("an aiperf trace export in slices", () => {
  const t = useStoreTestApp(undefined);
  let id: string;

  beforeAll(async () => {
    id = await uploadGeneratedAiperf({ records: RECORDS, concurrency: 16, seed: 31 });
    await waitForDrilldown(id);
  }, 240_000);

  afterEach(() => vi.restoreAllMocks());

  it("converts at most a slice of rows and writes at most 200 requests between two pauses", async () => {
    const converted = countConversions();
    let pauses = 0;
    let convertedSince = 0;
    let requestsSince = 0;
    let maxConverted = 0;
    let maxRequests = 0;
    const pause = async () => {
      pauses++;
      maxConverted = Math.max(maxConverted, converted.rows - convertedSince);
      convertedSince = converted.rows;
      maxRequests = Math.max(maxRequests, requestsSince);
      requestsSince = 0;
      await nextTurn();
    };
    const trace = await runTrace(t.app.store.db, id, undefined, { pause });
    if (trace === null || trace === "empty") throw new Error("no trace");
    let text = "";
    for await (const chunk of trace.chunks) {
      requestsSince += requestsIn(chunk);
      text += chunk;
    }
    maxConverted = Math.max(maxConverted, converted.rows - convertedSince);
    maxRequests = Math.max(maxRequests, requestsSince);
    const parsed = JSON.parse(text) as { otherData: Record<string, string> };
    expect(parsed.otherData).toMatchObject({ requests: String(RECORDS), requestsInTrace: String(KEPT) });
    expect(requestsIn(text)).toBe(KEPT);
    console.log(
      `trace of ${RECORDS} records: ${converted.rows} rows converted, ${pauses} pauses, at most ${maxConverted} rows converted and ${maxRequests} requests written between two`,
    );
    // Before: the sample's 2,000 rows converted in one piece (one DuckDB chunk).
    expect(maxConverted).toBeLessThanOrEqual(ROW_SLICE);
    expect(maxRequests).toBeLessThanOrEqual(REQUESTS_PER_TURN);
    // At least one pause per slice of the sample converted, and per 200 requests written.
    expect(pauses).toBeGreaterThanOrEqual(KEPT / ROW_SLICE + KEPT / REQUESTS_PER_TURN - 1);
  });

  it("answers a health request asked as the sample's conversion starts before the sample is converted", async () => {
    const order: string[] = [];
    let health: Promise<void> | undefined;
    let convertedAtHealth = -1;
    let asked!: () => void;
    const started = new Promise<void>((resolve) => (asked = resolve));
    // The first row converted asks for health (the deferred resolves it).
    const converted = countConversions(() => asked());
    void started.then(() => {
      health = getHealth(new Request("http://localhost/api/health"), { params: Promise.resolve({}) }).then(
        async (res) => {
          expect(res.status).toBe(200);
          await res.json();
          convertedAtHealth = converted.rows;
          order.push("health");
        },
      );
    });
    const res = await getTrace(new Request(`http://localhost/api/runs/${id}/trace.json`), idParams(id));
    expect(res.status).toBe(200);
    const text = await res.text();
    order.push("export");
    await health;
    expect(requestsIn(text)).toBe(KEPT);
    console.log(`health answered after ${convertedAtHealth} of the sample's ${KEPT} rows were converted`);
    expect(order).toEqual(["health", "export"]);
    // Before: the whole sample was converted in the turn that started it.
    expect(convertedAtHealth).toBeLessThan(KEPT / 2);
  });
});
