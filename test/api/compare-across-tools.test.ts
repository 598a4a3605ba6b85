/**
 * Compare across benchmark tools: an aiperf run and a vLLM `bench serve --save-detailed` run of
 * the same workload (chat, concurrency 4) uploaded through the route, then one delta table.
 * The vLLM sample follows vllm/benchmarks/serve.py (test/generators/vllm-bench.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getSweep } from "@/app/api/sweeps/[id]/route";
import { sweepSchema } from "@/lib/api/sweeps";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { runSummarySchema } from "@/lib/api/schemas";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { vllmBenchResult } from "../generators/vllm-bench";
import { freshAppEachTest, idParams, uploadRequest, uploadRun } from "../helpers/test-app";

freshAppEachTest();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cross-tool-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("compare an aiperf run with a vLLM bench run", () => {
  it("gives one delta table whose latency and throughput rows have both tools' values", async () => {
    const gen = await generateAiperfRun(path.join(dir, "aiperf"), { records: 200, concurrency: 4, seed: 5 });
    const aiperf = await uploadRun(
      [
        { name: "profile_export.jsonl", path: gen.jsonlPath },
        { name: "profile_export_aiperf.json", path: gen.summaryPath },
      ],
      { name: "aiperf c4" },
    );
    const doc = vllmBenchResult({ requests: 200, concurrency: 4, detailed: true, seed: 5 });
    const vllm = await uploadRun([{ name: "vllm-infqps-concurrency4.json", content: JSON.stringify(doc) }], {
      name: "vllm c4",
    });

    const run = runSummarySchema.parse(await (await getRun(new Request("http://x"), idParams(vllm))).json());
    expect(run.files.map((f) => f.kind)).toEqual(["vllm-bench"]);
    expect(run.info.benchmarkTool).toBe("vLLM bench serve");
    expect(run.warnings).toEqual([]);

    const res = await compare(new Request(`http://localhost/api/compare?runs=${aiperf},${vllm}&stat=p50`));
    expect(res.status).toBe(200);
    const body = compareResponseSchema.parse(await res.json());
    expect(body.baseline).toBe(aiperf);
    const both = body.rows.filter((r) => r.cells.every((c) => c.value !== null)).map((r) => r.key);
    // Per-user interactivity (1000 / TPOT, docs/metrics.md §Derived throughput) comes from the
    // per-request inter-token latencies both tools record; the per-GPU rows need a GPU count,
    // which neither file says.
    expect(both).toEqual(["ttft", "e2e", "itl", "requestThroughput", "outputTokenThroughput", "tokPerUser"]);

    // The vLLM cell is the median of the generator's TTFTs, in ms, against aiperf's.
    const ttft = body.rows.find((r) => r.key === "ttft")!;
    const okTtfts = (doc.ttfts as number[]).map((s) => s * 1000).sort((a, b) => a - b);
    expect(ttft.cells[1].value).toBeCloseTo((okTtfts[99] + okTtfts[100]) / 2, 9);
    expect(ttft.baseline).toBeCloseTo(gen.summary.time_to_first_token.p50, 9);
    expect(ttft.cells[1].percent).toBeCloseTo((ttft.cells[1].value! - ttft.baseline!) / ttft.baseline!, 12);
    const thr = body.rows.find((r) => r.key === "requestThroughput")!;
    expect(thr.cells[1].value).toBeCloseTo(doc.request_throughput as number, 9);
  });

  it("a folder per concurrency of vLLM results makes a sweep whose points come from the imported requests", async () => {
    const levels = [1, 4, 16];
    const docs = levels.map((c) =>
      vllmBenchResult({ requests: 60, concurrency: c, detailed: true, seed: c }),
    );
    const res = await upload(
      uploadRequest(
        docs.map((d, i) => ({
          name: `vllm-sweep/concurrency_${levels[i]}/result.json`,
          content: JSON.stringify(d),
        })),
      ),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    const sweep = sweepSchema.parse(
      await (await getSweep(new Request("http://x"), idParams(body.sweep.id))).json(),
    );
    expect(sweep.runs.map((r) => r.concurrency)).toEqual(levels);
    for (const [i, run] of sweep.runs.entries()) {
      expect(run.source).toBe("records");
      // Throughput over vLLM's own duration, as the run's requests block has it.
      expect(run.points.mean.requestsPerS).toBeCloseTo(docs[i].request_throughput as number, 9);
      expect(run.points.mean.ttftMs).toBeCloseTo(docs[i].mean_ttft_ms as number, 9);
    }
  });
});
