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
import fs from "node:fs";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

const app = freshAppEachTest();

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

  it("reads an aiperf server-metrics JSON larger than the whole-document limit", async () => {
    // The real export is 218 KB; the limit is set to 64 KB. The reader streams, so no limit applies.
    await app.reopen({ RUNLENS_MAX_JSON_DOCUMENT_BYTES: String(64 << 10) });
    const res = await upload(
      uploadRequest([
        { name: "server_metrics_export.json", path: fixture("aiperf-real-c4/server_metrics_export.json") },
      ]),
    );
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.files[0]).toMatchObject({ kind: "aiperf-server-metrics", records: 52, warnings: [] });
    const run = runSummarySchema.parse(
      await (await getRun(new Request(`http://localhost/api/runs/${body.id}`), idParams(body.id))).json(),
    );
    expect(run.endpoints.map((e) => e.endpoint).sort()).toEqual(["127.0.0.1:8001", "127.0.0.1:8002"]);
  });

  it("says a truncated server-metrics JSON is cut off, keeps none of its series and counts nothing", async () => {
    const text = fs.readFileSync(fixture("aiperf-real-c4/server_metrics_export.json"));
    const res = await upload(
      uploadRequest([{ name: "server_metrics_export.json", content: text.subarray(0, 150_000) }]),
    );
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    const file = body.files?.[0];
    expect(file?.warnings).toEqual([
      {
        message:
          "the server-metrics JSON is cut off: the document stops after 150,000 bytes, unfinished; none of its metrics were kept (part of an export counts only some endpoints and intervals); the file is stored as sent: upload the complete export",
      },
    ]);
    // Nothing was read, so nothing was skipped either: the Files view shows no counts for it.
    expect(file?.meta).toEqual({
      notRead: true,
      note: "nothing kept: the document is incomplete or not valid JSON",
    });
    const run = runSummarySchema.parse(
      await (await getRun(new Request(`http://localhost/api/runs/${body.id}`), idParams(body.id))).json(),
    );
    expect(run.serverMetrics ?? null).toBeNull();
    expect(run.endpoints).toEqual([]);
  });

  it("says where a server-metrics JSON written wrong breaks, apart from one cut off", async () => {
    const text = fs.readFileSync(fixture("aiperf-real-c4/server_metrics_export.json"), "utf8");
    const at = text.indexOf('"metrics"');
    const broken = text.slice(0, at) + "," + text.slice(at);
    const res = await upload(uploadRequest([{ name: "server_metrics_export.json", content: broken }]));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    const [warning] = body.files[0].warnings;
    expect(warning.message).toMatch(
      /^the server-metrics JSON is not valid JSON: .* at byte \d+; nothing of it was read$/,
    );
    expect(body.files[0].meta.notRead).toBe(true);
  });
});
