/**
 * The comparability doctor's configuration reasons through compare and the gate, on SQLite and
 * (where RUNLENS_TEST_DATABASE_URL is set) PostgreSQL (docs/metrics.md §Comparable runs). Runs
 * are aiperf exports from test/generators/aiperf.mjs with the v1 `input_config.input` aiperf
 * writes (common/config/input_config.py: random_seed, public_dataset) and the AgentX summary's
 * `metadata` (submission_valid, submission_invalid_reasons), as in the real aiperf 0.8.0 file; and
 * SGLang bench_serving lines (test/generators/sglang-bench.ts) with the `server_info` that
 * python/sglang/bench_serving.py copies from the server's arguments (srt/server_args.py).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { POST as upload } from "@/app/api/runs/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { sglangLine } from "../generators/sglang-bench";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { readGate } from "../helpers/read-api";
import { useTempDirs } from "../helpers/temp-dirs";
import { uploadRequest } from "../helpers/test-app";

const SYNTHETIC = { prompt: { input_tokens: { mean: 1100 }, output_tokens: { mean: 200 } } };

describe.each(TEST_STORES)("the doctor's configuration reasons on %s", (store, pgUrl) => {
  useStoreTestApp(pgUrl);
  // The generated exports are read into the upload: their folders go after each test.
  const tempDir = useTempDirs("doctor-config-");
  const series = `doctor/config-${store}`;

  async function uploadRun(opts: Record<string, unknown>): Promise<string> {
    const dir = tempDir();
    await generateAiperfRun(dir, { records: 200, csv: false, seed: 1, ...opts });
    const files = ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
      name,
      path: path.join(dir, name),
    }));
    const res = await upload(uploadRequest(files, { series }));
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  const compareOf = async (qs: string) =>
    compareResponseSchema.parse(
      await (await compare(new Request(`http://localhost/api/compare?${qs}`))).json(),
    );

  it("dataset: another prompt corpus is not comparable, both sources named; the seed is a caveat", async () => {
    const a = await uploadRun({ input: { ...SYNTHETIC, random_seed: 42 } });
    const b = await uploadRun({ input: { public_dataset: "sharegpt", random_seed: 7 } });
    const data = await compareOf(`runs=${a},${b}`);
    const report = data.comparability!.runs[0];
    expect(report.verdict).toBe("not comparable");
    expect(report.reasons.map((r) => [r.name, r.severity, r.a, r.b])).toEqual([
      ["dataset", "blocking", "synthetic", "public dataset sharegpt"],
      ["seed", "caveat", "42", "7"],
    ]);
    expect(report.reasons[0].evidence).toMatch(
      /^from aiperf input_config.input \(no file or public dataset\) and aiperf input_config.input.public_dataset:/,
    );
    expect(report.reasons[1].evidence).toMatch(/^from aiperf input_config.input.random_seed:/);

    const accepted = await compareOf(`runs=${a},${b}&allowDifferent=dataset`);
    expect(accepted.comparability!.runs[0].verdict).toBe("comparable with caveats");

    // Same corpus, other seed: the verdict stands, with the caveat.
    const c = await uploadRun({ input: { ...SYNTHETIC, random_seed: 43 } });
    const seedOnly = await compareOf(`runs=${a},${c}`);
    expect(seedOnly.comparability!.runs[0].verdict).toBe("comparable with caveats");
    expect(seedOnly.comparability!.runs[0].reasons.map((r) => r.name)).toEqual(["seed"]);
  });

  it("SGLang: HiCache on in one run only and another speculative method, both not comparable, with server_info as evidence", async () => {
    const server = (over: Record<string, unknown>) => ({
      tp_size: 1,
      kv_cache_dtype: "auto",
      mem_fraction_static: 0.9,
      page_size: 1,
      disable_radix_cache: false,
      enable_hierarchical_cache: false,
      enable_lmcache: false,
      hicache_ratio: 2.0,
      hicache_size: 0,
      hicache_write_policy: "write_through",
      speculative_algorithm: null,
      ...over,
    });
    const sg = async (name: string, over: Record<string, unknown>) => {
      const line = { ...sglangLine({ requests: 40 }), server_info: server(over) };
      const res = await upload(
        uploadRequest([{ name: `${name}.jsonl`, content: JSON.stringify(line) + "\n" }], { series }),
      );
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const a = await sg("base", {});
    const b = await sg("hicache-eagle", {
      enable_hierarchical_cache: true,
      speculative_algorithm: "EAGLE",
      speculative_num_steps: 3,
    });
    const report = (await compareOf(`runs=${a},${b}`)).comparability!.runs[0];
    expect(report.verdict).toBe("not comparable");
    expect(report.reasons.map((r) => [r.name, r.group, r.severity, r.a, r.b])).toEqual([
      ["kv-offload", "system", "blocking", "offload none", "offload HiCache"],
      ["speculative-decoding", "system", "blocking", "method none", "method EAGLE"],
    ]);
    expect(report.reasons.every((r) => r.evidence.startsWith("from SGLang server_info;"))).toBe(true);
    const accepted = await compareOf(`runs=${a},${b}&allowDifferent=kv-offload,speculative-decoding`);
    expect(accepted.comparability!.runs[0].verdict).toBe("comparable with caveats");
  });

  it("gate: aiperf's submission_valid false in one run refuses, naming its reason, until accepted", async () => {
    await uploadRun({ metadata: { scenario: "inferencex-agentx-mvp", submission_valid: true } });
    const b = await uploadRun({
      metadata: {
        scenario: "inferencex-agentx-mvp",
        submission_valid: false,
        submission_invalid_reasons: ["context_overflow_rate_exceeded"],
      },
    });
    const refused = await readGate(b, "baseline=last&failOn=ttft.p50>50%25");
    expect(refused.exitCode).toBe(2);
    expect(refused.reasons[0]).toMatch(
      /^not comparable with .*: aiperf submission validity valid vs invalid \(context_overflow_rate_exceeded\)/,
    );
    expect(refused.reasons[0]).toContain("allowDifferent=submission-valid");
    const reason = refused.comparability![0].reasons[0];
    expect([reason.name, reason.group, reason.a, reason.b]).toEqual([
      "submission-valid",
      "measurement",
      "valid",
      "invalid (context_overflow_rate_exceeded)",
    ]);

    const judged = await readGate(b, "baseline=last&failOn=ttft.p50>50%25&allowDifferent=submission-valid");
    expect(judged.exitCode).toBe(0);
    expect(judged.judgement!.comparability![0].verdict).toBe("comparable with caveats");
  });
});
