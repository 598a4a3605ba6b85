#!/usr/bin/env node
// The before/after dump (docs/performance.md, "Before/after dump"): uploads each bench input
// through POST /api/runs and writes what the server computed from it (the upload's answer, the run
// summary, every chart payload the run has, a few drill-down lists) as canonical JSON, so two
// servers (two commits, two stores) can be compared byte for byte with dump-diff.mjs.
//
//   node test/bench/dump.mjs --base-url http://127.0.0.1:3000 --out DIR [--size small] [--kinds a,b]
//   node test/bench/dump.mjs --serve CHECKOUT [--store sqlite|postgres] --out DIR …
//
// --serve starts CHECKOUT's built app (bin/server.mjs, its build in RUNLENS_DIST_DIR, default
// .next-dump) on a fresh data dir, or a fresh PostgreSQL schema (RUNLENS_BENCH_PG_URL), and stops it
// at the end. Inputs are the bench's generators (test/bench/inputs.mjs), cached under --inputs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { canonicalText, volatileIds } from "./dump-canonical.mjs";
import { prepareInputs } from "./inputs.mjs";
import { dropPgSchema, freshPgSchema } from "./pg.mjs";
import { streamUpload } from "./upload.mjs";

const USAGE = `usage: node test/bench/dump.mjs (--base-url URL | --serve CHECKOUT [--store sqlite|postgres]) --out DIR
                        [--size small|default|large] [--kinds a,b] [--inputs DIR] [--port 3190]

  --base-url  a running Runlens server to upload to
  --serve     start this checkout's built app for the dump (next build with RUNLENS_DIST_DIR,
              default .next-dump), on a fresh store, and stop it afterwards
  --store     with --serve: sqlite (a fresh DATA_DIR) or postgres (a fresh schema at
              RUNLENS_BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test)
  --out       the dump directory: one folder per input kind
  --size      bench input size (default small)
  --kinds     default ${"all: trtllm,aiperf,server-metrics,server-metrics-json,aiperf-multiturn,agentic"}
  --inputs    where generated inputs are cached (default $TMPDIR/runlens-dump-inputs)`;

const ALL_KINDS = [
  "trtllm",
  "aiperf",
  "server-metrics",
  "server-metrics-json",
  "aiperf-multiturn",
  "agentic",
];

/** Drill-down reads whose numbers come from the stored request rows (docs/http-api.md). */
const DRILLDOWN = {
  "aiperf-e2e-desc": "aiperf/requests?sort=e2e&order=desc&limit=200",
  "aiperf-ttft-desc": "aiperf/requests?sort=ttft&order=desc&limit=200",
  "aiperf-itl-desc": "aiperf/requests?sort=itl&order=desc&limit=200",
  "aiperf-start-asc": "aiperf/requests?sort=start&order=asc&limit=200",
  "trtllm-sample": "trtllm/requests?limit=2000",
  "trtllm-request-0": "trtllm/requests/0",
  goodput: "goodput?slo=ttft:p99:200,tpot:req:20,e2e:p90:5000",
};

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
}

async function getJson(baseUrl, route) {
  const res = await fetch(`${baseUrl}${route}`);
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { unparsable: text.slice(0, 200) };
  }
  return { status: res.status, body };
}

/** The run once it is ready and, where the server says so, its drill-down too. */
async function settledRun(baseUrl, id, waitMs = 30 * 60_000) {
  const until = Date.now() + waitMs;
  for (;;) {
    const { status, body } = await getJson(baseUrl, `/api/runs/${id}`);
    if (status !== 200) throw new Error(`GET /api/runs/${id}: ${status}`);
    const pending =
      body.status === "ingesting" || ("drilldownReadyAt" in body && body.drilldownReadyAt === null);
    if (!pending && body.status !== "failed") return body;
    if (body.status === "failed") throw new Error(`run ${id} failed: ${body.error}`);
    if (Date.now() > until) throw new Error(`run ${id} not settled after ${waitMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function write(file, value, ids) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, canonicalText(value, ids));
}

/** A route's answer as dumped: the body when 200, else its status and error code only. */
const answer = ({ status, body }) => (status === 200 ? body : { status, error: body?.error?.code ?? null });

async function dumpKind(baseUrl, input, outDir) {
  const dir = path.join(outDir, input.kind);
  fs.rmSync(dir, { recursive: true, force: true });
  const up = await streamUpload(baseUrl, input.files, { name: `dump ${input.kind}` });
  const run = await settledRun(baseUrl, up.body.id);
  const ids = volatileIds(run, up.body);
  write(path.join(dir, "upload.json"), up.body, ids);
  write(path.join(dir, "summary.json"), run, ids);
  // The compare route lists the chart payloads stored for a run (its chartKeys).
  const cmp = await getJson(baseUrl, `/api/compare?runs=${run.id}`);
  if (cmp.status !== 200) throw new Error(`GET /api/compare: ${cmp.status}`);
  const keys = [...(cmp.body.chartKeys?.[run.id] ?? [])].sort();
  for (const key of keys) {
    const chart = await getJson(baseUrl, `/api/runs/${run.id}/charts/${encodeURIComponent(key)}`);
    write(path.join(dir, "charts", `${key}.json`), answer(chart), ids);
  }
  for (const [name, route] of Object.entries(DRILLDOWN)) {
    const res = await getJson(baseUrl, `/api/runs/${run.id}/${route}`);
    // A route the run has nothing for (404) is left out: kinds without requests have no lists.
    if (res.status === 404) continue;
    write(path.join(dir, "drilldown", `${name}.json`), answer(res), ids);
  }
  return { seconds: up.seconds, charts: keys.length };
}

async function waitForHealth(url, child, logs) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start within 120 s:\n${logs()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Starts CHECKOUT's built app on a fresh store; returns its URL and a stop function. */
async function serve(checkout, store, port) {
  const distDir = process.env.RUNLENS_DIST_DIR || ".next-dump";
  if (!fs.existsSync(path.join(checkout, distDir, "BUILD_ID")))
    throw new Error(
      `no build in ${path.join(checkout, distDir)}: run \`RUNLENS_DIST_DIR=${distDir} npx next build\` there first`,
    );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-dump-data-"));
  const pgUrl = process.env.RUNLENS_BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/test";
  const schema = store === "postgres" ? await freshPgSchema(pgUrl) : null;
  const databaseUrl = schema
    ? `${pgUrl}${pgUrl.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`
    : "";
  let output = "";
  const child = spawn(
    process.execPath,
    [path.join(checkout, "bin/server.mjs"), "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: checkout,
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        RUNLENS_DIST_DIR: distDir,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        RUNLENS_EXAMPLES: "off",
        // Older servers read the server-metrics JSON whole, under this limit; the dump wants every input.
        RUNLENS_MAX_JSON_DOCUMENT_BYTES: String(8 * 2 ** 30),
        RUNLENS_MAX_UPLOAD_BYTES: String(8 * 2 ** 30),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const keep = (d) => (output = (output + d).slice(-100_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
    }
    if (schema) await dropPgSchema(pgUrl, schema).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop, logs: () => output };
}

async function main() {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  const outDir = arg("out", null);
  const baseUrl = arg("base-url", null);
  const checkout = arg("serve", null);
  if (!outDir || !baseUrl === !checkout) {
    console.error(USAGE);
    return 2;
  }
  const size = arg("size", "small");
  const kinds = arg("kinds", ALL_KINDS.join(",")).split(",");
  const inputsDir = arg("inputs", path.join(os.tmpdir(), "runlens-dump-inputs"));
  const inputs = await prepareInputs(size, kinds, inputsDir);
  const server = checkout
    ? await serve(path.resolve(checkout), arg("store", "sqlite"), Number(arg("port", "3190")))
    : null;
  const url = baseUrl ?? server.url;
  try {
    for (const input of inputs) {
      process.stderr.write(`${input.label}: `);
      const r = await dumpKind(url, input, outDir);
      process.stderr.write(`uploaded in ${r.seconds.toFixed(1)} s, ${r.charts} charts\n`);
    }
  } catch (err) {
    if (server) process.stderr.write(`\nserver log tail:\n${server.logs().slice(-4000)}\n`);
    throw err;
  } finally {
    await server?.stop();
  }
  return 0;
}

process.exitCode = await main();
