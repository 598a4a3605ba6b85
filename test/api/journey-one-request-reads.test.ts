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
import { describe, expect, it } from "vitest";
import { DYNAMO_TRACE_REQUEST_PIECES, DYNAMO_TRACE_REQUESTS_CHART } from "@/lib/api/chart-catalog";
import { requestJourneySchema } from "@/lib/api/request-journey";
import { getChartText } from "@/lib/store/chart-payloads";
import {
  getRequestJourney,
  timelineRequestIds,
  uploadAiperfWithDynamo,
  watchedParse,
} from "../helpers/dynamo-journey";
import { storeSpansAsBefore, wholeSpansOfPieces } from "../helpers/dynamo-spans-before";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";

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
    const id = await uploadAiperfWithDynamo({ records: RECORDS, seed: 13, traced: RECORDS });
    const db = env.app.store.db;
    // The spans' whole list as a run stored before the pieces holds it (no longer stored now).
    const whole =
      JSON.stringify(await wholeSpansOfPieces(db, id)).length +
      (await getChartText(db, id, DYNAMO_TRACE_REQUESTS_CHART.key))!.length;
    // The whole lists are well past the bound: reading them breaks it.
    expect(whole).toBeGreaterThan(4 * PARSE_BOUND);

    const ids = await timelineRequestIds(id);
    const rids = Array.from({ length: ASKED }, (_, i) => ids[Math.floor((i * ids.length) / ASKED)]);
    const ask = (rid: string) => watchedParse(() => getRequestJourney(id, rid));

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
