/**
 * Run facts through the API (docs/metrics.md §Run facts): read from real aiperf artifacts at
 * upload, served with the run summary, set and cleared by PATCH under write auth, refused when
 * malformed, and kept across re-ingest as edits.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun, PATCH as patchRun } from "@/app/api/runs/[id]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { runSummarySchema } from "@/lib/api/schemas";
import { readRunFacts, readRunFactsBatch } from "@/lib/runs/run-facts";
import { appForTest, fixture, idParams, uploadRequest } from "../helpers/test-app";

const TOKEN = "facts token";
const bearer = { authorization: `Bearer ${TOKEN}` };
const dir = "Qwen_Qwen3-0.6B-openai-chat-concurrency2";
const QWEN_C2 = [
  { name: `${dir}/profile_export.jsonl`, path: fixture("aiperf/qwen-c2__profile_export.jsonl") },
  { name: `${dir}/profile_export_aiperf.json`, path: fixture("aiperf/qwen-c2__profile_export_aiperf.json") },
  { name: `${dir}/gpu_telemetry_export.jsonl`, path: fixture("aiperf/qwen-c2__gpu_telemetry_export.jsonl") },
];

async function summary(id: string) {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

function patch(id: string, body: unknown, headers: Record<string, string> = bearer) {
  return patchRun(
    new Request(`http://localhost/api/runs/${id}`, {
      method: "PATCH",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    }),
    idParams(id),
  );
}

async function uploadQwen(): Promise<string> {
  const res = await upload(uploadRequest(QWEN_C2, {}, bearer));
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("run facts", () => {
  it("are read from the aiperf config and GPU telemetry, each with its source", async () => {
    const { app } = await appForTest({ RUNLENS_API_TOKEN: TOKEN });
    const id = await uploadQwen();
    const run = await summary(id);
    expect(run.facts.model).toEqual({
      value: "Qwen/Qwen3-0.6B",
      source: "aiperf input_config v1",
      edited: false,
    });
    expect(run.facts.concurrency).toMatchObject({ value: 2, source: "aiperf input_config v1" });
    expect(run.facts.isl).toMatchObject({
      value: 100,
      source: "aiperf input_config v1 (synthetic prompt mean)",
    });
    expect(run.facts.osl).toMatchObject({
      value: 200,
      source: "aiperf input_config v1 (synthetic output mean)",
    });
    // Two exporters (:9400, :9402) scrape one GPU: one uuid, one GPU.
    expect(run.facts.gpuCount).toEqual({
      value: 1,
      source: "GPU telemetry (1 distinct GPU)",
      edited: false,
    });
    expect(run.facts.gpuModel).toMatchObject({
      value: "NVIDIA RTX 6000 Ada Generation",
      source: "GPU telemetry",
    });
    expect(run.facts.backend).toBeNull();
    expect(run.facts.requestRate).toBeNull();
    // The default name is made of the facts.
    expect(run.name).toBe("Qwen/Qwen3-0.6B · concurrency 2");
    expect(await readRunFacts(app.store, id)).toEqual(run.facts);
    const batch = await readRunFactsBatch(app.store, [id, "missing-run-id"]);
    expect([...batch.keys()]).toEqual([id]);
  });

  it("are set and cleared by PATCH, marked edited, and survive re-ingest", async () => {
    await appForTest({ RUNLENS_API_TOKEN: TOKEN });
    const id = await uploadQwen();
    const res = await patch(id, { facts: { gpuCount: 8, backend: "vllm", gpuModel: "H100" } });
    expect(res.status).toBe(200);
    const patched = runSummarySchema.parse(await res.json());
    expect(patched.facts.gpuCount).toEqual({ value: 8, source: "edited", edited: true });
    expect(patched.facts.backend).toEqual({ value: "vllm", source: "edited", edited: true });

    const again = await reingest(
      new Request(`http://localhost/api/runs/${id}/reingest`, { method: "POST", headers: bearer }),
      idParams(id),
    );
    expect(again.status).toBeLessThan(300);
    const after = await summary(id);
    expect(after.status).toBe("ready");
    expect(after.facts.gpuCount).toEqual({ value: 8, source: "edited", edited: true });
    expect(after.facts.gpuModel).toMatchObject({ value: "H100", edited: true });
    expect(after.facts.model).toMatchObject({ value: "Qwen/Qwen3-0.6B", edited: false });

    // null clears the edit: the value read from the files shows again.
    const cleared = runSummarySchema.parse(await (await patch(id, { facts: { gpuCount: null } })).json());
    expect(cleared.facts.gpuCount).toEqual({
      value: 1,
      source: "GPU telemetry (1 distinct GPU)",
      edited: false,
    });
    expect(cleared.facts.backend).toMatchObject({ value: "vllm", edited: true });
  });

  it("refuse a PATCH without the token, and malformed facts with a 400", async () => {
    await appForTest({ RUNLENS_API_TOKEN: TOKEN });
    const id = await uploadQwen();
    expect((await patch(id, { facts: { gpuCount: 4 } }, {})).status).toBe(401);
    for (const facts of [
      { gpuCount: 0 },
      { gpuCount: 1.5 },
      { gpuCount: "8" },
      { concurrency: -1 },
      { model: "" },
      { colour: "red" },
      { roles: [{ role: "decode", tp: 0 }] },
    ]) {
      const res = await patch(id, { facts });
      expect(res.status, JSON.stringify(facts)).toBe(400);
      expect((await res.json()).error.code).toBe("bad_request");
    }
    expect((await summary(id)).facts.gpuCount).toMatchObject({ value: 1, edited: false });
    expect((await patch("AAAAAAAAAAAAAAAAAAAAAA", { facts: { gpuCount: 4 } })).status).toBe(404);
  });
});

describe("derived throughput of real aiperf runs", () => {
  it.each([1, 2, 4])(
    "qwen c%i: the records are a sample, so the summary's aggregates are divided by the telemetry's GPUs",
    async (c) => {
      await appForTest();
      const d = `Qwen_Qwen3-0.6B-openai-chat-concurrency${c}`;
      const res = await upload(
        uploadRequest(
          ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"].map((f) => ({
            name: `${d}/${f}`,
            path: fixture(`aiperf/qwen-c${c}__${f}`),
          })),
        ),
      );
      const run = await summary(((await res.json()) as { id: string }).id);
      const aiperf = JSON.parse(
        fs.readFileSync(fixture(`aiperf/qwen-c${c}__profile_export_aiperf.json`), "utf8"),
      ) as Record<string, { avg: number; p50: number; p90: number; p99: number; p10: number }>;
      expect(run.derived.gpuCount).toBe(1);
      expect(run.derived.gpuCountSource).toBe("GPU telemetry (1 distinct GPU)");
      expect(run.derived.source).toBe("aiperf summary");
      expect(run.derived.note).toMatch(/^the records hold 10 of the 64 requests/);
      expect(run.derived.outputTokPerSPerGpu.value).toBe(aiperf.output_token_throughput.avg / 1);
      expect(run.derived.requestsPerSPerGpu.value).toBe(aiperf.request_throughput.avg / 1);
      const perUser = aiperf.output_token_throughput_per_user;
      expect(run.derived.tokPerUser.mean.value).toBe(perUser.avg);
      // "p90" of tok/s/user is the slow tail: 1000 / ITL p90, aiperf's own p10 within 0.01%.
      expect(run.derived.tokPerUser.p90.value).toBe(1000 / aiperf.inter_token_latency.p90);
      expect(Math.abs(run.derived.tokPerUser.p90.value! / perUser.p10 - 1)).toBeLessThan(1e-4);
      // No total_token_throughput in this summary: (total_isl + total_osl) / benchmark_duration.
      expect(run.derived.totalTokPerSPerGpu.value).toBeCloseTo(
        (aiperf.total_isl.avg + aiperf.total_osl.avg) / aiperf.benchmark_duration.avg,
        9,
      );
    },
  );

  it("aiperf-real-c4: records holding every request give aiperf's summary figures to 1e-9", async () => {
    await appForTest();
    const files = ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"];
    const res = await upload(
      uploadRequest(files.map((f) => ({ name: `c4/${f}`, path: fixture(`aiperf-real-c4/${f}`) }))),
    );
    const run = await summary(((await res.json()) as { id: string }).id);
    const aiperf = JSON.parse(
      fs.readFileSync(fixture("aiperf-real-c4/profile_export_aiperf.json"), "utf8"),
    ) as Record<string, { avg: number; p50: number; p90: number; p99: number }>;
    expect(run.derived.source).toBe("records");
    const gpus = run.derived.gpuCount!;
    expect(gpus).toBeGreaterThan(0);
    const close = (a: number | null, b: number) =>
      expect(Math.abs(a! - b)).toBeLessThan(1e-9 * Math.max(1, b));
    close(run.derived.outputTokPerSPerGpu.value! * gpus, aiperf.output_token_throughput.avg);
    close(run.derived.requestsPerSPerGpu.value! * gpus, aiperf.request_throughput.avg);
    close(run.derived.totalTokPerSPerGpu.value! * gpus, aiperf.total_token_throughput.avg);
    close(run.derived.tokPerUser.mean.value, aiperf.output_token_throughput_per_user.avg);
    close(run.derived.tokPerUser.p50.value, aiperf.output_token_throughput_per_user.p50);
  });
});
