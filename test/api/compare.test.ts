import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { POST as upload } from "@/app/api/runs/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { fixture, freshAppEachTest, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

async function uploadRun(dir: string, name: string): Promise<string> {
  const res = await upload(
    uploadRequest(
      [
        { name: "perf_metrics-0.jsonl", path: fixture(`compare/${dir}/perf_metrics-0.jsonl`) },
        { name: "extra-llm-api-config.yml", path: fixture(`compare/${dir}/extra-llm-api-config.yml`) },
      ],
      { name },
    ),
  );
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

const get = (qs: string) => compare(new Request(`http://localhost/api/compare?${qs}`));

describe("GET /api/compare", () => {
  it("returns both runs, deltas against the baseline at the statistic, and the collector mismatch", async () => {
    const a = await uploadRun("run-a", "baseline");
    const b = await uploadRun("run-b", "branch");
    // enable_iter_perf_stats is on in the branch only: not comparable until the user accepts it.
    const refused = compareResponseSchema.parse(await (await get(`runs=${a},${b}&baseline=${a}`)).json());
    expect(refused.comparability!.runs[0].verdict).toBe("not comparable");
    // A few requests each: too few for a distribution, a caveat beside the collector that blocks.
    expect(refused.comparability!.runs[0].reasons.map((r) => [r.name, r.severity])).toEqual([
      ["sample-size", "caveat"],
      ["collectors", "blocking"],
    ]);
    expect(refused.comparability!.runs[0].reasons[1]).toMatchObject({
      a: "enable_iter_perf_stats off",
      b: "enable_iter_perf_stats on",
    });
    expect(refused.rows.find((r) => r.key === "segment:ctx_queue")!.cells[1].verdict).toBe("neutral");
    const res = await get(`runs=${a},${b}&baseline=${a}&stat=p50&allowDifferent=collectors`);
    expect(res.status).toBe(200);
    const body = compareResponseSchema.parse(await res.json());
    expect(body.comparability!.runs[0].verdict).toBe("comparable with caveats");
    expect(body.baseline).toBe(a);
    expect(body.runs.map((r) => r.name)).toEqual(["baseline", "branch"]);
    expect(body.missing).toEqual([]);
    expect(body.chartKeys[a]).toContain("trtllm-segments");

    // Hand-computed: queue 10/20/30 ms vs 5/10/15 ms → p50 20 → 10 (−50 %, better).
    const queue = body.rows.find((r) => r.key === "segment:ctx_queue")!;
    expect(queue.direction).toBe("lower");
    expect(queue.baseline).toBeCloseTo(20, 6);
    expect(queue.cells[1].value).toBeCloseTo(10, 6);
    expect(queue.cells[1].percent).toBeCloseTo(-0.5, 6);
    expect(queue.cells[1].verdict).toBe("better");
    // Decode 200/300/400 vs 100/150/200 at p90: 380 → 190.
    const p90 = compareResponseSchema.parse(
      await (await get(`runs=${a},${b}&baseline=${b}&stat=p90&allowDifferent=collectors`)).json(),
    );
    const decode = p90.rows.find((r) => r.key === "segment:decode")!;
    expect(decode.baseline).toBeCloseTo(190, 6);
    expect(decode.cells[0].value).toBeCloseTo(380, 6);
    expect(decode.cells[0].verdict).toBe("worse");

    expect(body.collectorMismatches).toEqual([
      expect.objectContaining({
        flag: "enable_iter_perf_stats",
        kind: "differs",
        onRunIds: [b],
        offRunIds: [a],
      }),
    ]);
  });

  it("a collector on only by older Dynamo's KV-event flag in one run: comparable with caveats, the inference named", async () => {
    // Both runs hold the same perf metrics (run-a); the baseline's Dynamo worker publishes KV events
    // with --publish-kv-events and its engine config turns iteration stats off; the branch's older
    // worker publishes them with --publish-events-and-metrics and states neither collector. Dynamo's
    // TensorRT-LLM worker turned enable_iter_perf_stats on with that flag (ai-dynamo/dynamo
    // examples/tensorrt_llm/common/base_engine.py; components/src/dynamo/trtllm/main.py until PR
    // #12162, components/src/dynamo/trtllm/args.py at 0a6a115c6cd15ae95647e90c55be2ea06b36e66f).
    const perf = { name: "perf_metrics-0.jsonl", path: fixture("compare/run-a/perf_metrics-0.jsonl") };
    const launch = (flag: string) =>
      `decode:\n  args:\n    - --model-path\n    - /models/x\n    - ${flag}\n    - --extra-engine-args\n    - /cfg/decode.yaml\n`;
    const up = async (name: string, files: Array<{ name: string; content?: string; path?: string }>) => {
      const res = await upload(uploadRequest(files, { name }));
      expect(res.status).toBe(201);
      return (await res.json()).id as string;
    };
    const a = await up("kv events", [
      perf,
      { name: "dynamo-decode.yaml", content: launch("--publish-kv-events") },
      { name: "extra-llm-api-config.yml", content: "backend: pytorch\nenable_iter_perf_stats: false\n" },
    ]);
    const b = await up("older dynamo", [
      perf,
      { name: "dynamo-decode.yaml", content: launch("--publish-events-and-metrics") },
      { name: "extra-llm-api-config.yml", content: "backend: pytorch\n" },
    ]);
    const body = compareResponseSchema.parse(await (await get(`runs=${a},${b}&baseline=${a}`)).json());
    const report = body.comparability!.runs[0];
    expect(report.verdict).toBe("comparable with caveats");
    const collectors = report.reasons.filter((r) => r.name !== "sample-size");
    expect(collectors.map((r) => [r.name, r.severity, r.a, r.b])).toEqual([
      ["collectors", "caveat", "enable_iter_perf_stats off", "enable_iter_perf_stats on"],
    ]);
    expect(collectors[0].evidence).toMatch(
      /enable_iter_perf_stats: recorded vs inferred from --publish-events-and-metrics in dynamo-decode\.yaml: Dynamo's TensorRT-LLM worker turned enable_iter_perf_stats on with it/,
    );
    // return_perf_metrics is proved on in both by the perf metrics, so it is no difference.
    expect(collectors[0].evidence).not.toMatch(/return_perf_metrics/);
  });

  it("defaults the baseline to the first run and reports unknown ids", async () => {
    const a = await uploadRun("run-a", "only");
    const body = compareResponseSchema.parse(await (await get(`runs=${a},AAAAAAAAAAAAAAAAAAAAAA`)).json());
    expect(body.baseline).toBe(a);
    expect(body.stat).toBe("p50");
    expect(body.missing).toEqual(["AAAAAAAAAAAAAAAAAAAAAA"]);
  });

  it("rejects bad queries with 400 and unknown runs with 404", async () => {
    const nine = Array.from({ length: 9 }, (_, i) => `run000000${i}`).join(",");
    for (const q of ["runs=", "runs=a/b", "runs=AAAAAAAAAA&stat=p42", `runs=${nine}`]) {
      const bad = await get(q);
      expect(bad.status, q).toBe(400);
      expect((await bad.json()).error.code, q).toBe("bad_request");
    }
    const res = await get("runs=AAAAAAAAAAAAAAAAAAAAAA");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
  });
});

// p75 (docs/metrics.md §Compare): the statistic is accepted and read per segment.
describe("GET /api/compare at p75", () => {
  it("reads p75 of every segment: rank 0.75 × 2 = 1.5, halfway between the 2nd and 3rd value", async () => {
    const a = await uploadRun("run-a", "baseline");
    const b = await uploadRun("run-b", "branch");
    // The runs differ in enable_iter_perf_stats (see above): accepted, so the verdicts show.
    const res = await get(`runs=${a},${b}&stat=p75&allowDifferent=collectors`);
    expect(res.status).toBe(200);
    const body = compareResponseSchema.parse(await res.json());
    expect(body.stat).toBe("p75");
    // Queue 10/20/30 ms vs 5/10/15 ms → 25 and 12.5; decode 200/300/400 vs 100/150/200 → 350 and 175.
    const queue = body.rows.find((r) => r.key === "segment:ctx_queue")!;
    expect(queue.baseline).toBeCloseTo(25, 6);
    expect(queue.cells[1].value).toBeCloseTo(12.5, 6);
    const decode = body.rows.find((r) => r.key === "segment:decode")!;
    expect(decode.baseline).toBeCloseTo(350, 6);
    expect(decode.cells[1].value).toBeCloseTo(175, 6);
    expect(decode.cells[1].verdict).toBe("better");
  });
});

// p95 (docs/metrics.md §Compare), segment rows named as the breakdown names them, and the metrics
// no compared run has listed rather than shown as rows of "—".
describe("GET /api/compare at p95", () => {
  it("reads p95 of every segment: rank 0.95 × 2 = 1.9, nine tenths from the 2nd to the 3rd value", async () => {
    const a = await uploadRun("run-a", "baseline");
    const b = await uploadRun("run-b", "branch");
    const res = await get(`runs=${a},${b}&stat=p95`);
    expect(res.status).toBe(200);
    const body = compareResponseSchema.parse(await res.json());
    expect(body.stat).toBe("p95");
    // Queue 10/20/30 ms vs 5/10/15 ms → 29 and 14.5; decode 200/300/400 vs 100/150/200 → 390 and 195.
    const queue = body.rows.find((r) => r.key === "segment:ctx_queue")!;
    expect(queue.baseline).toBeCloseTo(29, 6);
    expect(queue.cells[1].value).toBeCloseTo(14.5, 6);
    expect(queue.cells[1].percent).toBeCloseTo(-0.5, 6);
    const decode = body.rows.find((r) => r.key === "segment:decode")!;
    expect(decode.baseline).toBeCloseTo(390, 6);
    expect(decode.cells[1].value).toBeCloseTo(195, 6);
  });

  it("labels a segment row in words with its name and sentence as its description, and lists what no run has", async () => {
    const a = await uploadRun("run-a", "baseline");
    const b = await uploadRun("run-b", "branch");
    const body = compareResponseSchema.parse(await (await get(`runs=${a},${b}&stat=p95`)).json());
    const queue = body.rows.find((r) => r.key === "segment:ctx_queue")!;
    expect(queue.label).toBe("context queue p95");
    expect(queue.description).toBe("ctx_queue: Wait in the scheduler queue and allocate KV blocks");
    // Perf metrics alone: no client latency, throughput or server-metrics scrape in either run.
    expect(body.absent).toEqual(
      expect.arrayContaining(["TTFT", "ITL", "Request throughput", "KV usage (avg)", "Offload GPU→CPU"]),
    );
    expect(body.absent).not.toContain("Server TTFT");
    for (const row of body.rows)
      expect(
        row.cells.some((c) => c.value !== null),
        row.key,
      ).toBe(true);
  });
});
