/**
 * A run's Dynamo spans (uploaded by ./dynamo-journey.ts) as a run stored before their pieces and
 * roots holds them, the whole list under `dynamo-spans` (lib/api/chart-catalog.ts DYNAMO_SPANS_CHART),
 * rebuilt from the pieces a run stores now.
 */
import { DYNAMO_SPAN_PIECES, DYNAMO_SPAN_ROOTS_CHART, DYNAMO_SPANS_CHART } from "@/lib/api/chart-catalog";
import type { DynamoSpansPayload } from "@/lib/api/request-journey";
import { getChartText } from "@/lib/store/chart-payloads";
import type { Db } from "@/lib/store/db";

/** The whole list of the run's spans, from its stored pieces (every traced request with an id). */
export async function wholeSpansOfPieces(db: Db, runId: string): Promise<DynamoSpansPayload> {
  const index = JSON.parse((await getChartText(db, runId, DYNAMO_SPAN_PIECES.index.key))!) as {
    pieces: number;
    withoutId: DynamoSpansPayload["withoutId"];
  };
  const requests: DynamoSpansPayload["requests"] = [];
  for (let n = 0; n < index.pieces; n++) {
    const piece = JSON.parse((await getChartText(db, runId, DYNAMO_SPAN_PIECES.piece(n).key))!) as {
      requests: DynamoSpansPayload["requests"];
    };
    requests.push(...piece.requests);
  }
  return { withoutId: index.withoutId, requests };
}

/**
 * Turns a run's stored spans into what a run stored before the pieces holds: the whole list,
 * no pieces; without the roots too when `roots` is false (stored before them as well).
 */
export async function storeSpansAsBefore(db: Db, runId: string, opts: { roots: boolean }): Promise<string> {
  const whole = JSON.stringify(await wholeSpansOfPieces(db, runId));
  await db
    .deleteFrom("chart_data")
    .where("run_id", "=", runId)
    .where((eb) =>
      eb.or([
        eb("key", "like", `${DYNAMO_SPAN_PIECES.index.key}%`),
        ...(opts.roots ? [] : [eb("key", "=", DYNAMO_SPAN_ROOTS_CHART.key)]),
      ]),
    )
    .execute();
  await db
    .insertInto("chart_data")
    .values({ run_id: runId, key: DYNAMO_SPANS_CHART.key, data: whole, version: DYNAMO_SPANS_CHART.version })
    .execute();
  return whole;
}
