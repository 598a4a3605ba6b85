/**
 * Every chart payload the chart route serves is bounded (issue 31, "chart payloads are
 * bounded"): a run's per-request Dynamo data (its spans, 32 MB for 20,000 traced requests of a
 * 200,000-request run, and its request-trace rows) is stored for the request journey and never
 * served whole by GET /api/runs/{id}/charts/{key}; it answers `404 chart_not_served`, before
 * reading anything. Before, the route answered the whole stored text. On each store.
 *
 * The run: aiperf records (test/generators/aiperf.mjs) with Dynamo's OTLP spans for each request
 * (test/generators/dynamo-otlp.mjs) and its request trace for the first 200
 * (test/generators/dynamo-request-trace.mjs), uploaded as one run. Not a timing: bytes answered
 * per stored key.
 */
import { describe, expect, it } from "vitest";
import { GET as chartRoute } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as journey } from "@/app/api/runs/[id]/journey/route";
import {
  chartByKey,
  DYNAMO_SPAN_PIECES,
  DYNAMO_SPANS_CHART,
  DYNAMO_TRACE_REQUESTS_CHART,
} from "@/lib/api/chart-catalog";
import { CHART_NOT_SERVED } from "@/lib/api/chart-upgrade";
import { journeySummarySchema, requestJourneySchema } from "@/lib/api/request-journey";
import { getChartText } from "@/lib/store/chart-payloads";
import { getRequestJourney, timelineRequestIds, uploadAiperfWithDynamo } from "../helpers/dynamo-journey";
import { wholeSpansOfPieces } from "../helpers/dynamo-spans-before";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams } from "../helpers/test-app";

const RECORDS = 1500;
const TRACED = 200;
/** The most any served chart of this run may answer: the spans alone are some 2.5 MB. */
const SERVED_BOUND = 256 * 1024;

describe.each(TEST_STORES)("chart payloads served are bounded (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("serves no run's per-request Dynamo data whole, and the journey still reads it", async () => {
    // The trace for the first requests only: each of its rows is an agent session too, which the
    // Sessions view lists (agent-sessions), and those are not what this test bounds.
    const id = await uploadAiperfWithDynamo({ records: RECORDS, seed: 11, traced: TRACED });
    const db = env.app.store.db;
    // The spans are stored in pieces (the whole list no longer, test/api/dynamo-span-storage.test.ts).
    const spansText = JSON.stringify(await wholeSpansOfPieces(db, id));
    const traceText = (await getChartText(db, id, DYNAMO_TRACE_REQUESTS_CHART.key))!;
    // Stored; the spans larger than the bound, so serving them whole would break it.
    expect(Buffer.byteLength(spansText)).toBeGreaterThan(4 * SERVED_BOUND);
    expect(traceText.length).toBeGreaterThan(0);

    const keys = (await db.selectFrom("chart_data").select("key").where("run_id", "=", id).execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(
      expect.arrayContaining([DYNAMO_SPAN_PIECES.index.key, DYNAMO_TRACE_REQUESTS_CHART.key]),
    );
    const answered: string[] = [];
    for (const key of keys) {
      const res = await chartRoute(new Request(`http://localhost/api/runs/${id}/charts/${key}`), {
        params: Promise.resolve({ id, key }),
      });
      const bytes = (await res.arrayBuffer()).byteLength;
      answered.push(`${key} ${res.status} ${bytes} B`);
      expect(bytes, key).toBeLessThanOrEqual(SERVED_BOUND);
      const chart = chartByKey(key);
      if (chart?.served === false) expect(res.status, key).toBe(404);
      else expect(res.status, key).toBe(200);
    }
    console.log(
      `stored: spans ${Buffer.byteLength(spansText)} B, trace rows ${Buffer.byteLength(traceText)} B; served: ${answered.join(", ")}`,
    );
    const refused = await chartRoute(new Request(`http://localhost/api/runs/${id}/charts/dynamo-spans`), {
      params: Promise.resolve({ id, key: DYNAMO_SPANS_CHART.key }),
    });
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(CHART_NOT_SERVED);

    // What reads the data still has it: the summary joins every request, one request has its spans.
    const s = journeySummarySchema.parse(
      await (await journey(new Request(`http://localhost/api/runs/${id}/journey`), idParams(id))).json(),
    );
    expect(s.joined).toBe(RECORDS);
    expect(s.serverSource).toBe("spans");
    const rid = (await timelineRequestIds(id))[0];
    const one = requestJourneySchema.parse(await (await getRequestJourney(id, rid)).json());
    expect(one.lanes.some((l) => l.source === "spans")).toBe(true);
    expect(one.lanes.some((l) => l.source === "trace")).toBe(true);
  }, 180_000);
});
