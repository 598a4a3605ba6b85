import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { runSummarySchema } from "@/lib/api/schemas";
import {
  agreementPayloadSchema,
  distributionPayloadSchema,
  gpuPayloadSchema,
  timelinePayloadSchema,
} from "@/lib/api/aiperf-charts";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";
import { readChart } from "../helpers/read-api";

freshAppEachTest();

describe("aiperf upload end to end (qwen-c4 artifacts as a folder)", () => {
  it("fills the requests block and info, says the records are a sample of the summary, and serves the chart payloads", async () => {
    const dir = "Qwen_Qwen3-0.6B-openai-chat-concurrency4";
    const res = await upload(
      uploadRequest([
        { name: `${dir}/profile_export.jsonl`, path: fixture("aiperf/qwen-c4__profile_export.jsonl") },
        {
          name: `${dir}/profile_export_aiperf.json`,
          path: fixture("aiperf/qwen-c4__profile_export_aiperf.json"),
        },
        {
          name: `${dir}/gpu_telemetry_export.jsonl`,
          path: fixture("aiperf/qwen-c4__gpu_telemetry_export.jsonl"),
        },
      ]),
    );
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const run = runSummarySchema.parse(
      await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json(),
    );
    // aiperf's summary counts 64 requests: the run's figures are its; the 10 records are a sample.
    expect(run.requests).toMatchObject({
      source: "aiperf",
      count: 64,
      errorCount: 0,
      recordsSample: { records: 10, described: 64 },
    });
    expect(run.info).toMatchObject({ model: "Qwen/Qwen3-0.6B", concurrency: 4, endpointType: "chat" });
    // 10 records of the summary's 64 requests: a sample, said by the agreement payload, not a warning.
    expect(run.warnings.some((w) => w.startsWith("aiperf summary disagrees:"))).toBe(false);
    const agreement = agreementPayloadSchema.parse(await readChart(id, "aiperf-agreement"));
    expect(agreement).toMatchObject({ disagreements: 0, sample: { records: 10, described: 64 } });

    const dist = distributionPayloadSchema.parse(await readChart(id, "aiperf-distribution"));
    expect(dist.metrics.ttftMs!.p99).toBeCloseTo(70.73962603, 9);
    const timeline = timelinePayloadSchema.parse(await readChart(id, "aiperf-timeline"));
    expect(Math.max(...timeline.points.map((p) => p.inFlightMax))).toBeLessThanOrEqual(4);
    const gpu = gpuPayloadSchema.parse(await readChart(id, "aiperf-gpu"));
    expect(gpu.gpus.every((g) => g.points.length <= 2000)).toBe(true);
  });
});
