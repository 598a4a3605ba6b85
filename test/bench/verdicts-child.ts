// The measured half of test/bench/verdicts.mjs, run by jiti so it imports the TypeScript sources.
//
//   verdicts-child.ts DIR REQUESTS setup   writes the two runs: request rows, and the value blobs
//                                          an ingest commits beside the summary
//   verdicts-child.ts DIR REQUESTS blobs   judges the run through judgeRun, reading the blobs
//   verdicts-child.ts DIR REQUESTS rows    drops the blobs first: a run ingested before they
//                                          were stored, read row by row
//
// Each phase is its own process, so its peak RSS is its own.
import fs from "node:fs";
import path from "node:path";
import { DEFAULT_RESAMPLES } from "@/lib/metrics/regression/bootstrap";
import { defaultVerdictMetrics } from "@/lib/metrics/regression/catalog";
import { judgeMetric } from "@/lib/metrics/regression/judge";
import { mergeRequestValues } from "@/lib/metrics/regression/request-values";
import { mergeResults } from "@/lib/ingest/merge-results";
import { AGGREGATOR_VERSION } from "@/lib/ingest/version";
import { judgeRun } from "@/lib/runs/verdicts";
import { migrate, openSqlite } from "@/lib/store/db";
import { rawSqlite } from "@/lib/store/raw-sqlite";
import { commitRun, insertRun } from "@/lib/store/runs-repo";
import { requestValues, setRunSeries } from "@/lib/store/series-repo";
import { prng } from "../generators/prng.mjs";

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rssMb = () => `${Math.round(process.resourceUsage().maxRSS / 1024)} MB`;

async function setup(dir: string, count: number) {
  const handle = openSqlite(path.join(dir, "bench.db"));
  await migrate(handle);
  const db = handle.db;
  const sqlite = rawSqlite(db)!;
  const rand = prng(1);
  const lognormal = (median: number, sigma: number) =>
    median * Math.exp(sigma * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()));
  const insert = sqlite.prepare(
    "insert into aiperf_requests (run_id, file_id, line, phase, ok, cancelled, ttft_ms, itl_ms, e2e_ms) values (?, 'f', ?, 'profiling', 1, 0, ?, ?, ?)",
  );
  const t = performance.now();
  for (const [run, scale, at] of [
    ["base", 1, 1],
    ["run", 1.1, 2],
  ] as const) {
    const values = {
      ttft: new Float64Array(count),
      itl: new Float64Array(count),
      e2e: new Float64Array(count),
    };
    sqlite.transaction(() => {
      for (let i = 0; i < count; i++) {
        const ttft = lognormal(60, 0.5) * scale;
        const itl = lognormal(12, 0.2);
        insert.run(run, i, ttft, itl, ttft + itl * 200);
        values.ttft[i] = ttft;
        values.itl[i] = itl;
        values.e2e[i] = ttft + itl * 200;
      }
    })();
    await insertRun(
      db,
      { id: run, name: run, labels: [], createdAt: at, aggregatorVersion: AGGREGATOR_VERSION },
      [],
    );
    await setRunSeries(db, run, { series: "bench" });
    // What an ingest commits: the analyzer's values sorted, every field (the server ones empty).
    const sorted = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.sort()]));
    await commitRun(db, run, {
      blocks: mergeResults([]),
      backend: null,
      requestCount: count,
      aggregatorVersion: AGGREGATOR_VERSION,
      files: [],
      charts: {},
      metricValues: mergeRequestValues([sorted]),
    });
  }
  console.log(
    `setup: ${count.toLocaleString("en-US")} requests a run written, as rows and as blobs, in ${seconds(performance.now() - t)}`,
  );
  await handle.close();
}

async function judge(dir: string, source: "blobs" | "rows") {
  const handle = openSqlite(path.join(dir, "bench.db"));
  await migrate(handle);
  const db = handle.db;
  if (source === "rows") await db.deleteFrom("run_metric_values").execute();
  const metrics = defaultVerdictMetrics().filter(
    (m) => m.kind === "requests" && ["ttft", "itl", "e2e"].includes(m.field!),
  );

  // The verdicts route's service, as a client waits for it: summaries, values, every verdict.
  let t = performance.now();
  const judgement = (await judgeRun(db, "run", { baseline: { kind: "run", id: "base" } }))!;
  const total = performance.now() - t;

  // The same work in its two parts, for where the time goes.
  t = performance.now();
  const values = new Map<string, [Float64Array, Float64Array]>();
  for (const field of ["ttft", "itl", "e2e"] as const)
    values.set(field, [await requestValues(db, ["run"], field), await requestValues(db, ["base"], field)]);
  const loaded = performance.now();
  for (const m of metrics) {
    const [run, baseline] = values.get(m.field!)!;
    judgeMetric(m, { kind: "requests", run, baseline });
  }
  const done = performance.now();

  const verdicts = judgement.verdicts.filter((v) => v.kind === "requests");
  const text = verdicts
    .map(
      (v) =>
        `${v.metric.padEnd(10)} ${v.verdict.padEnd(13)} ${(v.effect! * 100).toFixed(2).padStart(6)}% [${(v.low! * 100).toFixed(2)}, ${(v.high! * 100).toFixed(2)}]`,
    )
    .join("\n");
  const saved = path.join(dir, "verdicts-blobs.json");
  if (source === "blobs") {
    console.log(text);
    fs.writeFileSync(saved, JSON.stringify(judgement.verdicts));
  } else {
    const same = fs.readFileSync(saved, "utf8") === JSON.stringify(judgement.verdicts);
    console.log(same ? "same verdicts as from the blobs" : `VERDICTS DIFFER from the blobs':\n${text}`);
  }
  console.log(
    `from ${source === "blobs" ? "value blobs  " : "request rows "}: ${verdicts.length} verdicts, ${DEFAULT_RESAMPLES.toLocaleString("en-US")} resamples each, in ${seconds(total)} (judgeRun); values read ${seconds(loaded - t)}, judged ${seconds(done - loaded)}; peak RSS ${rssMb()}`,
  );
  await handle.close();
}

async function main() {
  const [dir, count, phase] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
  if (phase === "setup") await setup(dir, count);
  else await judge(dir, phase === "rows" ? "rows" : "blobs");
}

void main();
