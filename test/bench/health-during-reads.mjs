#!/usr/bin/env node
// Does any read hold the server? (issue 31, "No read blocks the server"): a generated aiperf run
// (test/generators/aiperf.mjs, 200,000 requests by default, with Dynamo OTLP spans for some of
// them so the journey summary has something to join) is uploaded to the app, run in-process
// behind a plain HTTP server on a temporary data dir (test/bench/health-during-reads-server.ts),
// then each read route is asked in turn — trace export, request lists, timeline windows, the
// journey summary, goodput, each stored chart — while /api/health is polled every 20 ms from this
// process. Prints per route the health latency (max, p99) and the server's longest event-loop
// stall (perf_hooks monitorEventLoopDelay, measured in the server's process).
//
//   node test/bench/health-during-reads.mjs [--records 200000] [--spans 20000] [--rounds 2]
//        [--checks]   answers checked against their schemas, as outside production (default: production)
//        [--pg postgres://postgres@127.0.0.1:5432/test]   on PostgreSQL (a fresh schema) instead of SQLite
//        [--server-flags "--cpu-prof --cpu-prof-dir=DIR"]   node flags for the server's process (a CPU
//                     profile is written when the bench ends it); with RUNLENS_BENCH_GAPS=FILE in the
//                     environment the server also writes each loop gap over 55 ms on the profile's clock
//
// Wall-clock figures: on a shared machine they carry the other load (print `uptime` beside them).
// Not part of `npm test`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf, dynamoOtlpSpans } from "../generators/dynamo-otlp.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const records = Number(arg("--records", 200_000));
const spanRequests = Number(arg("--spans", 20_000));
const rounds = Number(arg("--rounds", 2));
const checks = process.argv.includes("--checks");
const pg = arg("--pg", undefined);
const serverFlags = (arg("--server-flags", "") ?? "").split(" ").filter(Boolean);

const work = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-health-reads-"));
const dataDir = path.join(work, "data");
fs.mkdirSync(dataDir);
let child;
let pgSchema;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, q) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((q / 100) * s.length) - 1)];
};

async function main() {
  console.log(
    `uptime: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")} (load 1/5/15 min, ${os.cpus().length} cores)`,
  );
  let t = performance.now();
  const gen = await generateAiperfRun(path.join(work, "gen"), { records, csv: false, seed: 31 });
  const files = [
    { name: "run/profile_export.jsonl", path: gen.jsonlPath },
    { name: "run/profile_export_aiperf.json", path: gen.summaryPath },
  ];
  if (spanRequests > 0) {
    const clients = clientsOfAiperf(fs.readFileSync(gen.jsonlPath, "utf8")).slice(0, spanRequests);
    const spansPath = path.join(work, "gen", "otel-traces.jsonl");
    fs.writeFileSync(spansPath, dynamoOtlpSpans({ clients }).text);
    files.push({ name: "run/otel-traces.jsonl", path: spansPath });
  }
  const sizes = files.map((f) => `${f.name} ${(fs.statSync(f.path).size / 1e6).toFixed(1)} MB`).join(", ");
  console.log(
    `generated ${records.toLocaleString("en")} requests in ${((performance.now() - t) / 1000).toFixed(1)} s: ${sizes}`,
  );

  const env = {
    ...process.env,
    JITI_ALIAS: JSON.stringify({ "@": ROOT }),
    NODE_ENV: checks ? "development" : "production",
    DATA_DIR: dataDir,
    RUNLENS_EXAMPLES: "off",
    RUNLENS_WARM_UP: "off",
    RUNLENS_API_TOKEN: "",
    RUNLENS_PRIVATE: "",
  };
  delete env.DATABASE_URL;
  if (pg) {
    pgSchema = `health_reads_${process.pid}`;
    const u = new URL(pg);
    u.searchParams.set("options", `-c search_path=${pgSchema}`);
    const { default: pgLib } = await import("pg");
    const c = new pgLib.Client({ connectionString: pg });
    await c.connect();
    await c.query(`create schema ${pgSchema}`);
    await c.end();
    env.DATABASE_URL = u.toString();
  }
  child = spawn(
    process.execPath,
    [
      ...serverFlags,
      path.join(ROOT, "node_modules/jiti/lib/jiti-cli.mjs"),
      path.join(ROOT, "test/bench/health-during-reads-server.ts"),
    ],
    { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  child.stdout.on("data", () => {});
  const base = `http://127.0.0.1:${port}`;
  const get = async (p) => {
    const res = await fetch(base + p);
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, bytes: body.length, body };
  };

  t = performance.now();
  const form = new FormData();
  for (const f of files) form.append("file", await fs.openAsBlob(f.path), f.name);
  const up = await fetch(`${base}/api/runs`, { method: "POST", body: form });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const { id } = await up.json();
  for (;;) {
    const r = JSON.parse((await get(`/api/runs/${id}`)).body);
    if (r.status === "failed") throw new Error(`the run failed: ${JSON.stringify(r.warnings)}`);
    if (r.status === "ready" && r.drilldownReadyAt != null) break;
    await sleep(500);
  }
  console.log(
    `stored with its drill-down in ${((performance.now() - t) / 1000).toFixed(1)} s (${pg ? "PostgreSQL" : "SQLite"}, ${checks ? "schema checks on" : "production"})`,
  );
  const chartKeys = JSON.parse((await get(`/__charts/${id}`)).body).sort();

  // Each phase: the reads in turn (`parallel` at once), /api/health polled meanwhile.
  const r = `/api/runs/${id}`;
  const phases = [
    { name: "trace.json ×3 at once", paths: [`${r}/trace.json`], parallel: 3 },
    ...["ttft", "e2e", "itl"].map((s) => ({
      name: `slowest list ${s} desc`,
      paths: [`${r}/aiperf/requests?sort=${s}&order=desc&limit=200`],
    })),
    ...["ttft", "e2e", "itl", "start"].map((s) => ({
      name: `request list ${s} asc`,
      paths: [`${r}/aiperf/requests?sort=${s}&order=asc&limit=200`],
    })),
    { name: "request list start desc", paths: [`${r}/aiperf/requests?sort=start&order=desc&limit=200`] },
    { name: "timeline first window (stored)", forget: true, paths: [`${r}/timeline`] },
    { name: "timeline window, columns read", forget: true, paths: [`${r}/timeline?from=0&limit=20000`] },
    {
      name: "timeline windows, kept columns",
      paths: [0, 0.25, 0.5, 0.75].map(
        (f, i) =>
          `${r}/timeline?from=${f * 1e6}&limit=${[2000, 5000, 20000, 20000][i]}${i === 3 ? "&lanes=conversation" : ""}`,
      ),
    },
    { name: "journey summary", paths: [`${r}/journey`] },
    { name: "goodput", paths: [`${r}/goodput?slo=ttft:p90:500,e2e:p99:20000`] },
    ...chartKeys.map((k) => ({ name: `chart ${k}`, paths: [`${r}/charts/${encodeURIComponent(k)}`] })),
  ];

  const results = new Map();
  for (let round = 1; round <= rounds; round++) {
    for (const ph of phases) {
      if (ph.forget) await get("/__forget");
      await sleep(50);
      await get("/__loop");
      const lat = [];
      let stop = false;
      const poller = (async () => {
        while (!stop) {
          const t0 = performance.now();
          await get("/api/health");
          lat.push(performance.now() - t0);
          await sleep(20);
        }
      })();
      await sleep(40);
      const t0 = performance.now();
      const answers = [];
      for (const p of ph.paths)
        answers.push(...(await Promise.all(Array.from({ length: ph.parallel ?? 1 }, () => get(p)))));
      const wall = performance.now() - t0;
      await sleep(40);
      stop = true;
      await poller;
      const stall = JSON.parse((await get("/__loop")).body).maxMs;
      const prev = results.get(ph.name) ?? { lat: [], stall: 0, wall: [], status: new Set(), bytes: 0 };
      prev.lat.push(...lat);
      prev.stall = Math.max(prev.stall, stall);
      prev.wall.push(wall);
      for (const a of answers) prev.status.add(a.status);
      prev.bytes = Math.max(prev.bytes, ...answers.map((a) => a.bytes));
      results.set(ph.name, prev);
    }
  }

  const rows = [
    ["route", "status", "bytes", "read ms", "health max", "health p99", "polls", "loop stall max"],
  ];
  let worst = 0;
  let worstStall = 0;
  for (const [name, x] of results) {
    worst = Math.max(worst, ...x.lat);
    worstStall = Math.max(worstStall, x.stall);
    rows.push([
      name,
      [...x.status].join("/"),
      x.bytes.toLocaleString("en"),
      x.wall.map((w) => w.toFixed(0)).join(", "),
      Math.max(...x.lat).toFixed(1),
      pct(x.lat, 99).toFixed(1),
      String(x.lat.length),
      x.stall.toFixed(1),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows)
    console.log(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "));
  console.log(
    `worst health latency ${worst.toFixed(1)} ms; longest event-loop stall ${worstStall.toFixed(1)} ms (${rounds} rounds)`,
  );
  console.log(
    `uptime: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
}

try {
  await main();
} finally {
  child?.kill();
  if (pgSchema) {
    const { default: pgLib } = await import("pg");
    const c = new pgLib.Client({ connectionString: pg });
    await c.connect();
    await c.query(`drop schema ${pgSchema} cascade`);
    await c.end();
  }
  fs.rmSync(work, { recursive: true, force: true });
}
