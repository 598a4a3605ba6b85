import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as getSample } from "@/app/api/runs/[id]/trtllm/requests/route";
import { GET as getDetail } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { requestDetailSchema, requestSampleSchema, segmentsPayloadSchema } from "@/lib/api/trtllm-charts";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

async function uploadGenerated(requests: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-api-"));
  const gen = generateTrtllmRun({ dir, mode: "disaggregated", requests, seed: 5 });
  const res = await upload(uploadRequest(gen.files.map((p) => ({ name: path.basename(p), path: p }))));
  expect(res.status).toBe(201);
  const body = await res.json();
  return { id: body.id as string, gen, body };
}

const url = (p: string) => new Request(`http://localhost${p}`);

describe("TensorRT-LLM routes", () => {
  it("stores the breakdown in the run summary and serves the segments chart", async () => {
    const { id, body } = await uploadGenerated(50);
    expect(body.files.map((f: { kind: string }) => f.kind)).toEqual(Array(3).fill("trtllm-perf-metrics"));
    const run = await (await getRun(url(`/api/runs/${id}`), idParams(id))).json();
    expect(run.timeBreakdown.mode).toBe("disaggregated");
    expect(run.timeBreakdown.requestCount).toBe(50);
    expect(run.endpoints.map((e: { endpoint: string }) => e.endpoint).sort()).toEqual([
      "ctx0:8001",
      "gen0:8002",
    ]);
    const chart = await getChart(url(`/api/runs/${id}/charts/trtllm-segments`), {
      params: Promise.resolve({ id, key: "trtllm-segments" }),
    });
    expect(chart.status).toBe(200);
    expect(segmentsPayloadSchema.parse(await chart.json()).segments).toHaveLength(14);
  });

  it("samples at most `limit` requests, sorted by TTFT descending with missing values last", async () => {
    const { id } = await uploadGenerated(120);
    const res = await getSample(
      url(`/api/runs/${id}/trtllm/requests?sort=ttft&order=desc&limit=50`),
      idParams(id),
    );
    expect(res.status).toBe(200);
    const sample = requestSampleSchema.parse(await res.json());
    expect(sample.total).toBe(120);
    expect(sample.requests.length).toBeLessThanOrEqual(50);
    expect(sample.requests.length).toBeGreaterThanOrEqual(40);
    const ttft = sample.requests.map((r) => r.ttftMs!);
    expect(ttft).toEqual([...ttft].sort((a, b) => b - a));
  });

  it("rejects a bad sort and answers 404 for unknown runs", async () => {
    const { id } = await uploadGenerated(5);
    const bad = await getSample(url(`/api/runs/${id}/trtllm/requests?sort=bogus`), idParams(id));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("bad_request");
    const missing = "AAAAAAAAAAAAAAAAAAAAAA";
    expect((await getSample(url(`/api/runs/${missing}/trtllm/requests`), idParams(missing))).status).toBe(
      404,
    );
  });

  it("returns one request's waterfall", async () => {
    const { id, gen } = await uploadGenerated(10);
    const res = await getDetail(url(`/api/runs/${id}/trtllm/requests/2`), {
      params: Promise.resolve({ id, idx: "2" }),
    });
    expect(res.status).toBe(200);
    const d = requestDetailSchema.parse(await res.json());
    expect(d.segments).toHaveLength(14);
    expect(d.segments[2].value).toBeCloseTo(gen.truth.segments.ctx_queue[2]!, 6);
    expect(d.kv.transferBytes).toBe(gen.truth.transferBytes[2]);
    expect(d.steps.filter((s) => s.kind === "step")).toHaveLength(8);
    expect(d.ctxServer).toBe("ctx0:8001");
    const bad = await getDetail(url(`/api/runs/${id}/trtllm/requests/99`), {
      params: Promise.resolve({ id, idx: "99" }),
    });
    expect(bad.status).toBe(404);
  });
});
