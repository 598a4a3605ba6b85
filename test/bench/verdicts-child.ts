// The measured half of test/bench/verdicts.mjs, run by jiti so it imports the TypeScript sources.
//
//   verdicts-child.ts DIR REQUESTS setup   writes the two runs: request rows, and the value blobs
//                                          an ingest commits beside the summary
//   verdicts-child.ts DIR REQUESTS blobs   judges the run through judgeRun, reading the blobs
//   verdicts-child.ts DIR REQUESTS rows    drops the blobs first: a run ingested before they
//                                          were stored, read row by row
//
// Each phase is its own process, so its peak RSS is its own. With BENCH_PG_URL and
// BENCH_PG_SCHEMA set, the runs live in that PostgreSQL schema instead of DIR/bench.db.
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { DEFAULT_RESAMPLES } from "@/lib/metrics/regression/bootstrap";
import { defaultVerdictMetrics } from "@/lib/metrics/regression/catalog";
import { judgeMetric } from "@/lib/metrics/regression/judge";
import { mergeRequestValues } from "@/lib/metrics/regression/request-values";
import { mergeResults } from "@/lib/ingest/merge-results";
import { AGGREGATOR_VERSION } from "@/lib/ingest/version";
import { judgeRun } from "@/lib/runs/verdicts";
import { migrate, openPostgres, openSqlite, type Db } from "@/lib/store/db";
import { rawSqlite } from "@/lib/store/raw-sqlite";
import { commitRun, insertRun } from "@/lib/store/runs-repo";
import { requestValuesByRun, setRunSeries } from "@/lib/store/series-repo";
import { prng } from "../generators/prng.mjs";

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rssMb = () => `${Math.round(process.resourceUsage().maxRSS / 1024)} MB`;

const PG = process.env.BENCH_PG_URL
  ? { url: process.env.BENCH_PG_URL, schema: process.env.BENCH_PG_SCHEMA! }
  : null;

function open(dir: string) {
  return PG ? openPostgres(PG.url, { schema: PG.schema }) : openSqlite(path.join(dir, "bench.db"));
}

type Values = Record<"ttft" | "itl" | "e2e", Float64Array>;

/** One run's request rows: a prepared insert on SQLite, COPY on PostgreSQL. */
async function writeRows(db: Db, run: string, v: Values) {
  const n = v.ttft.length;
  if (!PG) {
    const sqlite = rawSqlite(db)!;
    const insert = sqlite.prepare(
      "insert into aiperf_requests (run_id, file_id, line, phase, ok, cancelled, ttft_ms, itl_ms, e2e_ms) values (?, 'f', ?, 'profiling', 1, 0, ?, ?, ?)",
    );
    sqlite.transaction(() => {
      for (let i = 0; i < n; i++) insert.run(run, i, v.ttft[i], v.itl[i], v.e2e[i]);
    })();
    return;
  }
  const client = new pg.Client({ connectionString: PG.url, options: `-c search_path=${PG.schema}` });
  await client.connect();
  const copy = client.query(
    copyFrom(
      "copy aiperf_requests (run_id, file_id, line, phase, ok, cancelled, ttft_ms, itl_ms, e2e_ms) from stdin",
    ),
  );
  function* lines() {
    for (let i = 0; i < n; i += 10_000) {
      let text = "";
      for (let k = i; k < Math.min(n, i + 10_000); k++)
        text += `${run}\tf\t${k}\tprofiling\t1\t0\t${v.ttft[k]}\t${v.itl[k]}\t${v.e2e[k]}\n`;
      yield text;
    }
  }
  await pipeline(lines(), copy);
  await client.end();
}

async function setup(dir: string, count: number) {
  const handle = open(dir);
  await migrate(handle);
  const db = handle.db;
  const rand = prng(1);
  const lognormal = (median: number, sigma: number) =>
    median * Math.exp(sigma * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()));
  const t = performance.now();
  for (const [run, scale, at] of [
    ["base", 1, 1],
    ["run", 1.1, 2],
  ] as const) {
    const values: Values = {
      ttft: new Float64Array(count),
      itl: new Float64Array(count),
      e2e: new Float64Array(count),
    };
    for (let i = 0; i < count; i++) {
      const ttft = lognormal(60, 0.5) * scale;
      const itl = lognormal(12, 0.2);
      values.ttft[i] = ttft;
      values.itl[i] = itl;
      values.e2e[i] = ttft + itl * 200;
    }
    await writeRows(db, run, values);
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
    `setup (${PG ? "PostgreSQL" : "SQLite"}): ${count.toLocaleString("en-US")} requests a run written, as rows and as blobs, in ${seconds(performance.now() - t)}`,
  );
  await handle.close();
}

async function judge(dir: string, source: "blobs" | "rows") {
  const handle = open(dir);
  await migrate(handle);
  const db = handle.db;
  if (source === "rows") await db.deleteFrom("run_metric_values").execute();
  const metrics = defaultVerdictMetrics().filter(
    (m) => m.kind === "requests" && ["ttft", "itl", "e2e"].includes(m.field!),
  );

  // The verdicts route's service, as a client waits for it: summaries, values, every verdict.
  let t = performance.now();
  const cpu = process.cpuUsage();
  const judgement = (await judgeRun(db, "run", { baseline: { kind: "run", id: "base" } }))!;
  const total = performance.now() - t;
  // On a shared machine the wall time follows the load; the process's own CPU time does not.
  const cpuUsed = process.cpuUsage(cpu);
  const cpuMs = (cpuUsed.user + cpuUsed.system) / 1000;

  // The same work in its two parts, for where the time goes.
  t = performance.now();
  const values = new Map<string, [Float64Array, Float64Array]>();
  for (const field of ["ttft", "itl", "e2e"] as const)
    values.set(field, [
      (await requestValuesByRun(db, ["run"], field))[0],
      (await requestValuesByRun(db, ["base"], field))[0],
    ]);
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
    `from ${source === "blobs" ? "value blobs  " : "request rows "}: ${verdicts.length} verdicts, ${DEFAULT_RESAMPLES.toLocaleString("en-US")} resamples each, in ${seconds(total)} (judgeRun, ${seconds(cpuMs)} of CPU); values read ${seconds(loaded - t)}, judged ${seconds(done - loaded)}; peak RSS ${rssMb()}`,
  );
  await handle.close();
}

async function main() {
  const [dir, count, phase] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
  if (phase === "setup") await setup(dir, count);
  else await judge(dir, phase === "rows" ? "rows" : "blobs");
}

void main();
