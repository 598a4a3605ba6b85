import { expect } from "vitest";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getTimeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as getVerdicts } from "@/app/api/runs/[id]/verdicts/route";
import { GET as getSweep } from "@/app/api/sweeps/[id]/route";
import { runSummarySchema, type RunFile, type RunSummary } from "@/lib/api/schemas";
import { decodeTimeline, timelineWireSchema, type TimelinePayload } from "@/lib/api/timeline";
import { sweepSchema, type Sweep } from "@/lib/api/sweeps";
import { gateResultSchema, type GateResult } from "@/lib/api/regression-schemas";
import { idParams } from "./test-app";

/** GET /api/runs/{id}, expected to answer 200, read by its wire schema. */
export async function readRun(id: string): Promise<RunSummary> {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  expect(res.status).toBe(200);
  return runSummarySchema.parse(await res.json());
}

/** Run `id`, expected ready, and its files by name (GET /api/runs/{id}, read by its wire schema). */
export async function readReadyRun(id: string): Promise<{ run: RunSummary; files: Map<string, RunFile> }> {
  const run = await readRun(id);
  expect(run.status).toBe("ready");
  return { run, files: new Map(run.files.map((f) => [f.name, f])) };
}

/** GET /api/runs/{id}/timeline (the whole run, default lanes and limit): its bars, decoded. */
export async function readTimelineBars(id: string): Promise<TimelinePayload["bars"]> {
  const res = await getTimeline(new Request(`http://localhost/api/runs/${id}/timeline`), idParams(id));
  expect(res.status).toBe(200);
  return decodeTimeline(timelineWireSchema.parse(await res.json())).bars;
}

/** GET /api/sweeps/{id}, expected to answer 200, read by its wire schema. */
export async function readSweep(id: string): Promise<Sweep> {
  const res = await getSweep(new Request(`http://localhost/api/sweeps/${id}`), idParams(id));
  expect(res.status).toBe(200);
  return sweepSchema.parse(await res.json());
}

/** GET /api/runs/{id}/charts/{key}, expected to answer 200: the stored payload as sent. */
export async function readChart(id: string, key: string): Promise<unknown> {
  const res = await getChart(new Request(`http://localhost/api/runs/${id}/charts/${key}`), {
    params: Promise.resolve({ id, key }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** GET /api/runs/{id}/verdicts?{qs}: the gate's answer, read by its wire schema. */
export async function readGate(id: string, qs: string): Promise<GateResult> {
  const res = await getVerdicts(new Request(`http://localhost/api/runs/${id}/verdicts?${qs}`), idParams(id));
  return gateResultSchema.parse(await res.json());
}
