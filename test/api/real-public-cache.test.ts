/**
 * Cache hit rates on real server-metrics exports (docs/metrics.md §Cache hit rate), uploaded through
 * POST /api/runs and read back through GET /api/runs/{id}; every expected number is read from the
 * producer's file here:
 *
 * - real-public/prometheus-vllm-v1-idle-scrape-qwen1.5: a vLLM V1 `/metrics` scrape right after
 *   start-up, `vllm:prefix_cache_queries_total` and `_hits_total` present at 0: "0 lookups", never
 *   "not exported".
 * - real-public/aiperf-0.8.0-sglang-glm5.1-agentic-conc16/server_metrics_export.csv: aiperf 0.8.0's
 *   CSV of an SGLang 0.5.12 server, `sglang:cached_tokens{cache_source="device"}` at 0 of
 *   7,887,314 prompt tokens, beside SGLang's hit-rate gauge (`sglang:cache_hit_rate`, avg 0.0009)
 *   and its uncached-prompt histogram (1 − 7,764,946 / 7,887,314 = 1.55 %): the 0 % is shown as
 *   0 of N and the other two signals beside it, each under its own name.
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { runSummarySchema } from "@/lib/api/schemas";
import { cacheFacts, endpointHitRateMissing } from "@/lib/metrics/server-metrics/cache-facts";
import { hasCacheData } from "@/lib/api/run-views";
import { serverTiles } from "@/components/run-views/overview-view";
import { describeRealPublic, realPublicFile, realPublicParts } from "../helpers/real-public";
import { freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";

freshAppEachTest();

async function summary(id: string) {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

const VLLM = "prometheus-vllm-v1-idle-scrape-qwen1.5";
const SGLANG = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";

/** One sample of a Prometheus text family (the first line whose name matches exactly). */
function promSample(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  if (!line) throw new Error(`${name} not in the scrape`);
  return Number(line.trim().split(/\s+/).pop());
}

/** aiperf's server-metrics CSV: sections, each under its own `Endpoint,…` header. */
function csvRows(text: string): Array<Record<string, string>> {
  const split = (line: string) => {
    const out: string[] = [];
    let cur = "";
    let quoted = false;
    for (const c of line) {
      if (c === '"') quoted = !quoted;
      else if (c === "," && !quoted) {
        out.push(cur);
        cur = "";
      } else cur += c;
    }
    out.push(cur);
    return out;
  };
  let header: string[] = [];
  const rows: Array<Record<string, string>> = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const cells = split(line);
    if (cells[0] === "Endpoint") header = cells;
    else rows.push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])));
  }
  return rows;
}

describeRealPublic(VLLM, () => {
  it("counters exported at 0 read 0 lookups, never not exported", async () => {
    const text = fs.readFileSync(realPublicFile(VLLM, "vllm_metrics.txt"), "utf8");
    const queries = promSample(text, "vllm:prefix_cache_queries_total");
    const hits = promSample(text, "vllm:prefix_cache_hits_total");
    expect([queries, hits]).toEqual([0, 0]);

    const run = await summary(await uploadRun(realPublicParts(VLLM)));
    const cache = run.serverMetrics!.cache;
    expect(cache.lookupTokens).toBe(queries);
    expect(cache.gpuHitRate).toBeNull(); // 0 / 0 has no rate
    expect(cache.countersExported).toEqual(
      expect.arrayContaining(["vllm:prefix_cache_queries", "vllm:prefix_cache_hits"]),
    );
    const facts = cacheFacts(cache, run.info);
    const overall = facts.find((f) => f.label === "overall hit rate")!;
    expect(overall.text).toBe("0 lookups (counters exported at 0)");
    expect(facts.find((f) => f.label === "GPU hit rate")!.text).toBe("0 lookups (counters exported at 0)");
    expect(facts.every((f) => f.text !== null)).toBe(true);
    expect(endpointHitRateMissing(cache)).toContain("exported but looked up 0 prompt tokens");
    // The Cache tab opens and the Overview tile says 0 lookups, not "not exported".
    expect(hasCacheData(run)).toBe(true);
    const tile = serverTiles(run).find((t) => t.label === "Cache hit rate (server)")!;
    expect(tile.value).toBe("0 lookups");
  });
});

describeRealPublic(SGLANG, () => {
  it("SGLang cached_tokens at 0 is 0 of N, with the hit-rate gauge and the uncached-prompt histogram beside it", async () => {
    const rows = csvRows(fs.readFileSync(realPublicFile(SGLANG, "server_metrics_export.csv"), "utf8"));
    const row = (metric: string, extra: (r: Record<string, string>) => boolean = () => true) =>
      rows.find((r) => r.Metric === metric && extra(r))!;
    const cached = Number(row("sglang:cached_tokens", (r) => r.cache_source === "device").total);
    const prompt = Number(row("sglang:prompt_tokens").total);
    const gaugeAvg = Number(row("sglang:cache_hit_rate").avg);
    const uncachedSum = Number(row("sglang:uncached_prompt_tokens_histogram").sum);
    const promptSum = Number(row("sglang:prompt_tokens_histogram").sum);
    expect([cached, prompt]).toEqual([0, 7887314]);
    expect(gaugeAvg).toBe(0.0009);
    expect(1 - uncachedSum / promptSum).toBeCloseTo(0.0155, 4);

    const run = await summary(
      await uploadRun([
        { name: "server_metrics_export.csv", path: realPublicFile(SGLANG, "server_metrics_export.csv") },
      ]),
    );
    const cache = run.serverMetrics!.cache;
    expect(cache.gpuHitRate).toBe(cached / prompt);
    expect(cache.overallHitRate).toBe(0);
    expect(cache.lookupTokens).toBe(prompt);
    expect(cache.servedTokens).toEqual({ gpu: cached, host: null, external: null });
    expect(cache.gaugeHitRateAvg).toBeCloseTo(gaugeAvg, 12);
    expect(cache.histogramHitRate).toBeCloseTo(1 - uncachedSum / promptSum, 12);
    expect(cache.countersExported).toContain("sglang:cached_tokens");

    const facts = cacheFacts(cache, run.info);
    const text = (label: string) => facts.find((f) => f.label === label)?.text;
    expect(text("GPU hit rate")).toBe("0% (0 of 7,887,314 prompt tokens)");
    expect(text("overall hit rate")).toBe("0% (0 of 7,887,314 prompt tokens)");
    expect(text("engine hit-rate gauge (mean)")).toBeDefined();
    expect(text("uncached-prompt histogram")).toBeDefined();
    const missing = endpointHitRateMissing(cache);
    expect(missing).toContain("sglang:cached_tokens");
    expect(missing).not.toContain("No endpoint exports");
  });
});
