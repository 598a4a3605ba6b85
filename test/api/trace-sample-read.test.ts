/**
 * An aiperf run's trace export reads only the requests it keeps (issue 31, "No read blocks the
 * server"): the trace samples at most 2,000 requests (positions ⌊i · n / 2,000⌋ of the
 * start-ordered records, the over-time charts' rule), and DuckDB now hands over those rows only.
 * Before, every timed record of the run's request file was converted to JS values and all but
 * the sample dropped: on a 200,000-request run some 7 s of CPU in one export, most of it garbage
 * collection, which held /api/health for up to 2 s (node --cpu-prof at load 35).
 *
 * And its events are written 200 requests a turn: the sample is one page, whose events were
 * written in one 1.1 MB piece (0.3–0.7 s of the loop at load 40).
 *
 * Not a timing: the rows DuckDB converts for the export are counted, and the trace's requests are
 * those at the sampled positions of the generated records (test/generators/aiperf.mjs), ordered
 * by their `request_start_ns` as aiperf writes it. On each store.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBDataChunk } from "@duckdb/node-api";
import { describe, expect, it, vi } from "vitest";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRun, waitForDrilldown } from "../helpers/test-app";

const RECORDS = 12_000;
const KEPT = 2000;

describe.each(TEST_STORES)("an aiperf trace reads only its sample (%s)", (_store, pgUrl) => {
  useStoreTestApp(pgUrl);

  it("converts the sampled records only, and they are the records at the sampled positions", async () => {
    const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trace-sample-"));
    let id: string;
    let expected: string[];
    try {
      const run = await generateAiperfRun(gen, { records: RECORDS, concurrency: 16, seed: 3, csv: false });
      const records = fs
        .readFileSync(run.jsonlPath, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l, line) => {
          const m = (JSON.parse(l) as { metadata: { x_request_id: string; request_start_ns: number } })
            .metadata;
          return { id: m.x_request_id, start: BigInt(m.request_start_ns), line };
        });
      expect(records).toHaveLength(RECORDS);
      records.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.line - b.line));
      const step = RECORDS / KEPT;
      expected = Array.from({ length: KEPT }, (_, i) => records[Math.floor(i * step)].id);
      id = await uploadRun([
        { name: "run/profile_export.jsonl", path: run.jsonlPath },
        { name: "run/profile_export_aiperf.json", path: run.summaryPath },
      ]);
    } finally {
      fs.rmSync(gen, { recursive: true, force: true });
    }
    await waitForDrilldown(id);

    // Every row DuckDB hands over to JS goes through convertRowValues (a chunk at a time, as
    // yieldRowsJs does, or a slice at a time, as the export now reads its sample).
    let converted = 0;
    const original = DuckDBDataChunk.prototype.convertRowValues;
    const spy = vi.spyOn(DuckDBDataChunk.prototype, "convertRowValues").mockImplementation(function (
      this: DuckDBDataChunk,
      ...a: Parameters<typeof original>
    ) {
      converted++;
      return original.apply(this, a);
    });
    const chunks: number[] = [];
    let text = "";
    try {
      const res = await getTrace(new Request(`http://localhost/api/runs/${id}/trace.json`), idParams(id));
      expect(res.status).toBe(200);
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        chunks.push(r.value.byteLength);
        text += decoder.decode(r.value, { stream: true });
      }
      text += decoder.decode();
    } finally {
      spy.mockRestore();
    }
    console.log(
      `trace of ${RECORDS} records: ${converted} rows converted from DuckDB, ${text.length} characters in ${chunks.length} chunks, the largest ${Math.max(...chunks)} B`,
    );
    // Written 200 requests a turn (some 110 kB): before, the sample's events in one 1.1 MB piece.
    expect(chunks.length).toBeGreaterThanOrEqual(KEPT / 200);
    expect(Math.max(...chunks)).toBeLessThan(256 * 1024);
    const trace = JSON.parse(text) as {
      otherData: Record<string, string>;
      traceEvents: Array<{ ph: string; cat?: string; args?: { request?: string } }>;
    };
    expect(trace.otherData).toMatchObject({ requests: String(RECORDS), requestsInTrace: String(KEPT) });
    const lifetimes = trace.traceEvents.filter((e) => e.ph === "X" && e.cat !== "ttft");
    expect(lifetimes.map((e) => e.args?.request)).toEqual(expected);
    // The sample's 2,000 rows (the count of timed records is read as an object, apart). Before:
    // every record, 12,000.
    expect(converted).toBeLessThanOrEqual(KEPT + 1);
    expect(converted).toBeGreaterThanOrEqual(KEPT);
  }, 240_000);
});
