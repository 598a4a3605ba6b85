/**
 * The TensorRT-LLM latency payloads through the real routes: upload → run summary → charts, and
 * the Latency view enabled by the run-view manifest. Run from test/generators/trtllm-latency.mjs
 * (records as tensorrt_llm/serve/perf_metrics.py builds them).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { distributionPayloadSchema } from "@/lib/api/aiperf-charts";
import { runView } from "@/lib/api/run-views";
import { runSummarySchema } from "@/lib/api/schemas";
import { trtllmLatencyOverTimePayloadSchema } from "@/lib/api/trtllm-charts";
import { writeLatencyRun } from "../generators/trtllm-latency.mjs";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

freshAppEachTest();

const url = (p: string) => new Request(`http://localhost${p}`);
const chart = (id: string, key: string) =>
  getChart(url(`/api/runs/${id}/charts/${key}`), { params: Promise.resolve({ id, key }) });

describe("TensorRT-LLM latency routes", () => {
  it("serves TTFT, E2E and TPOT in the summary and as distribution and over-time charts", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-latency-api-"));
    // TTFT 100 / 300 ms, E2E 1,100 / 2,300 ms, 1 + 50 and 1 + 100 output tokens: TPOT 20 and 20.
    const file = writeLatencyRun({
      dir,
      mode: "disaggregated",
      requests: [
        { ttftMs: 100, e2eMs: 1100, steps: 50 },
        { ttftMs: 300, e2eMs: 2300, steps: 100 },
      ],
    });
    const res = await upload(uploadRequest([{ name: path.basename(file), path: file }]));
    expect(res.status).toBe(201);
    const { id } = await res.json();

    const run = runSummarySchema.parse(await (await getRun(url(`/api/runs/${id}`), idParams(id))).json());
    expect(run.requests).toBeNull();
    const l = run.timeBreakdown!.latency!;
    expect(l.ttftMs!.p50).toBeCloseTo(200, 6);
    expect(l.e2eMs!.p99).toBeCloseTo(1100 + 0.99 * 1200, 6);
    expect(l.tpotMs!.mean).toBeCloseTo(20, 6);
    expect(runView("latency").hasData(run)).toBe(true);

    const dist = await chart(id, TRTLLM_CHARTS.latencyDistribution.key);
    expect(dist.status).toBe(200);
    const d = distributionPayloadSchema.parse(await dist.json());
    expect(d.metrics.ttftMs!.p99).toBeCloseTo(100 + 0.99 * 200, 6);
    expect(d.metrics.tpotMs!.count).toBe(2);

    const over = await chart(id, TRTLLM_CHARTS.latencyOverTime.key);
    expect(over.status).toBe(200);
    const o = trtllmLatencyOverTimePayloadSchema.parse(await over.json());
    expect(o.total).toBe(2);
    expect(o.points[1]).toMatchObject({ tS: expect.closeTo(0.25, 6), e2eMs: expect.closeTo(2300, 6) });
  });
});
