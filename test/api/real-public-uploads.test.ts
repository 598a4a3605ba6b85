/**
 * One upload, many runs, said out loud (issue 27 item 3): real folders of other people's
 * benchmark output, uploaded whole as a dragged folder sends them, become one run per
 * independent run they hold: never one pooled run, never "the first file kept", never one
 * benchmark dropped, never a sweep of two models without saying so. Each run holds its own files
 * and the producer's own key figures (read from its files here).
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { uploadResponseSchema, type RunSummary, type UploadResponse } from "@/lib/api/schemas";
import { describeRealPublic, realPublicFile, realPublicJson, realPublicParts } from "../helpers/real-public";
import { freshAppEachTest, uploadRequest } from "../helpers/test-app";
import { readRun, readSweep } from "../helpers/read-api";

freshAppEachTest();

type Part = { name: string; path: string };

async function send(parts: Part[]): Promise<UploadResponse> {
  const res = await upload(uploadRequest(parts));
  expect(res.status).toBe(201);
  return uploadResponseSchema.parse(await res.json());
}

/** Every run of the upload, in its order. */
async function runsOf(body: UploadResponse): Promise<RunSummary[]> {
  return Promise.all((body.runs ?? [{ id: body.id }]).map((r) => readRun(r.id)));
}

const fileNames = (run: RunSummary) => run.files.map((f) => f.name).sort();

/** Every run stored, whoever made it. */
async function storedRunCount(): Promise<number> {
  const res = await listRuns(new Request("http://localhost/api/runs?limit=200"));
  return ((await res.json()) as { runs: unknown[] }).runs.length;
}

/** What a run says about its requests and facts, without what names or dates it. */
function figures(run: RunSummary) {
  return {
    requests: run.requests,
    facts: Object.fromEntries(
      Object.entries(run.facts).map(([k, v]) => [k, v && (v as { value: unknown }).value]),
    ),
  };
}

const QWEN = "aiperf-0.3-qwen3-0.6b-plot-fixtures";
describeRealPublic(QWEN, () => {
  const subs = ["qwen_concurrency1", "qwen_concurrency2", "qwen_concurrency4"];
  const summary = (sub: string) =>
    realPublicJson<{
      request_count: { avg: number };
      input_config: { loadgen: { concurrency: number }; endpoint: { model_names: string[] } };
    }>(QWEN, `${sub}/profile_export_aiperf.json`);

  it("three concurrency folders are three runs and a concurrency sweep, each as its folder alone gives it", async () => {
    const body = await send(realPublicParts(QWEN));
    expect(body.runs).toHaveLength(3);
    expect(body.sweep).toBeDefined();
    expect(body.warnings.join("\n")).toMatch(
      /holds 3 runs, one per folder \(qwen_concurrency1, qwen_concurrency2, qwen_concurrency4\)/,
    );
    expect(body.warnings.join("\n")).not.toMatch(/pooled/);
    const runs = await runsOf(body);
    const sweep = await readSweep(body.sweep!.id);
    // aiperf's own configuration of each folder.
    expect(sweep.runs.map((r) => r.concurrency)).toEqual(
      subs.map((s) => summary(s).input_config.loadgen.concurrency),
    );
    expect(sweep.runs.map((r) => r.id)).toEqual(runs.map((r) => r.id));
    for (const [i, sub] of subs.entries()) {
      expect(fileNames(runs[i]).every((n) => n.startsWith(`${sub}/`))).toBe(true);
      expect(runs[i].files).toHaveLength(3);
      expect(runs[i].facts.model?.value).toBe(summary(sub).input_config.endpoint.model_names[0]);
      expect(runs[i].facts.concurrency?.value).toBe(summary(sub).input_config.loadgen.concurrency);
    }
    // Each folder alone: the same figures.
    const alone: ReturnType<typeof figures>[] = [];
    for (const sub of subs) {
      const one = await send(realPublicParts(QWEN, sub));
      expect(one.runs).toBeUndefined();
      alone.push(figures(await readRun(one.id)));
    }
    expect(runs.map(figures)).toEqual(alone);
  });

  it("when only one folder carries per-request records, the folders are still a run each", async () => {
    const parts = realPublicParts(QWEN).filter(
      (p) => p.name.startsWith("qwen_concurrency1/") || !p.name.endsWith("/profile_export.jsonl"),
    );
    const body = await send(parts);
    expect(body.runs).toHaveLength(3);
    expect(body.warnings.join("\n")).not.toMatch(/pooled|combined/);
    const runs = await runsOf(body);
    // The records-carrying run, and the summary-only runs with aiperf's own request count.
    expect(runs[0].files.map((f) => f.kind)).toContain("aiperf-records");
    for (const [i, sub] of subs.entries()) {
      expect(fileNames(runs[i]).every((n) => n.startsWith(`${sub}/`))).toBe(true);
      expect(runs[i].facts.concurrency?.value).toBe(summary(sub).input_config.loadgen.concurrency);
    }
    for (const i of [1, 2]) {
      expect(runs[i].files.map((f) => f.kind)).not.toContain("aiperf-records");
      expect(runs[i].requests?.count).toBe(summary(subs[i]).request_count.avg);
    }
  });

  it("folders whose names say nothing are told apart by each one's own aiperf run, nested or not", async () => {
    // As the producer's repository holds them: qwen_concurrency4 inside qwen_concurrency2.
    const rename: Record<string, string> = {
      qwen_concurrency1: "first",
      qwen_concurrency2: "second",
      qwen_concurrency4: "second/third",
    };
    const parts = realPublicParts(QWEN).map((p) => {
      const [sub, ...rest] = p.name.split("/");
      return { ...p, name: `${rename[sub]}/${rest.join("/")}` };
    });
    const body = await send(parts);
    expect(body.runs).toHaveLength(3);
    const runs = await runsOf(body);
    const sweep = await readSweep(body.sweep!.id);
    expect(sweep.runs.map((r) => r.concurrency)).toEqual(
      subs.map((s) => summary(s).input_config.loadgen.concurrency),
    );
    expect(runs.map((r) => r.files.length)).toEqual([3, 3, 3]);
    expect(fileNames(runs[1]).every((n) => n.startsWith("second/") && !n.startsWith("second/third/"))).toBe(
      true,
    );
    expect(fileNames(runs[2]).every((n) => n.startsWith("second/third/"))).toBe(true);
    expect(body.warnings.join("\n")).not.toMatch(/pooled/);
  });
});

interface VllmResult {
  num_prompts: number;
  completed: number;
  failed: number;
  max_concurrency: number;
  model_id: string;
  mean_ttft_ms: number;
}

const GLM = "vllm-bench-serve-glm4.7-fp8-b200-with-console";
describeRealPublic(GLM, () => {
  it("TP4 (all failed) and TP8 at the same load are two runs, each with its console log", async () => {
    const body = await send(realPublicParts(GLM));
    expect(body.runs).toHaveLength(2);
    expect(body.warnings.join("\n")).not.toMatch(/only the first/);
    expect(body.warnings.join("\n")).toMatch(/holds 2 benchmarks .*: each is its own run/);
    const runs = await runsOf(body);
    const stems = ["run_1_TP4_DP2_CTX2048_C100_P100_O128", "run_1_TP8_DP1_CTX1024_C100_P100_O128"];
    for (const [i, stem] of stems.entries()) {
      const own = realPublicJson<VllmResult>(GLM, `${stem}.json`);
      expect(fileNames(runs[i])).toEqual([`${stem}.json`, `${stem}.txt`]);
      expect(runs[i].facts.model?.value).toBe(own.model_id);
      expect(runs[i].facts.concurrency?.value).toBe(own.max_concurrency);
      expect(runs[i].requests).toMatchObject({ count: own.num_prompts, errorCount: own.failed });
      expect(runs[i].name).toContain(stem);
    }
    const tp8 = realPublicJson<VllmResult>(GLM, `${stems[1]}.json`);
    expect(tp8.completed).toBe(100);
    expect(runs[1].requests!.ttftMs!.mean).toBeCloseTo(tp8.mean_ttft_ms, 9);
    // One model, one workload: a sweep whose two points have their own labels.
    const sweep = await readSweep(body.sweep!.id);
    expect(new Set(sweep.runs.map((r) => r.name)).size).toBe(2);
  });
});

const LENS = "vllm-bench-serve-qwen3.5-397b-lens";
describeRealPublic(LENS, () => {
  it("the 64-prompt and 640-prompt runs are two runs", async () => {
    const body = await send(realPublicParts(LENS));
    expect(body.runs).toHaveLength(2);
    expect(body.warnings.join("\n")).not.toMatch(/only the first/);
    const runs = await runsOf(body);
    const files = [
      "atom_mtp_profile_tp4_conc64_isl8192_osl1024.json",
      "atom_mtp_tp4_conc64_isl8192_osl1024.json",
    ];
    for (const [i, f] of files.entries()) {
      const own = realPublicJson<VllmResult>(LENS, f);
      expect(fileNames(runs[i])).toEqual([f]);
      expect(runs[i].requests!.count).toBe(own.num_prompts);
      expect(runs[i].requests!.ttftMs!.mean).toBeCloseTo(own.mean_ttft_ms, 9);
    }
    expect(runs.map((r) => r.requests!.count)).toEqual([64, 640]);
    expect(new Set(runs.map((r) => r.name)).size).toBe(2);
  });
});

const SGL = "sglang-0.5.9-bench-serving-output-details";
describeRealPublic(SGL, () => {
  it("Qwen3-14B and Llama-3.1-70B results are two runs, not one sweep, and the warning says why", async () => {
    const body = await send(realPublicParts(SGL));
    expect(body.runs).toHaveLength(2);
    expect(body.sweep).toBeUndefined();
    const warning = body.warnings.find((w) => w.includes("each is its own run"));
    expect(warning).toMatch(/not one sweep/);
    expect(body.warnings.join("\n")).not.toMatch(/only the first/);
    const runs = await runsOf(body);
    const stems = [
      "tp4_dp2_Qwen3-14B_in1024_out128_p100_c100_38769a",
      "tp8_dp1_Llama3.1-70B_in8192_out128_p100_c100_46cf8d",
    ];
    for (const [i, stem] of stems.entries()) {
      // SGLang writes Python's json: `Infinity` for an unbounded rate.
      const text = fs
        .readFileSync(realPublicFile(SGL, `${stem}.jsonl`), "utf8")
        .trim()
        .split("\n")[0];
      const line = JSON.parse(text.replace(/:\s*-?Infinity/g, ": null")) as {
        completed: number;
        mean_ttft_ms: number;
        random_input_len: number;
      };
      expect(warning).toContain(`randomInputLen ${line.random_input_len}`);
      expect(fileNames(runs[i])).toEqual([`${stem}.jsonl`, `${stem}.txt`]);
      expect(runs[i].requests!.count).toBe(line.completed);
      expect(runs[i].requests!.ttftMs!.mean).toBeCloseTo(line.mean_ttft_ms, 6);
    }
  });
});

const GENAI = "genai-perf-tritonsdk-gptoss20b-k8s";
describeRealPublic(GENAI, () => {
  it("two summaries are two runs: neither is dropped", async () => {
    const body = await send(realPublicParts(GENAI));
    expect(body.runs).toHaveLength(2);
    const runs = await runsOf(body);
    const files = [
      "profile_export_genai_perf.v1-2025-09-16.json",
      "profile_export_genai_perf.v2-2025-09-30-tritonsdk25.07.json",
    ];
    const counts: number[] = [];
    for (const [i, f] of files.entries()) {
      const own = realPublicJson<{ request_count: { avg: number } }>(GENAI, f);
      counts.push(own.request_count.avg);
      expect(fileNames(runs[i])).toEqual([f]);
      expect(runs[i].requests!.count).toBe(own.request_count.avg);
    }
    expect(counts).toEqual([66, 35]);
    expect(body.warnings.join("\n")).toMatch(/holds 2 benchmarks/);
  });
});

const GUIDE = "guidellm-0.2-stripped-fixture";
describeRealPublic(GUIDE, () => {
  it("the JSON and YAML copies of one report are one run", async () => {
    const body = await send(realPublicParts(GUIDE));
    expect(body.runs).toBeUndefined();
    expect(body.sweep).toBeUndefined();
    expect(body.warnings.join("\n")).not.toMatch(/only the first|2 benchmarks/);
    expect(body.warnings).toContain(
      "benchmarks_stripped.yaml holds the same benchmark as benchmarks_stripped.json: read once",
    );
    const run = await readRun(body.id);
    expect(fileNames(run)).toEqual([
      "benchmarks_stripped.json",
      "benchmarks_stripped.yaml",
      "benchmarks_stripped_output.txt",
    ]);
    expect(await storedRunCount()).toBe(1);
  });
});

const AGENTIC = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";
describeRealPublic(AGENTIC, () => {
  it("stays one run: its aiperf files, server metrics and InferenceX result describe one run", async () => {
    const parts = realPublicParts(AGENTIC);
    const body = await send(parts);
    expect(body.runs).toBeUndefined();
    expect(body.sweep).toBeUndefined();
    const run = await readRun(body.id);
    expect(run.files).toHaveLength(parts.length);
    const records = fs
      .readFileSync(realPublicFile(AGENTIC, "profile_export.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "").length;
    expect(run.files.find((f) => f.name === "profile_export.jsonl")?.records).toBe(records);
    expect(await storedRunCount()).toBe(1);
  });
});
