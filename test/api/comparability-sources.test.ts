/**
 * The doctor's newer sources through upload and compare, on SQLite and (where
 * RUNLENS_TEST_DATABASE_URL is set) PostgreSQL (docs/metrics.md §Comparable runs): aiperf v2
 * `input_config.datasets[]` (aiperf src/aiperf/config/dataset/config.py) with another `sampling`;
 * aiperf 0.8+ `credit_to_start_latency` (src/aiperf/metrics/derived_latency.py) large against the
 * TTFT; and a vLLM server log beside the run whose "non-default args" line states
 * `--speculative-config` and `--kv-transfer-config` (vllm/engine/arg_utils.py,
 * vllm/config/kv_transfer.py). Runs are aiperf exports from test/generators/aiperf.mjs.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { POST as upload } from "@/app/api/runs/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { useTempDirs } from "../helpers/temp-dirs";
import { uploadRequest } from "../helpers/test-app";

const dataset = (sampling: string) => [
  {
    name: "main",
    type: "file",
    path: "/data/prompts.jsonl",
    format: "single_turn",
    sampling,
    random_seed: 42,
  },
];

const VLLM_LOG = (args: string) =>
  [
    "(APIServer pid=1) INFO 08-01 10:00:00 [api_server.py:1805] vLLM API server version 0.11.0",
    `(APIServer pid=1) INFO 08-01 10:00:00 [utils.py:326] non-default args: {'model_tag': 'synthetic/model', 'model': 'synthetic/model'${args}}`,
    "(EngineCore_DP0 pid=2) INFO 08-01 10:00:05 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='synthetic/model', speculative_config=None, tokenizer='synthetic/model', tensor_parallel_size=1",
  ].join("\n") + "\n";

describe.each(TEST_STORES)("the doctor's newer sources on %s", (store, pgUrl) => {
  useStoreTestApp(pgUrl);
  // The generated exports are read into the upload: their folders go after each test.
  const tempDir = useTempDirs("doctor-sources-");
  const series = `doctor/sources-${store}`;

  async function uploadRun(opts: Record<string, unknown>, log?: string): Promise<string> {
    const dir = tempDir();
    await generateAiperfRun(dir, { records: 200, csv: false, seed: 1, config: "v2", ...opts });
    const files = ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
      name,
      path: path.join(dir, name),
    }));
    if (log !== undefined) {
      fs.writeFileSync(path.join(dir, "vllm-server.log"), log);
      files.push({ name: "vllm-server.log", path: path.join(dir, "vllm-server.log") });
    }
    const res = await upload(uploadRequest(files, { series }));
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  const reasonsOf = async (a: string, b: string) => {
    const data = compareResponseSchema.parse(
      await (await compare(new Request(`http://localhost/api/compare?runs=${a},${b}`))).json(),
    );
    return data.comparability!.runs[0];
  };

  it("aiperf v2 datasets[]: the same file drawn another way is a dataset caveat", async () => {
    const a = await uploadRun({ datasets: dataset("sequential") });
    const b = await uploadRun({ datasets: dataset("random") });
    const report = await reasonsOf(a, b);
    expect(report.verdict).toBe("comparable with caveats");
    expect(report.reasons.map((r) => [r.name, r.severity, r.a, r.b])).toEqual([
      [
        "dataset",
        "caveat",
        "input file prompts.jsonl (single_turn), sampling sequential",
        "input file prompts.jsonl (single_turn), sampling random",
      ],
    ]);
  });

  it("client-side queueing large against the TTFT: a saturated load generator caveat with its evidence", async () => {
    const a = await uploadRun({ datasets: dataset("sequential") });
    // The generator's TTFTs are tens of ms; a 40 ms median wait to send is a load generator behind.
    const b = await uploadRun({
      datasets: dataset("sequential"),
      summaryMetrics: {
        credit_to_start_latency: { unit: "ms", avg: 45, p50: 40, p90: 80, p99: 120, count: 200 },
      },
    });
    const report = await reasonsOf(a, b);
    expect(report.reasons.map((r) => [r.name, r.severity])).toEqual([["saturation", "caveat"]]);
    // Both held their 8 workers until the last send (the records' effective concurrency).
    expect(report.reasons[0].b).toMatch(
      /^concurrency 7\.\d\d of 8 requested; queue wait p50 40\.0 ms, p90 80\.0 ms against TTFT p50 /,
    );
    // Run a's records carry no credit_issued_ns: not measured, never a wait of 0.
    expect(report.reasons[0].a).toMatch(
      /^concurrency 7\.\d\d of 8 requested; queue wait not measured \(200 profiling records without credit_issued_ns\)$/,
    );
    expect(report.reasons[0].evidence).toMatch(
      /client-side queueing \(aiperf summary: each request's wait from the credit being issued to the request being sent, 200 requests\) at p50/,
    );
  });

  it("aiperf 0.6/0.7 records (credit_issued_ns, no summary figure): the queue wait read from the records, with how many waited", async () => {
    const a = await uploadRun({ datasets: dataset("sequential"), creditWaitMs: 2 });
    // Every 4th request waits 60 ms for a worker: p90 over a TTFT of at most 120 ms × 10%.
    const b = await uploadRun({
      datasets: dataset("sequential"),
      creditWaitMs: (i: number) => (i % 4 === 3 ? 60 : 2),
    });
    const report = await reasonsOf(a, b);
    expect(report.reasons.map((r) => [r.name, r.severity])).toEqual([["saturation", "caveat"]]);
    const [r] = report.reasons;
    expect(r.a).toMatch(
      /^concurrency 7\.\d\d of 8 requested; queue wait p50 2\.00 ms, p90 2\.00 ms against TTFT p50 [\d.]+ ms, p90 [\d.]+ ms; p99 2\.00 ms, max 2\.00 ms; 0 of 200 requests \(0\.0%\) waited ≥ 10% of their own TTFT$/,
    );
    expect(r.b).toMatch(
      /^concurrency 7\.\d\d of 8 requested; queue wait p50 2\.00 ms, p90 60\.0 ms against TTFT .*; p99 60\.0 ms, max 60\.0 ms; 50 of 200 requests \(25\.0%\) waited/,
    );
    expect(r.evidence).toMatch(
      /^saturated load generator in the second run: client-side queueing \(aiperf records: each request's wait from the credit being issued to the request being sent, 200 requests\) at p90 is at least 10% of the TTFT; 50 of 200 requests waited that long/,
    );
  });

  it("vLLM server log: --speculative-config on in one run only and --kv-transfer-config LMCache, not comparable", async () => {
    const a = await uploadRun({ datasets: dataset("sequential") }, VLLM_LOG(""));
    const b = await uploadRun(
      { datasets: dataset("sequential") },
      VLLM_LOG(
        ", 'speculative_config': {'method': 'ngram', 'num_speculative_tokens': 5, 'prompt_lookup_max': 4}, 'kv_transfer_config': KVTransferConfig(kv_connector='LMCacheConnectorV1', engine_id='e1', kv_buffer_device='cuda', kv_buffer_size=1000000000.0, kv_role='kv_both', kv_rank=None, kv_parallel_size=1, kv_ip='127.0.0.1', kv_port=14579, kv_connector_extra_config={}, kv_connector_module_path=None)",
      ),
    );
    const report = await reasonsOf(a, b);
    expect(report.verdict).toBe("not comparable");
    expect(report.reasons.map((r) => [r.name, r.severity, r.a, r.b])).toEqual([
      ["kv-offload", "blocking", "offload none", "offload lmcache"],
      ["speculative-decoding", "blocking", "method none", "method ngram"],
    ]);
    expect(report.reasons[0].evidence).toMatch(/^from vLLM non-default args kv_transfer_config;/);
    expect(report.reasons[1].evidence).toMatch(/^from vLLM non-default args speculative_config;/);
  });
});
