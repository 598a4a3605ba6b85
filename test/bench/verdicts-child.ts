// The measured half of test/bench/verdicts.mjs, run by jiti so it imports the TypeScript sources.
import path from "node:path";
import { DEFAULT_RESAMPLES } from "@/lib/metrics/regression/bootstrap";
import { defaultVerdictMetrics } from "@/lib/metrics/regression/catalog";
import { judgeMetric } from "@/lib/metrics/regression/judge";
import { migrate, openSqlite } from "@/lib/store/db";
import { rawSqlite } from "@/lib/store/raw-sqlite";
import { requestValues } from "@/lib/store/series-repo";
import { prng } from "../generators/prng.mjs";

async function main() {
  const [dir, count] = [process.argv[2], Number(process.argv[3])];
  const handle = openSqlite(path.join(dir, "bench.db"));
  await migrate(handle);
  const sqlite = rawSqlite(handle.db)!;
  const rand = prng(1);
  const lognormal = (median: number, sigma: number) =>
    median * Math.exp(sigma * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()));
  const insert = sqlite.prepare(
    "insert into aiperf_requests (run_id, file_id, line, phase, ok, cancelled, ttft_ms, itl_ms, e2e_ms) values (?, 'f', ?, 'profiling', 1, 0, ?, ?, ?)",
  );
  let t = performance.now();
  for (const [run, scale] of [
    ["base", 1],
    ["run", 1.1],
  ] as const)
    sqlite.transaction(() => {
      for (let i = 0; i < count; i++) {
        const ttft = lognormal(60, 0.5) * scale;
        const itl = lognormal(12, 0.2);
        insert.run(run, i, ttft, itl, ttft + itl * 200);
      }
    })();
  console.log(
    `setup: ${count.toLocaleString("en-US")} requests a run written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const metrics = defaultVerdictMetrics().filter(
    (m) => m.kind === "requests" && ["ttft", "itl", "e2e"].includes(m.field!),
  );
  t = performance.now();
  const values = new Map<string, [Float64Array, Float64Array]>();
  for (const field of ["ttft", "itl", "e2e"] as const)
    values.set(field, [
      await requestValues(handle.db, ["run"], field),
      await requestValues(handle.db, ["base"], field),
    ]);
  const loaded = performance.now();
  const verdicts = metrics.map((m) => {
    const [run, baseline] = values.get(m.field!)!;
    return judgeMetric(m, { kind: "requests", run, baseline });
  });
  const done = performance.now();
  for (const v of verdicts)
    console.log(
      `${v.metric.padEnd(10)} ${v.verdict.padEnd(13)} ${(v.effect! * 100).toFixed(2).padStart(6)}% [${(v.low! * 100).toFixed(2)}, ${(v.high! * 100).toFixed(2)}]`,
    );
  console.log(
    `${metrics.length} verdicts, ${DEFAULT_RESAMPLES.toLocaleString("en-US")} resamples each: values read and sorted ${((loaded - t) / 1000).toFixed(2)} s, judged ${((done - loaded) / 1000).toFixed(2)} s, total ${((done - t) / 1000).toFixed(2)} s`,
  );
  await handle.close();
}

void main();
