/**
 * GET /api/runs/{id}/requests/by-id?rid=: a request found by its own id (the run page's `?rid=`
 * link), on both stores, for runs built by the producers' generators: TensorRT-LLM perf metrics
 * (test/generators/trtllm.mjs) and aiperf records (test/generators/aiperf.mjs). The ids looked up
 * are the producers' own, read from the files uploaded; the position found must open the request
 * carrying that id in its drill-down.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as byId } from "@/app/api/runs/[id]/requests/by-id/route";
import { GET as getTimelineRequest } from "@/app/api/runs/[id]/timeline/requests/[rid]/route";
import { GET as getDetail } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { requestByIdSchema } from "@/lib/api/request-by-id";
import { timelineRequestSchema } from "@/lib/api/timeline";
import { requestDetailSchema } from "@/lib/api/trtllm-charts";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRequest } from "../helpers/test-app";

const url = (p: string) => new Request(`http://localhost${p}`);
const tmp = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `runlens-by-id-${name}-`));

async function uploadFiles(files: string[]): Promise<string> {
  const res = await upload(uploadRequest(files.map((p) => ({ name: path.basename(p), path: p }))));
  expect(res.status).toBe(201);
  return (await res.json()).id as string;
}

const lookup = (id: string, rid: string) =>
  byId(url(`/api/runs/${id}/requests/by-id?${new URLSearchParams({ rid })}`), idParams(id));

async function found(id: string, rid: string) {
  const res = await lookup(id, rid);
  expect(res.status).toBe(200);
  return requestByIdSchema.parse(await res.json());
}

async function trtllmDetail(id: string, idx: number) {
  const res = await getDetail(url(`/api/runs/${id}/trtllm/requests/${idx}`), {
    params: Promise.resolve({ id, idx: String(idx) }),
  });
  expect(res.status).toBe(200);
  return requestDetailSchema.parse(await res.json());
}

/** The producer's records of a generated file, one JSON value a line. */
const records = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

for (const [store, pgUrl] of TEST_STORES) {
  describe(`a request by its own id (${store})`, () => {
    useStoreTestApp(pgUrl);

    it("opens a disaggregated TensorRT-LLM request by its disagg_request_id", async () => {
      const gen = generateTrtllmRun({ dir: tmp("disagg"), mode: "disaggregated", requests: 60, seed: 3 });
      const id = await uploadFiles(gen.files);
      const router = gen.files.find((f: string) => path.basename(f).startsWith("perf_metrics-disagg"))!;
      const disaggIds = records(router).map((r) => String(r.disagg_request_id));
      expect(disaggIds).toHaveLength(60);
      for (const rid of [disaggIds[0], disaggIds[41]]) {
        const a = await found(id, rid);
        expect(a).toMatchObject({ source: "trtllm", matches: 1 });
        expect((await trtllmDetail(id, a.position)).disaggRequestId).toBe(rid);
      }
    });

    it("opens an aggregated TensorRT-LLM request by its request_id", async () => {
      const gen = generateTrtllmRun({ dir: tmp("agg"), mode: "aggregated", requests: 40, seed: 5 });
      const id = await uploadFiles(gen.files);
      const requestIds = gen.files.flatMap((f: string) => records(f).map((r) => String(r.request_id)));
      const rid = requestIds[17];
      const a = await found(id, rid);
      expect(a).toMatchObject({ source: "trtllm", matches: 1 });
      const d = await trtllmDetail(id, a.position);
      expect(d.requestId).toBe(rid);
      expect(d.disaggRequestId).toBeNull();
    });

    it("opens an aiperf record by its x_request_id as the timeline's bar, and refuses a warm-up one", async () => {
      const run = await generateAiperfRun(tmp("aiperf"), {
        records: 80,
        warmup: 4,
        concurrency: 4,
        csv: false,
      });
      const id = await uploadFiles([run.jsonlPath, run.summaryPath]);
      const lines = records(run.jsonlPath);
      const profiling = lines.filter((l) => l.metadata.benchmark_phase === "profiling");
      const rec = profiling[33];
      const rid = rec.metadata.x_request_id as string;
      const a = await found(id, rid);
      expect(a).toMatchObject({ source: "aiperf", matches: 1 });
      const res = await getTimelineRequest(url(`/api/runs/${id}/timeline/requests/${a.position}`), {
        params: Promise.resolve({ id, rid: String(a.position) }),
      });
      expect(res.status).toBe(200);
      const r = timelineRequestSchema.parse(await res.json());
      expect(r.requestId).toBe(rid);
      expect(r.ttftMs).toBeCloseTo(rec.metrics.time_to_first_token.value, 6);

      const warm = lines.find((l) => l.metadata.benchmark_phase === "warmup")!;
      const w = await lookup(id, warm.metadata.x_request_id);
      expect(w.status).toBe(404);
      expect((await w.json()).error.message).toMatch(/has no drill-down: it is a warm-up request/);
    });

    it("says an unknown id is not in the run: a 404 with words, never an empty answer", async () => {
      const gen = generateTrtllmRun({ dir: tmp("unknown"), mode: "disaggregated", requests: 10, seed: 9 });
      const id = await uploadFiles(gen.files);
      const res = await lookup(id, "no-such-request");
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        error: { code: "not_found", message: "no request with id no-such-request in this run" },
      });
      // An unknown run is the run's 404; an empty id is a bad query.
      expect((await lookup("nope", "1")).status).toBe(404);
      expect((await lookup(id, "")).status).toBe(400);
    });
  });
}
