// The measured half of test/bench/series.mjs, run by jiti so it imports the TypeScript sources.
import path from "node:path";
import { seriesQuerySchema } from "@/lib/api/regression-schemas";
import { computeStats } from "@/lib/metrics/stats";
import { seriesDetail } from "@/lib/runs/series";
import { migrate, openSqlite } from "@/lib/store/db";
import { rawSqlite } from "@/lib/store/raw-sqlite";
import { prng } from "../generators/prng.mjs";

async function main() {
  const [dir, runs, count] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  const handle = openSqlite(path.join(dir, "bench.db"));
  await migrate(handle);
  const sqlite = rawSqlite(handle.db)!;
  const rand = prng(1);
  const lognormal = (median: number, sigma: number) =>
    median * Math.exp(sigma * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()));
  const insert = sqlite.prepare(
    "insert into aiperf_requests (run_id, file_id, line, phase, ok, cancelled, ttft_ms, itl_ms, e2e_ms) values (?, 'f', ?, 'profiling', 1, 0, ?, ?, ?)",
  );
  const insertRun = sqlite.prepare(
    "insert into runs (id, name, created_at, updated_at, status, aggregator_version, labels, kinds, warnings, summary, series) values (?, ?, ?, ?, 'ready', 1, '[]', '[\"aiperf-jsonl\"]', '[]', ?, 'bench/series')",
  );
  let t = performance.now();
  for (let r = 0; r < runs; r++) {
    // Runs 20 and 26 are 10% slower in TTFT: the two regressions the page should mark.
    const scale = r === 19 || r === 25 ? 1.1 : 1;
    const ttft = new Float64Array(count);
    const itl = new Float64Array(count);
    const e2e = new Float64Array(count);
    sqlite.transaction(() => {
      for (let i = 0; i < count; i++) {
        ttft[i] = lognormal(60, 0.5) * scale;
        itl[i] = lognormal(12, 0.2);
        e2e[i] = ttft[i] + itl[i] * 200;
        insert.run(`run${r}`, i, ttft[i], itl[i], e2e[i]);
      }
    })();
    const durationS = 600;
    const summary = {
      requests: {
        source: "aiperf",
        count,
        errorCount: 0,
        warmupCount: 0,
        durationS,
        ttftMs: computeStats(ttft),
        itlMs: computeStats(itl),
        e2eMs: computeStats(e2e),
        inputTokens: null,
        outputTokens: null,
        requestThroughputPerS: count / durationS,
        outputTokenThroughputPerS: (count * 200) / durationS,
      },
    };
    insertRun.run(`run${r}`, `run ${r + 1}`, r * 86_400_000, r * 86_400_000, JSON.stringify(summary));
  }
  console.log(
    `setup: ${runs} runs of ${count.toLocaleString("en-US")} requests written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  for (const judge of ["run", "all"] as const) {
    const query = seriesQuerySchema.parse({ stat: "p50", judge });
    t = performance.now();
    const detail = (await seriesDetail(handle.db, "bench/series", query))!;
    const marked = detail.runs.flatMap((r, i) =>
      r.verdicts.filter((v) => v.verdict === "regressed").map((v) => `run ${i + 1} ${v.metric}`),
    );
    console.log(
      `judge=${judge}: ${detail.runs.length} runs in ${((performance.now() - t) / 1000).toFixed(2)} s; regressed: ${marked.join(", ") || "none"}`,
    );
  }
  await handle.close();
}

void main();
