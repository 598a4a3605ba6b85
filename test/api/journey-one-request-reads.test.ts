/**
 * One request's journey reads that request's piece only (issue 31, "No read blocks the server"):
 * a run's Dynamo spans and request-trace rows are stored again in pieces by x_request_id
 * (lib/metrics/request-pieces.ts), and GET /api/runs/{id}/timeline/requests/{rid}/journey reads
 * the piece its x_request_id falls in, some 64 requests whatever the run's size. Before, it read
 * and parsed every span and every trace row of the run (30 MB at 20,000 traced requests) to show
 * one request. A run stored before the pieces still answers, the same, from the whole lists.
 * On each store.
 *
 * Not a timing: characters handed to JSON.parse and pieces of stored text decoded.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { GET as requestJourney } from "@/app/api/runs/[id]/timeline/requests/[rid]/journey/route";
import { GET as timeline } from "@/app/api/runs/[id]/timeline/route";
import { DYNAMO_TRACE_REQUEST_PIECES, DYNAMO_TRACE_REQUESTS_CHART } from "@/lib/api/chart-catalog";
import { requestJourneySchema } from "@/lib/api/request-journey";
import { decodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
import { getChartText } from "@/lib/store/chart-payloads";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf, dynamoOtlpSpans } from "../generators/dynamo-otlp.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { storeSpansAsBefore, wholeSpansOfPieces } from "../helpers/dynamo-spans-before";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRun, waitForDrilldown } from "../helpers/test-app";

const RECORDS = 1500;
/**
 * The most one request's journey may parse, whatever the run's size: a piece holds some 64
 * requests of some 1.7 kB of spans each, a few times that for an unlucky piece.
 */
const PARSE_BOUND = 512 * 1024;
/** Requests whose journey is asked for. */
const ASKED = 5;

describe.each(TEST_STORES)("one request's journey reads its piece only (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("parses a bounded part of the spans and trace rows, with the same answer as the whole lists", async () => {
    const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-journey-one-"));
    let id: string;
    try {
      const run = await generateAiperfRun(gen, { records: RECORDS, concurrency: 8, seed: 13, csv: false });
      const clients = clientsOfAiperf(fs.readFileSync(run.jsonlPath, "utf8"));
      const trace = dynamoRequestTrace({
        requests: RECORDS,
        ids: clients.map((c: { x: string }) => c.x),
        receivedMs: clients.map((c: { startNs: bigint }) => Number(c.startNs / 1000n) / 1000 + 0.3),
      });
      id = await uploadRun([
        { name: "run/profile_export.jsonl", path: run.jsonlPath },
        { name: "run/profile_export_aiperf.json", path: run.summaryPath },
        { name: "run/dynamo-request-trace.jsonl", content: trace.text },
        { name: "run/otel-traces.jsonl", content: dynamoOtlpSpans({ clients }).text },
      ]);
    } finally {
      fs.rmSync(gen, { recursive: true, force: true });
    }
    await waitForDrilldown(id);
    const db = env.app.store.db;
    // The spans' whole list as a run stored before the pieces holds it (no longer stored now).
    const whole =
      JSON.stringify(await wholeSpansOfPieces(db, id)).length +
      (await getChartText(db, id, DYNAMO_TRACE_REQUESTS_CHART.key))!.length;
    // The whole lists are well past the bound: reading them breaks it.
    expect(whole).toBeGreaterThan(4 * PARSE_BOUND);

    const wire = await (
      await timeline(new Request(`http://localhost/api/runs/${id}/timeline`), idParams(id))
    ).json();
    const ids = decodeTimeline(timelineWireSchema.parse(wire)).bars.id;
    const rids = Array.from({ length: ASKED }, (_, i) => String(ids[Math.floor((i * ids.length) / ASKED)]));
    const ask = (rid: string) =>
      watched(() =>
        requestJourney(new Request(`http://localhost/api/runs/${id}/timeline/requests/${rid}/journey`), {
          params: Promise.resolve({ id, rid }),
        }),
      );

    const answers = [];
    for (const rid of rids) {
      const one = await ask(rid);
      expect(one.res.status).toBe(200);
      const j = requestJourneySchema.parse(await one.res.json());
      console.log(`request ${rid}: ${one.parsed} characters parsed of ${whole}; ${one.decodes} decoded`);
      expect(one.parsed).toBeLessThanOrEqual(PARSE_BOUND);
      expect(one.decodes).toBe(0);
      expect(j.lanes.some((l) => l.source === "spans")).toBe(true);
      expect(j.lanes.some((l) => l.source === "trace")).toBe(true);
      answers.push(j);
    }

    // A run stored before the pieces: every span and trace row read, the same answers.
    await storeSpansAsBefore(db, id, { roots: true });
    await db
      .deleteFrom("chart_data")
      .where("run_id", "=", id)
      .where("key", "like", `${DYNAMO_TRACE_REQUEST_PIECES.index.key}%`)
      .execute();
    for (const [i, rid] of rids.entries()) {
      const before = await ask(rid);
      expect(before.parsed).toBeGreaterThan(whole / 2);
      expect(requestJourneySchema.parse(await before.res.json())).toEqual(answers[i]);
    }
  }, 180_000);
});

/** What `read` parsed with JSON.parse (characters in all) and how many pieces of stored text it decoded. */
async function watched(read: () => Promise<Response>) {
  const parse = vi.spyOn(JSON, "parse");
  const decode = vi.spyOn(TextDecoder.prototype, "decode");
  try {
    const res = await read();
    return {
      res,
      parsed: parse.mock.calls.reduce((n, [text]) => n + String(text).length, 0),
      decodes: decode.mock.calls.filter(([, o]) => o?.stream === true).length,
    };
  } finally {
    parse.mockRestore();
    decode.mockRestore();
  }
}
