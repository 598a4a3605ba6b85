/**
 * Server metrics through the real upload route: a disaggregated TRT-LLM run behind a Dynamo
 * frontend (the InferenceX trap case) gets the corrected summary, endpoint rows and chart payloads.
 */
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { runSummarySchema } from "@/lib/api/schemas";
import { smEndpointsPayloadSchema } from "@/lib/api/server-metrics-charts";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

describe("server metrics upload", () => {
  it("stores the serverMetrics block, endpoint rows and the sm-endpoints payload", async () => {
    const res = await upload(
      uploadRequest([
        {
          name: "aiperf_artifacts/server_metrics_export.json",
          path: fixture(
            "inferencex-aggregation/cases/trap-trtllm-disagg-plain-names/input/results/aiperf_artifacts/server_metrics_export.json",
          ),
        },
      ]),
    );
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const run = runSummarySchema.parse(
      await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json(),
    );
    // 90,000 cached / 100,000 prompt tokens on the one prefill endpoint.
    expect(run.serverMetrics?.cache.gpuHitRate).toBeCloseTo(0.9, 10);
    expect(run.serverMetrics?.kvCache.gpuTotalTokens).toBe(800000);
    expect(run.serverMetrics?.backend).toBe("dynamo+trtllm");
    expect(run.endpoints.map((e) => e.role).sort()).toEqual([
      "decode",
      "decode",
      "decode",
      "frontend",
      "prefill",
    ]);
    const chart = await getChart(new Request(`http://localhost/api/runs/${id}/charts/sm-endpoints`), {
      params: Promise.resolve({ id, key: "sm-endpoints" }),
    });
    expect(chart.status).toBe(200);
    const payload = smEndpointsPayloadSchema.parse(await chart.json());
    expect(payload.rows.find((r) => r.endpoint === "10.1.0.1:8000")?.kvPoolTokens).toEqual([32000]);
  });
});
