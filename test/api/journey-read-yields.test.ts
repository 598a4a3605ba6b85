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
 *
 * And it reads each traced request's root span only, stored apart at ingest
 * (`dynamo-span-roots`): the text it parses is under a fifth of the spans'. Before, it parsed
 * every span (some 200,000 objects at 20,000 traced requests, whose garbage collection held the
 * server beside the parse).
 */
import { describe, expect, it } from "vitest";
import { GET as journey } from "@/app/api/runs/[id]/journey/route";
import { DYNAMO_SPAN_ROOTS_CHART } from "@/lib/api/chart-catalog";
import { journeySummarySchema, requestJourneySchema } from "@/lib/api/request-journey";
import { JSON_PARSE_PIECE } from "@/lib/metrics/json-in-steps";
import { getChartText } from "@/lib/store/chart-payloads";
import {
  getRequestJourney,
  timelineRequestIds,
  uploadAiperfWithDynamo,
  watchedParse,
} from "../helpers/dynamo-journey";
import { storeSpansAsBefore, wholeSpansOfPieces } from "../helpers/dynamo-spans-before";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams } from "../helpers/test-app";

const RECORDS = 1500;

describe.each(TEST_STORES)("the journey summary reads its spans in turns (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("parses the stored spans a piece a turn and joins every request", async () => {
    const id = await uploadAiperfWithDynamo({ records: RECORDS, seed: 7 });
    const spans = JSON.stringify(await wholeSpansOfPieces(env.app.store.db, id));
    const roots = (await getChartText(env.app.store.db, id, DYNAMO_SPAN_ROOTS_CHART.key))!;
    const pieces = spans.length / JSON_PARSE_PIECE;
    expect(pieces).toBeGreaterThan(6);

    const { res, longest, parsed, decodes } = await watchedParse(() =>
      journey(new Request(`http://localhost/api/runs/${id}/journey`), idParams(id)),
    );
    console.log(
      `journey summary: longest JSON.parse ${longest}, ${parsed} in all, of ${spans.length} characters of spans (${roots.length} of roots); ${decodes} pieces decoded`,
    );
    expect(roots.length).toBeLessThan(spans.length / 5);
    expect(parsed).toBeLessThan(spans.length / 5);
    expect(res.status).toBe(200);
    const s = journeySummarySchema.parse(await res.json());
    expect(s.clientRequests).toBe(RECORDS);
    expect(s.joined).toBe(RECORDS);
    expect(longest).toBeLessThanOrEqual(2 * JSON_PARSE_PIECE + 2);

    // One request's journey reads the piece of its x_request_id only
    // (test/api/journey-one-request-reads.test.ts).
    const rid = (await timelineRequestIds(id))[0];
    const one = await watchedParse(() => getRequestJourney(id, rid));
    console.log(`one request's journey: longest JSON.parse ${one.longest}; ${one.decodes} pieces decoded`);
    expect(one.res.status).toBe(200);
    expect(requestJourneySchema.parse(await one.res.json()).lanes.some((l) => l.source === "spans")).toBe(
      true,
    );
    expect(one.longest).toBeLessThanOrEqual(2 * JSON_PARSE_PIECE + 2);
    expect(one.parsed).toBeLessThan(spans.length / 5);

    // A run stored before the roots were: the summary takes them from its spans, the same answer.
    await storeSpansAsBefore(env.app.store.db, id, { roots: false });
    const before = await journey(new Request(`http://localhost/api/runs/${id}/journey`), idParams(id));
    expect(journeySummarySchema.parse(await before.json())).toEqual(s);
  }, 120_000);
});
