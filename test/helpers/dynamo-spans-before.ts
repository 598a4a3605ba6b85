/**
 * Runs with Dynamo spans for the tests of their readers: an aiperf run uploaded with the OTLP
 * spans of each of its requests, and its spans as a run stored before their pieces and roots
 * holds them, the whole list under `dynamo-spans` (lib/api/chart-catalog.ts DYNAMO_SPANS_CHART),
 * rebuilt from the pieces a run stores now.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DYNAMO_SPAN_PIECES, DYNAMO_SPAN_ROOTS_CHART, DYNAMO_SPANS_CHART } from "@/lib/api/chart-catalog";
import type { DynamoSpansPayload } from "@/lib/api/request-journey";
import { getChartText } from "@/lib/store/chart-payloads";
import type { Db } from "@/lib/store/db";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf, dynamoOtlpSpans } from "../generators/dynamo-otlp.mjs";
import { uploadRun } from "./test-app";

/** Uploads a generated aiperf run of `records` requests with Dynamo's spans for each; its id. */
export async function uploadAiperfWithSpans(records: number, seed: number): Promise<string> {
  const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-aiperf-spans-"));
  try {
    const run = await generateAiperfRun(gen, { records, concurrency: 8, seed, csv: false });
    const clients = clientsOfAiperf(fs.readFileSync(run.jsonlPath, "utf8"));
    return await uploadRun([
      { name: "run/profile_export.jsonl", path: run.jsonlPath },
      { name: "run/profile_export_aiperf.json", path: run.summaryPath },
      { name: "run/otel-traces.jsonl", content: dynamoOtlpSpans({ clients }).text },
    ]);
  } finally {
    fs.rmSync(gen, { recursive: true, force: true });
  }
}

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
