/**
 * A generated aiperf run with Dynamo's OTLP spans for each request (and, when asked, its request
 * trace), uploaded as one run, and the reads the request-journey tests make of it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { vi } from "vitest";
import { GET as requestJourney } from "@/app/api/runs/[id]/timeline/requests/[rid]/journey/route";
import { GET as timeline } from "@/app/api/runs/[id]/timeline/route";
import { decodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf, dynamoOtlpSpans } from "../generators/dynamo-otlp.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { idParams, uploadRun, waitForDrilldown } from "./test-app";

/**
 * Generates an aiperf run of `records` (concurrency 8, records only) with Dynamo's OTLP spans for
 * every request and, when `traced` is given, Dynamo's request trace for its first `traced`
 * requests; uploads them as one run and waits for its drill-down. Returns the run's id.
 */
export async function uploadAiperfWithDynamo(opts: {
  records: number;
  seed: number;
  traced?: number;
}): Promise<string> {
  const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-dynamo-journey-"));
  let id: string;
  try {
    const run = await generateAiperfRun(gen, {
      records: opts.records,
      concurrency: 8,
      seed: opts.seed,
      csv: false,
    });
    const clients = clientsOfAiperf(fs.readFileSync(run.jsonlPath, "utf8"));
    const files: Parameters<typeof uploadRun>[0] = [
      { name: "run/profile_export.jsonl", path: run.jsonlPath },
      { name: "run/profile_export_aiperf.json", path: run.summaryPath },
    ];
    if (opts.traced !== undefined) {
      const traced = clients.slice(0, opts.traced);
      const trace = dynamoRequestTrace({
        requests: opts.traced,
        ids: traced.map((c) => c.x),
        receivedMs: traced.map((c) => Number(c.startNs / 1000n) / 1000 + 0.3),
      });
      files.push({ name: "run/dynamo-request-trace.jsonl", content: trace.text });
    }
    files.push({ name: "run/otel-traces.jsonl", content: dynamoOtlpSpans({ clients }).text });
    id = await uploadRun(files);
  } finally {
    fs.rmSync(gen, { recursive: true, force: true });
  }
  await waitForDrilldown(id);
  return id;
}

/** The ids of the run's requests, in the order GET /api/runs/{id}/timeline answers their bars. */
export async function timelineRequestIds(id: string): Promise<string[]> {
  const wire = await (
    await timeline(new Request(`http://localhost/api/runs/${id}/timeline`), idParams(id))
  ).json();
  return Array.from(decodeTimeline(timelineWireSchema.parse(wire)).bars.id, String);
}

/** GET /api/runs/{id}/timeline/requests/{rid}/journey. */
export function getRequestJourney(id: string, rid: string): Promise<Response> {
  return requestJourney(new Request(`http://localhost/api/runs/${id}/timeline/requests/${rid}/journey`), {
    params: Promise.resolve({ id, rid }),
  });
}

/**
 * What `read` parsed with JSON.parse (its longest text and its total, in characters) and how many
 * pieces of stored text it decoded as a stream.
 */
export async function watchedParse(read: () => Promise<Response>) {
  const parse = vi.spyOn(JSON, "parse");
  const decode = vi.spyOn(TextDecoder.prototype, "decode");
  try {
    const res = await read();
    return {
      res,
      longest: parse.mock.calls.reduce((n, [text]) => Math.max(n, String(text).length), 0),
      parsed: parse.mock.calls.reduce((n, [text]) => n + String(text).length, 0),
      decodes: decode.mock.calls.filter(([, o]) => o?.stream === true).length,
    };
  } finally {
    parse.mockRestore();
    decode.mockRestore();
  }
}
