/**
 * What the TensorRT-LLM journey tests (test/api/journey-*.test.ts) build and read: a generated
 * aiperf run whose request ids they choose, and every Timeline bar's journey through the routes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { GET as getRequestJourney } from "@/app/api/runs/[id]/timeline/requests/[rid]/journey/route";
import { GET as getTimeline } from "@/app/api/runs/[id]/timeline/route";
import { requestJourneySchema, type RequestJourney } from "@/lib/api/request-journey";
import { decodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf } from "../generators/dynamo-otlp.mjs";
import { idParams } from "./test-app";

/** An aiperf record as a client saw it: its x_request_id, start, TTFT and E2E. */
export type Client = { x: string; startNs: bigint; ttftMs: number; e2eMs: number };

const url = (p: string) => new Request(`http://localhost${p}`);

/**
 * An aiperf run of `records` requests (concurrency 1, records and summary only), each
 * x_request_id replaced by `rewrite(id, i)`: its clients and its files.
 */
export async function aiperfRun(
  records: number,
  seed: number,
  rewrite: (x: string, i: number) => string = (x) => x,
): Promise<{ clients: Client[]; files: Array<{ name: string; content: string }> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-journey-run-"));
  try {
    const gen = await generateAiperfRun(dir, { records, concurrency: 1, seed, csv: false });
    let jsonl = fs.readFileSync(gen.jsonlPath, "utf8");
    clientsOfAiperf(jsonl).forEach((c: Client, i: number) => {
      jsonl = jsonl.split(c.x).join(rewrite(c.x, i));
    });
    const files = [
      { name: "run/profile_export.jsonl", content: jsonl },
      { name: "run/profile_export_aiperf.json", content: fs.readFileSync(gen.summaryPath, "utf8") },
    ];
    return { clients: clientsOfAiperf(jsonl) as Client[], files };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every bar of the run's Timeline with its journey, through the Timeline's request-detail route. */
export async function barJourneys(id: string): Promise<{ source: string; journeys: RequestJourney[] }> {
  const res = await getTimeline(url(`/api/runs/${id}/timeline`), idParams(id));
  const p = decodeTimeline(timelineWireSchema.parse(await res.json()));
  const journeys: RequestJourney[] = [];
  for (const rid of p.bars.id) {
    const r = await getRequestJourney(url(`/api/runs/${id}/timeline/requests/${rid}/journey`), {
      params: Promise.resolve({ id, rid: String(rid) }),
    });
    expect(r.status).toBe(200);
    journeys.push(requestJourneySchema.parse(await r.json()));
  }
  return { source: p.source, journeys };
}

/**
 * Every bar of a run whose Timeline is drawn from TensorRT-LLM's requests, checking that the bars
 * joined to a client's record are exactly `joining` (by x_request_id): all the journeys and the
 * joined ones.
 */
export async function trtllmJourneys(
  id: string,
  joining: Client[],
): Promise<{ journeys: RequestJourney[]; joined: RequestJourney[] }> {
  const { source, journeys } = await barJourneys(id);
  expect(source).toBe("trtllm");
  const joined = journeys.filter((j) => j.xRequestId !== null);
  expect(joined.map((j) => j.xRequestId).sort()).toEqual(joining.map((c) => c.x).sort());
  return { journeys, joined };
}
