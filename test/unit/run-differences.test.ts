/**
 * The comparability doctor (docs/metrics.md §Comparable runs): one test per reason, each showing
 * the difference it names, the side it leaves alone, and the verdict it leads to.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_FACTS, type RunFacts } from "@/lib/api/run-facts";
import type { RequestsBlock, Stats } from "@/lib/api/schemas";
import { timeBreakdown } from "./compare-helpers";
import {
  blockingText,
  diagnose,
  kolmogorovQ,
  ksTwoSample,
  type DoctorRun,
} from "@/lib/metrics/run-differences";

const fact = <T>(value: T, source = "aiperf input_config") => ({ value, source, edited: false });

const stats = (mean: number, p50 = mean, p99 = mean * 1.5): Stats => ({ count: 400, mean, p50, p99 });

type Requests = NonNullable<DoctorRun["requests"]>;
const requests = (over: Partial<Requests> = {}): Requests => ({
  count: 400,
  errorCount: 0,
  cancelledCount: 0,
  warmupCount: 16,
  warmupSource: "records" as RequestsBlock["warmupSource"],
  inputTokens: stats(1000),
  outputTokens: stats(200),
  ...over,
});

function run(over: Partial<RunFacts> = {}, rest: Omit<DoctorRun, "facts"> = {}): DoctorRun {
  return {
    facts: {
      ...EMPTY_FACTS,
      model: fact("mock-llama-8b"),
      gpuModel: fact("NVIDIA H100 80GB HBM3", "GPU telemetry"),
      gpuCount: fact(2, "GPU telemetry"),
      backend: fact("vllm", "server metrics"),
      isl: fact(1000, "measured mean"),
      osl: fact(200, "measured mean"),
      concurrency: fact(4),
      ...over,
    },
    requests: requests(),
    info: { concurrency: 4, effectiveConcurrency: 3.9 },
    collectors: { returnPerfMetrics: null, enableIterPerfStats: null, publishKvEvents: null },
    ...rest,
  };
}

const base = run();
const names = (a: DoctorRun, b: DoctorRun) => diagnose(a, b).reasons.map((r) => [r.name, r.severity]);

describe("diagnose", () => {
  it("finds nothing between a run and itself, nor in the case or spacing of a name: comparable", () => {
    expect(diagnose(base, base)).toEqual({ verdict: "comparable", reasons: [] });
    const same = run({ model: fact(" Mock-Llama-8B "), backend: fact("VLLM", "server metrics") });
    expect(diagnose(base, same).verdict).toBe("comparable");
  });

  it("counts a fact one run does not state as no difference", () => {
    const bare: DoctorRun = { facts: { ...EMPTY_FACTS, model: fact("mock-llama-8b") } };
    expect(diagnose(base, bare)).toEqual({ verdict: "comparable", reasons: [] });
  });

  it("model: blocks, each side and its source named", () => {
    const r = diagnose(base, run({ model: fact("Qwen/Qwen3-0.6B", "edited") }));
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons).toEqual([
      {
        name: "model",
        group: "workload",
        severity: "blocking",
        accepted: false,
        label: "model",
        a: "mock-llama-8b",
        b: "Qwen/Qwen3-0.6B",
        evidence: "from aiperf input_config and edited",
      },
    ]);
    expect(blockingText(r.reasons)).toBe("model mock-llama-8b vs Qwen/Qwen3-0.6B");
  });

  it("GPU: blocks on another model or another count of the same model", () => {
    const one = diagnose(base, run({ gpuCount: fact(1, "GPU telemetry") }));
    expect(one.reasons.map((r) => [r.name, r.a, r.b])).toEqual([
      ["gpu", "2 × NVIDIA H100 80GB HBM3", "1 × NVIDIA H100 80GB HBM3"],
    ]);
    expect(names(base, run({ gpuModel: fact("NVIDIA B200", "GPU telemetry") }))).toEqual([
      ["gpu", "blocking"],
    ]);
  });

  it("backend blocks; backend version is a caveat", () => {
    expect(names(base, run({ backend: fact("sglang", "server metrics") }))).toEqual([
      ["backend", "blocking"],
    ]);
    const v = diagnose(
      run({ backendVersion: fact("0.10.1", "engine config") }),
      run({ backendVersion: fact("0.11.0", "engine config") }),
    );
    expect(v.verdict).toBe("comparable with caveats");
    expect(v.reasons.map((r) => [r.name, r.severity, r.a, r.b])).toEqual([
      ["backend-version", "caveat", "0.10.1", "0.11.0"],
    ]);
  });

  it("parallelism: blocks when a role's TP/PP/EP/DP or worker count differs, not on role order", () => {
    const roles = (tp: number) =>
      fact(
        [
          { role: "prefill", count: 1, tp, pp: null, ep: null, dp: null },
          { role: "decode", count: 2, tp: 4, pp: null, ep: null, dp: null },
        ],
        "engine config",
      );
    const a = run({ roles: roles(2) });
    const swapped = run({ roles: fact([...roles(2).value].reverse(), "engine config") });
    expect(diagnose(a, swapped).verdict).toBe("comparable");
    // A TP one run does not state is no difference; another set of roles is.
    const unstated = fact([
      { role: "prefill", count: 1, tp: null, pp: null, ep: null, dp: null },
      roles(2).value[1],
    ]);
    expect(diagnose(a, run({ roles: unstated })).verdict).toBe("comparable");
    const aggregated = fact([{ role: "combined", count: 1, tp: 4, pp: null, ep: null, dp: null }]);
    expect(names(a, run({ roles: aggregated }))).toEqual([["parallelism", "blocking"]]);
    const r = diagnose(a, run({ roles: roles(4) }));
    expect(r.reasons.map((x) => [x.name, x.a, x.b])).toEqual([
      ["parallelism", "1 × prefill TP2, 2 × decode TP4", "1 × prefill TP4, 2 × decode TP4"],
    ]);
  });

  it("concurrency and request rate: block on any difference", () => {
    const eight = run({ concurrency: fact(8) }, { info: { concurrency: 8, effectiveConcurrency: 7.9 } });
    expect(names(base, eight)).toEqual([["concurrency", "blocking"]]);
    const rate = (v: number) => run({ concurrency: null, requestRate: fact(v) });
    expect(names(rate(10), rate(10))).toEqual([]);
    expect(diagnose(rate(10), rate(20)).reasons.map((r) => [r.name, r.a, r.b])).toEqual([
      ["request-rate", "10 req/s", "20 req/s"],
    ]);
  });

  it("ISL/OSL without rows: mean and p50 within 10%, p99 within 20%, from the stored statistics", () => {
    const withLens = (input: Stats, output: Stats) =>
      run({}, { requests: requests({ inputTokens: input, outputTokens: output }) });
    const a = withLens(stats(1000, 1000, 1500), stats(200, 200, 300));
    // Mean 9% off, p99 19% off: the same workload.
    expect(names(a, withLens(stats(1090, 1050, 1780), stats(200, 200, 300)))).toEqual([]);
    // Same mean and p50, a tail 40% longer: another workload.
    const tail = diagnose(a, withLens(stats(1000, 1000, 1500), stats(200, 200, 500)));
    expect(tail.reasons.map((r) => [r.name, r.label, r.a, r.b])).toEqual([
      ["osl", "OSL", "p99 300 tokens", "p99 500 tokens"],
    ]);
    expect(tail.reasons[0].evidence).toMatch(/p99 300 vs 500 \(beyond 20%\); no per-request rows/);
  });

  it("ISL/OSL from the stated means alone when no statistics exist (config settings)", () => {
    const cfg = (isl: number) => run({ isl: fact(isl, "aiperf input_config") }, { requests: null });
    expect(names(cfg(1000), cfg(1080))).toEqual([]);
    expect(diagnose(cfg(1000), cfg(3000)).reasons.map((r) => [r.name, r.a, r.b])).toEqual([
      ["isl", "1,000 tokens", "3,000 tokens"],
    ]);
  });

  it("ISL/OSL with rows: the two-sample KS test decides, not the means", () => {
    // Same mean (550), different shape: one run's lengths are spread 100…1000, the other's fixed at 550.
    const spread = Float64Array.from({ length: 200 }, (_, i) => 100 + (900 * i) / 199);
    const fixed = Float64Array.from({ length: 200 }, () => 550);
    const tokens = (input: Float64Array) => ({ input, output: null });
    const r = diagnose(base, base, { tokens: [tokens(spread), tokens(fixed)] });
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons[0]).toMatchObject({ name: "isl", label: "ISL distribution", a: "mean 550 tokens" });
    expect(r.reasons[0].evidence).toMatch(/two-sample KS .* D = 0\.50, p < 0\.001 \(n = 200 vs 200/);
    // Two draws of one distribution pass, although their stored means would say nothing else.
    const shifted = Float64Array.from(spread, (v, i) => (i % 2 ? v + 3 : v - 3));
    expect(diagnose(base, base, { tokens: [tokens(spread), tokens(shifted)] }).verdict).toBe("comparable");
    // Under 20 rows a side, the stored statistics decide.
    const few = tokens(spread.slice(0, 10));
    expect(diagnose(base, base, { tokens: [few, tokens(fixed)] }).verdict).toBe("comparable");
  });

  it("request count: a caveat beyond 10%", () => {
    expect(names(base, run({}, { requests: requests({ count: 430 }) }))).toEqual([]);
    const r = diagnose(base, run({}, { requests: requests({ count: 100 }) }));
    expect(r.verdict).toBe("comparable with caveats");
    expect(r.reasons.map((x) => [x.name, x.a, x.b])).toEqual([
      ["request-count", "400 requests", "100 requests"],
    ]);
  });

  it("request count: blocks when one run holds more than 10× the other's requests", () => {
    expect(names(base, run({}, { requests: requests({ count: 40 }) }))).toEqual([
      ["request-count", "caveat"],
    ]);
    const r = diagnose(base, run({}, { requests: requests({ count: 39 }) }));
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["request-count", "blocking", "400 requests", "39 requests"],
    ]);
    expect(r.reasons[0].evidence).toMatch(/holds 10× the other's requests \(more than 10×: not comparable\)/);
  });

  /** A TensorRT-LLM perf-metrics run: no client requests block, the engine's time breakdown. */
  const engineRun = (requestCount: number) =>
    run(
      { concurrency: null, isl: null, osl: null },
      {
        requests: null,
        info: {},
        timeBreakdown: timeBreakdown("disaggregated", requestCount),
      },
    );

  it("sample size: a caveat when a run holds fewer than 20 requests, counted from its perf metrics too", () => {
    const r = diagnose(engineRun(300), engineRun(19));
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["request-count", "blocking", "300 requests", "19 requests"],
      ["sample-size", "caveat", "300 requests", "19 requests"],
    ]);
    expect(r.reasons[1].evidence).toMatch(
      /^the second run holds fewer than 20 requests: its percentiles are single requests' values/,
    );
    expect(r.reasons[0].evidence).toMatch(/from TensorRT-LLM perf metrics$/);
    const small = diagnose(engineRun(3), engineRun(3));
    expect(small.verdict).toBe("comparable with caveats");
    expect(small.reasons.map((x) => [x.name, x.a])).toEqual([["sample-size", "3 requests"]]);
    expect(small.reasons[0].evidence).toMatch(/^both runs hold fewer than 20 requests/);
    expect(names(engineRun(20), engineRun(21))).toEqual([]);
  });

  it("measured by: blocks engine-side perf metrics against a client load generator, with every count reason", () => {
    // The example runs: one disaggregated TensorRT-LLM request against aiperf's 64.
    const client = run({}, { requests: { ...requests({ count: 64 }), source: "aiperf-summary" } });
    const r = diagnose(engineRun(1), client);
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["request-count", "blocking", "1 request", "64 requests"],
      ["sample-size", "caveat", "1 request", "64 requests"],
      ["measured-by", "blocking", "TensorRT-LLM perf metrics at the engine", "aiperf at the client"],
    ]);
    expect(r.reasons[0].evidence).toMatch(
      /holds 64× the other's requests.*from TensorRT-LLM perf metrics and aiperf$/,
    );
    expect(r.reasons[2].evidence).toMatch(/a load generator times each request at the client/);
    expect(blockingText(r.reasons)).toBe(
      "request count 1 request vs 64 requests; measured by TensorRT-LLM perf metrics at the engine vs aiperf at the client",
    );
    // Accepting both leaves the caveat: comparable with caveats.
    const accepted = diagnose(engineRun(1), client, { accept: new Set(["measured-by", "request-count"]) });
    expect(accepted.verdict).toBe("comparable with caveats");
  });

  it("measured by: a run with both client and engine figures shares a vantage with either; two tools are a caveat", () => {
    const both = run({}, { timeBreakdown: engineRun(400).timeBreakdown });
    expect(names(both, engineRun(400))).toEqual([]);
    expect(names(both, base)).toEqual([]);
    // A server-metrics-only run has no per-request figures: nothing to set against.
    expect(names(run({}, { requests: null }), engineRun(400))).toEqual([]);
    const vllm = run(
      {},
      {
        requests: { ...requests(), source: "tool" },
        info: { concurrency: 4, benchmarkTool: "vLLM bench serve" },
      },
    );
    const aiperf = run({}, { requests: { ...requests(), source: "aiperf" } });
    const r = diagnose(aiperf, vllm);
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["measured-by", "caveat", "aiperf at the client", "vLLM bench serve at the client"],
    ]);
    expect(r.verdict).toBe("comparable with caveats");
    // Unknown producers (no source) are no difference.
    expect(names(base, aiperf)).toEqual([]);
  });

  it("measured by: each kind names its producer and where it measured, each once", () => {
    const engine = engineRun(400);
    const client = (source: string | undefined, info: Record<string, unknown> = {}) =>
      run({}, { requests: { ...requests(), source }, info: { concurrency: 4, ...info } });
    const side = (r: ReturnType<typeof run>) =>
      diagnose(r, engine).reasons.find((x) => x.name === "measured-by")?.a;
    const sides = {
      aiperf: side(client("aiperf")),
      tool: side(client("tool", { benchmarkTool: "vLLM bench serve" })),
      summary: side(client("tool-summary")),
      unknown: side(client(undefined)),
      frontend: side(client("dynamo-request-trace")),
      engine: diagnose(engine, client("aiperf")).reasons.find((x) => x.name === "measured-by")?.a,
      both: diagnose(
        run({}, { requests: { ...requests(), source: "aiperf" }, timeBreakdown: engine.timeBreakdown }),
        client("dynamo-request-trace"),
      ).reasons.find((x) => x.name === "measured-by")?.a,
    };
    expect(sides).toEqual({
      aiperf: "aiperf at the client",
      tool: "vLLM bench serve at the client",
      summary: "a benchmark tool's summary at the client",
      unknown: "a load generator at the client",
      frontend: "Dynamo request trace at the serving frontend",
      engine: "TensorRT-LLM perf metrics at the engine",
      both: "aiperf at the client + TensorRT-LLM perf metrics at the engine",
    });
    // No word of substance said twice on one side ("engine (TensorRT-LLM perf metrics):
    // TensorRT-LLM perf metrics", "client load generator: a load generator").
    for (const text of Object.values(sides)) {
      const words = text!
        .split(" + ")
        .flatMap((p) => p.toLowerCase().split(/[^a-z-]+/))
        .filter((w) => w.length > 3);
      expect(new Set(words).size, text).toBe(words.length);
    }
  });

  it("multi-turn shape: blocks single against multi-turn, a caveat between conversation lengths", () => {
    const turns = (n: number | undefined) =>
      run({}, { info: { concurrency: 4, ...(n === undefined ? {} : { maxTurnIndex: n }) } });
    expect(diagnose(turns(undefined), turns(4)).reasons.map((r) => [r.name, r.severity, r.a, r.b])).toEqual([
      ["turns", "blocking", "single turn", "up to 5 turns a conversation"],
    ]);
    expect(names(turns(2), turns(4))).toEqual([["turns", "caveat"]]);
    expect(names(turns(4), turns(4))).toEqual([]);
  });

  it("collectors: a performance collector on in one run only blocks; inferred from a time breakdown", () => {
    const off = run(
      {},
      { collectors: { returnPerfMetrics: false, enableIterPerfStats: false, publishKvEvents: null } },
    );
    const on = run(
      {},
      {
        collectors: { returnPerfMetrics: null, enableIterPerfStats: true, publishKvEvents: null },
        timeBreakdown: timeBreakdown("aggregated", 10),
      },
    );
    const r = diagnose(off, on);
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons.map((x) => [x.name, x.a, x.b])).toEqual([
      [
        "collectors",
        "return_perf_metrics off, enable_iter_perf_stats off",
        "return_perf_metrics on, enable_iter_perf_stats on",
      ],
    ]);
    expect(r.reasons[0].evidence).toMatch(
      /return_perf_metrics: recorded vs inferred from the TensorRT-LLM time breakdown of 10 requests/,
    );
    // Unknown on one side is no difference here (compare notes it apart).
    expect(names(off, base)).toEqual([]);
  });

  it("collectors: one implied by older Dynamo's --publish-events-and-metrics is a caveat that names the inference", () => {
    const evidence =
      "inferred from --publish-events-and-metrics in dynamo.yaml: Dynamo's TensorRT-LLM worker defaulted return_perf_metrics to it";
    const off = run(
      {},
      { collectors: { returnPerfMetrics: false, enableIterPerfStats: null, publishKvEvents: true } },
    );
    const implied = run(
      {},
      {
        collectors: { returnPerfMetrics: true, enableIterPerfStats: null, publishKvEvents: true },
        collectorsInferredFrom: { returnPerfMetrics: evidence },
      },
    );
    const r = diagnose(off, implied);
    expect(r.verdict).toBe("comparable with caveats");
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["collectors", "caveat", "return_perf_metrics off", "return_perf_metrics on"],
    ]);
    expect(r.reasons[0].evidence).toContain(`return_perf_metrics: recorded vs ${evidence}`);
    // Recorded on both sides, the same difference blocks.
    const recorded = run(
      {},
      { collectors: { returnPerfMetrics: true, enableIterPerfStats: null, publishKvEvents: true } },
    );
    expect(diagnose(off, recorded).verdict).toBe("not comparable");
  });

  it("warm-up: a caveat when one run excluded a warm-up and the other had none", () => {
    const none = run({}, { requests: requests({ warmupCount: 0, warmupSource: "config" }) });
    const r = diagnose(base, none);
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["warmup", "caveat", "16 warm-up requests, excluded", "no warm-up"],
    ]);
    const unknown = run({}, { requests: requests({ warmupCount: null, warmupSource: undefined }) });
    expect(names(unknown, none)).toEqual([]);
    const timed = run({}, { requests: requests({ warmupCount: null, warmupSource: "config" }) });
    expect(diagnose(timed, none).reasons[0].a).toBe("a warm-up of unknown size, excluded");
    // One warm-up request is one request, not "1 warm-up requests".
    const one = run({}, { requests: requests({ warmupCount: 1, warmupSource: "config" }) });
    expect(diagnose(one, none).reasons[0].a).toBe("1 warm-up request, excluded");
  });

  it("errors and cancellations: a caveat at 1 point apart, blocking at 2 points with a run at 5% or more", () => {
    const errs = (n: number) => run({}, { requests: requests({ errorCount: n }) });
    expect(names(errs(0), errs(3))).toEqual([]); // 0.75 points
    expect(names(errs(0), errs(6))).toEqual([["errors", "caveat"]]); // 1.5 points
    expect(names(errs(0), errs(12))).toEqual([["errors", "caveat"]]); // 3 points, both under 5%
    const r = diagnose(errs(16), errs(28)); // 4% vs 7%
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["errors", "blocking", "4.0% (16 of 400)", "7.0% (28 of 400)"],
    ]);
    const cancels = run({}, { requests: requests({ cancelledCount: 40 }) });
    expect(names(base, cancels)).toEqual([["cancellations", "blocking"]]);
  });

  it("saturation: a caveat when aiperf's effective concurrency falls under 90% of the requested", () => {
    const held = (c: number) => run({}, { info: { concurrency: 4, effectiveConcurrency: c } });
    expect(names(held(3.7), held(3.9))).toEqual([]);
    const r = diagnose(held(3.9), held(2.5));
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      // A run whose files carry no queue wait says so, never a wait of 0.
      [
        "saturation",
        "caveat",
        "concurrency 3.90 of 4 requested; queue wait not measured",
        "concurrency 2.50 of 4 requested; queue wait not measured",
      ],
    ]);
    expect(r.reasons[0].evidence).toMatch(/in the second run/);
  });

  // aiperf 0.8+ (src/aiperf/metrics/derived_latency.py): credit_to_start_latency is
  // request_start_ns − credit_issued_ns per profiling record; the run info carries its p50/p90.
  it("saturation: a caveat when client-side queueing is 10% of the TTFT or more (p50 or p90), 1 ms at least", () => {
    const queued = (
      p50: number,
      p90: number,
      ttft: Stats | null = { count: 400, mean: 60, p50: 50, p90: 90, p99: 120 },
    ) =>
      run(
        {},
        {
          requests: requests({ ttftMs: ttft }),
          info: {
            concurrency: 4,
            effectiveConcurrency: 3.9,
            queueWaitP50Ms: p50,
            queueWaitP90Ms: p90,
            queueWaitSource: "aiperf credit_to_start_latency (request_start_ns − credit_issued_ns)",
          },
        },
      );
    // 2 ms of 50, 8 ms of 90: under 10% at both percentiles.
    expect(names(queued(2, 8), queued(2, 8))).toEqual([]);
    // The p90 wait reaches 10% of the p90 TTFT (9 of 90).
    const r = diagnose(queued(2, 8), queued(2, 9));
    expect(r.reasons.map((x) => [x.name, x.severity, x.b])).toEqual([
      [
        "saturation",
        "caveat",
        "concurrency 3.90 of 4 requested; queue wait p50 2.00 ms, p90 9.00 ms against TTFT p50 50.0 ms, p90 90.0 ms",
      ],
    ]);
    // A run stored with the field names as its source reads in words (lib/api/source-words.ts).
    expect(r.reasons[0].evidence).toMatch(
      /client-side queueing \(aiperf summary: each request's wait from the credit being issued to the request being sent\) at p90/,
    );
    expect(r.reasons[0].evidence).toMatch(/in the second run/);
    // The p50 wait at 10% of the p50 TTFT.
    expect(names(queued(5, 5), base)).toEqual([["saturation", "caveat"]]);
    // Under the 1 ms floor: a 0.5 ms wait against a 2 ms TTFT is clock noise, not queueing.
    const tiny = { count: 400, mean: 2, p50: 2, p90: 3, p99: 4 };
    expect(names(queued(0.5, 0.5, tiny), base)).toEqual([]);
    // No TTFT (not streamed): the request latency is the yardstick.
    const noTtft = run(
      {},
      {
        requests: requests({ ttftMs: null, e2eMs: { count: 400, mean: 40, p50: 40, p90: 60, p99: 80 } }),
        info: { concurrency: 4, effectiveConcurrency: 3.9, queueWaitP50Ms: 4, queueWaitP90Ms: 5 },
      },
    );
    const e2e = diagnose(base, noTtft).reasons[0];
    expect(e2e.b).toMatch(/against request latency p50 40\.0 ms/);
    expect(e2e.a).toBe("concurrency 3.90 of 4 requested; queue wait not measured");
  });

  it("accepts blocking differences by name or all; a caveat stays a caveat", () => {
    const other = run({ model: fact("Qwen/Qwen3-0.6B"), gpuCount: fact(1, "GPU telemetry") });
    expect(diagnose(base, other, { accept: new Set(["model"]) }).verdict).toBe("not comparable");
    const both = diagnose(base, other, { accept: new Set(["model", "gpu"]) });
    expect(both.verdict).toBe("comparable with caveats");
    expect(both.reasons.every((r) => r.accepted)).toBe(true);
    expect(blockingText(both.reasons)).toBe("");
    expect(diagnose(base, other, { accept: "all" }).verdict).toBe("comparable with caveats");
    const caveat = diagnose(base, run({}, { requests: requests({ count: 100 }) }), { accept: "all" });
    expect(caveat.reasons[0].accepted).toBe(false);
  });
});

describe("ksTwoSample", () => {
  it("matches scipy.stats.ks_2samp: D exactly, p within 1e-4 of its asymptotic p-value", () => {
    // scipy 1.17: ks_2samp(arange(1, 61), arange(16, 76), method="asymp") → D 0.25, p 0.038724
    const x = Float64Array.from({ length: 60 }, (_, i) => i + 1);
    const y = Float64Array.from({ length: 60 }, (_, i) => i + 16);
    const r = ksTwoSample(x, y);
    expect(r.d).toBeCloseTo(0.25, 12);
    expect(Math.abs(r.p - 0.038724)).toBeLessThan(1e-4);
    // Ties across the samples step both CDFs at once: identical samples have D = 0.
    expect(ksTwoSample([1, 2, 2, 3], [1, 2, 2, 3])).toEqual({ d: 0, p: 1 });
  });

  it("Kolmogorov's distribution: Q(1.0) = 0.2700, Q(1.36) = 0.0495 (the 5% critical value)", () => {
    expect(kolmogorovQ(1.0)).toBeCloseTo(0.27, 4);
    expect(kolmogorovQ(1.36)).toBeCloseTo(0.049486, 5);
  });
});
