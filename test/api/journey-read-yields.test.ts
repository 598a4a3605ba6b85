/**
 * The journey summary reads the run's stored Dynamo spans a piece a turn (issue 31, "No read
 * blocks the server"): the spans of 20,000 requests are some 30 MB of JSON, which
 * lib/runs/request-journey.ts parsed and checked in one piece (over a second of the event loop
 * on a 200,000-request run, test/bench/health-during-reads.mjs). On each store.
 *
 * Not a timing: no JSON.parse call during the summary reads more than two pieces of text
 * (lib/metrics/json-in-steps.ts); before, one read the whole of the spans' text. On SQLite the
 * text comes from a worker thread as bytes, decoded a MB a call; before, better-sqlite3 read and
 * decoded it on the main thread.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { GET as journey } from "@/app/api/runs/[id]/journey/route";
import { DYNAMO_SPANS_CHART } from "@/lib/api/chart-catalog";
import { journeySummarySchema } from "@/lib/api/request-journey";
import { JSON_PARSE_PIECE } from "@/lib/metrics/json-in-steps";
import { getChartText } from "@/lib/store/chart-payloads";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf, dynamoOtlpSpans } from "../generators/dynamo-otlp.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRun, waitForDrilldown } from "../helpers/test-app";

const RECORDS = 1500;

describe.each(TEST_STORES)("the journey summary reads its spans in turns (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("parses the stored spans a piece a turn and joins every request", async () => {
    const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-journey-yields-"));
    let id: string;
    try {
      const run = await generateAiperfRun(gen, { records: RECORDS, concurrency: 8, seed: 7, csv: false });
      const clients = clientsOfAiperf(fs.readFileSync(run.jsonlPath, "utf8"));
      id = await uploadRun([
        { name: "run/profile_export.jsonl", path: run.jsonlPath },
        { name: "run/profile_export_aiperf.json", path: run.summaryPath },
        { name: "run/otel-traces.jsonl", content: dynamoOtlpSpans({ clients }).text },
      ]);
    } finally {
      fs.rmSync(gen, { recursive: true, force: true });
    }
    await waitForDrilldown(id);
    const spans = (await getChartText(env.app.store.db, id, DYNAMO_SPANS_CHART.key))!;
    const pieces = spans.length / JSON_PARSE_PIECE;
    expect(pieces).toBeGreaterThan(6);

    const parse = vi.spyOn(JSON, "parse");
    const decode = vi.spyOn(TextDecoder.prototype, "decode");
    let res: Response;
    let longest = 0;
    let decodes = 0;
    try {
      res = await journey(new Request(`http://localhost/api/runs/${id}/journey`), idParams(id));
      longest = Math.max(...parse.mock.calls.map(([text]) => String(text).length));
      decodes = decode.mock.calls.filter(([, o]) => o?.stream === true).length;
    } finally {
      parse.mockRestore();
      decode.mockRestore();
    }
    console.log(
      `journey summary: longest JSON.parse ${longest} of ${spans.length} characters; ${decodes} pieces decoded`,
    );
    // On SQLite the text is read on a worker thread and decoded a MB a turn (lib/store/chart-payloads.ts).
    if (!pgUrl) expect(decodes).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(spans) / (1 << 20)));
    expect(res.status).toBe(200);
    const s = journeySummarySchema.parse(await res.json());
    expect(s.clientRequests).toBe(RECORDS);
    expect(s.joined).toBe(RECORDS);
    expect(longest).toBeLessThanOrEqual(2 * JSON_PARSE_PIECE + 2);
  }, 120_000);
});
