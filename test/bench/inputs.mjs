// Benchmark inputs: synthetic runs from the project's generators, written once per size and
// reused (cached under the OS temp dir, keyed by size) so reruns measure ingest, not generation.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateScrapes } from "../generators/server-metrics.mjs";
import { writeLongServerMetricsJson } from "../generators/aiperf-server-metrics-long.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Sizes: TensorRT-LLM requests (disaggregated: router + ctx + gen worker files, ~4.7 KB of
 * JSONL per request), aiperf records (~630 B each), server-metrics endpoints × seconds of raw
 * 0.5 s scrapes (~2.5 KB per scrape), and aiperf's server_metrics_export.json of endpoints ×
 * one-second timeslices shaped like the real aiperf-real-c4 export (~11 KB per endpoint-second:
 * 16 × 1,800 is 327 MB, 64 × 3,600 is 2.6 GB). `large` is ~4.2 GB in all, before the multi-turn
 * run: conversations of 1–20 turns (~10.5 requests each) with aiperf's inputs.json (~1.2 KB of
 * text per turn) and the engine's prompt tokens by source in 10 s timeslices; `large` is 75k
 * conversations (~790k requests, ~1.8 GB), under the default 2 GiB upload limit.
 */
export const SIZES = {
  small: {
    trtllmRequests: 2_000,
    aiperfRecords: 20_000,
    smEndpoints: 16,
    smSeconds: 300,
    smJsonEndpoints: 4,
    smJsonSeconds: 300,
    mtConversations: 2_000,
    agenticRecords: 20_000,
    agenticEndpoints: 4,
    agenticSeconds: 300,
  },
  default: {
    trtllmRequests: 20_000,
    aiperfRecords: 200_000,
    smEndpoints: 64,
    smSeconds: 600,
    smJsonEndpoints: 16,
    smJsonSeconds: 1_800,
    mtConversations: 20_000,
    agenticRecords: 300_000,
    agenticEndpoints: 16,
    agenticSeconds: 1_800,
  },
  large: {
    trtllmRequests: 100_000,
    aiperfRecords: 1_000_000,
    smEndpoints: 64,
    smSeconds: 3_600,
    smJsonEndpoints: 64,
    smJsonSeconds: 3_600,
    mtConversations: 75_000,
    // The generator writes its JSONL as one string: 600k records (~400 MB) stay under V8's limit.
    agenticRecords: 600_000,
    agenticEndpoints: 64,
    agenticSeconds: 3_600,
  },
};

/** Kinds measured when `--kinds` is not given; the multi-turn and agentic peer runs are measured on request. */
export const DEFAULT_KINDS = ["trtllm", "aiperf", "server-metrics", "server-metrics-json"];

/**
 * Turn counts of the agentic run's conversations: every count of 1–20 equally often (13 is prime
 * to 20, so c·13 mod 20 visits each), then conversations of 20 and one shorter to make exactly
 * `records` requests.
 */
export function agenticTurns(records) {
  const turns = [];
  let left = records;
  for (let c = 0; left >= 20 * 20; c++) {
    const t = ((c * 13) % 20) + 1;
    turns.push(t);
    left -= t;
  }
  for (; left > 0; left -= Math.min(20, left)) turns.push(Math.min(20, left));
  return turns;
}

/**
 * Workers of the agentic run: a conversation's turns take ~2 s each (generator's ITL × answer),
 * so this many workers spread the requests over about `seconds`, the run the server metrics cover.
 */
const agenticConcurrency = (records, seconds) => Math.max(8, Math.round((records * 2) / seconds));

function listFiles(dir) {
  return fs
    .readdirSync(dir)
    .filter((f) => !f.startsWith("."))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Generators keep whole runs in memory; a child with a large heap keeps this process small. */
function runNode(script, heapMb = 8192) {
  const r = spawnSync(
    process.execPath,
    [`--max-old-space-size=${heapMb}`, "--input-type=module", "-e", script],
    {
      cwd: ROOT,
      stdio: "inherit",
    },
  );
  if (r.status !== 0) throw new Error(`input generator failed (${r.status})`);
}

/** Raw scrapes as aiperf's server_metrics_export.jsonl, streamed line by line (the file outgrows one string). */
export async function writeServerMetricsJsonl(file, { endpoints, seconds }) {
  const scrapes = generateScrapes({ endpoints, seconds });
  const out = fs.createWriteStream(file);
  let buf = "";
  for (const s of scrapes)
    for (const x of s.samples) {
      const metrics = {};
      for (const [k, v] of Object.entries(x.counters)) metrics[k] = [{ labels: s.labels, value: v }];
      for (const [k, v] of Object.entries(x.gauges)) metrics[k] = [{ labels: s.labels, value: v }];
      buf +=
        JSON.stringify({ endpoint_url: s.url, timestamp_ns: x.t, endpoint_latency_ns: 1000, metrics }) + "\n";
      if (buf.length > 1 << 20) {
        if (!out.write(buf)) await new Promise((r) => out.once("drain", r));
        buf = "";
      }
    }
  out.end(buf);
  await new Promise((r, j) => out.on("finish", r).on("error", j));
}

/**
 * Returns [{kind, label, view (the run page tab with its main charts), files: [path…], bytes}] for
 * the size (only the kinds in `only`, when given), generating what is missing.
 */
export async function prepareInputs(
  size,
  only = null,
  // RUNLENS_BENCH_INPUTS: a cache of one's own, when several benches share the temp dir.
  baseDir = process.env.RUNLENS_BENCH_INPUTS || path.join(os.tmpdir(), "runlens-bench-inputs"),
) {
  const spec = SIZES[size];
  if (!spec) throw new Error(`unknown size ${size}: ${Object.keys(SIZES).join(", ")}`);
  const dir = path.join(baseDir, size);
  const kinds = [
    {
      kind: "trtllm",
      view: "breakdown",
      label: `TensorRT-LLM disaggregated, ${spec.trtllmRequests.toLocaleString("en")} requests`,
      dir: path.join(dir, "trtllm"),
      gen: (d) =>
        runNode(
          `import {generateTrtllmRun} from "./test/generators/trtllm.mjs";` +
            `generateTrtllmRun({dir:${JSON.stringify(d)},mode:"disaggregated",requests:${spec.trtllmRequests}});`,
        ),
    },
    {
      kind: "aiperf",
      view: "latency",
      label: `aiperf records, ${spec.aiperfRecords.toLocaleString("en")} requests`,
      dir: path.join(dir, "aiperf"),
      gen: (d) =>
        runNode(
          `import {generateAiperfRun} from "./test/generators/aiperf.mjs";` +
            `await generateAiperfRun(${JSON.stringify(d)},{records:${spec.aiperfRecords},csv:false});`,
        ),
    },
    {
      kind: "aiperf-multiturn",
      view: "turns",
      label: `aiperf multi-turn, ${spec.mtConversations.toLocaleString("en")} conversations + inputs.json + server metrics`,
      dir: path.join(dir, "aiperf-multiturn"),
      gen: (d) =>
        runNode(
          `import {generateMultiTurnRun} from "./test/generators/aiperf-multiturn.mjs";` +
            `generateMultiTurnRun(${JSON.stringify(d)},{conversations:${spec.mtConversations},concurrency:256,` +
            `inputs:"delta",externalHit:0.5,serverMetrics:{sliceS:10,scrapeMs:1000}});`,
        ),
    },
    {
      kind: "server-metrics",
      view: "kv",
      label: `server metrics, ${spec.smEndpoints} endpoints × ${spec.smSeconds} s`,
      dir: path.join(dir, "server-metrics"),
      gen: (d) =>
        runNode(
          `import {writeServerMetricsJsonl} from "./test/bench/inputs.mjs";` +
            `await writeServerMetricsJsonl(${JSON.stringify(path.join(d, "server_metrics_export.jsonl"))},` +
            `{endpoints:${spec.smEndpoints},seconds:${spec.smSeconds}});`,
        ),
    },
    {
      kind: "server-metrics-json",
      view: "kv",
      label: `server-metrics JSON, ${spec.smJsonEndpoints} endpoints × ${spec.smJsonSeconds.toLocaleString("en")} timeslices`,
      dir: path.join(dir, "server-metrics-json"),
      gen: (d) =>
        writeLongServerMetricsJson(path.join(d, "server_metrics_export.json"), {
          endpoints: spec.smJsonEndpoints,
          seconds: spec.smJsonSeconds,
        }),
    },
    {
      // The side-by-side run against the peer: multi-turn aiperf records plus the
      // server-metrics JSON of the same run, uploaded as one run.
      kind: "agentic",
      view: "turns",
      label: `agentic: aiperf multi-turn, ${spec.agenticRecords.toLocaleString("en")} requests + server-metrics JSON, ${spec.agenticEndpoints} endpoints × ${spec.agenticSeconds.toLocaleString("en")} timeslices`,
      dir: path.join(dir, "agentic"),
      gen: async (d) => {
        runNode(
          `import {generateMultiTurnRun} from "./test/generators/aiperf-multiturn.mjs";` +
            `import {agenticTurns} from "./test/bench/inputs.mjs";` +
            `const turns = agenticTurns(${spec.agenticRecords});` +
            `generateMultiTurnRun(${JSON.stringify(d)},{conversations:turns.length,turns,` +
            `concurrency:${agenticConcurrency(spec.agenticRecords, spec.agenticSeconds)}});`,
        );
        await writeLongServerMetricsJson(path.join(d, "server_metrics_export.json"), {
          endpoints: spec.agenticEndpoints,
          seconds: spec.agenticSeconds,
        });
      },
    },
  ].filter((k) => (only ? only.includes(k.kind) : DEFAULT_KINDS.includes(k.kind)));
  const out = [];
  for (const k of kinds) {
    const done = path.join(k.dir, ".complete");
    if (!fs.existsSync(done)) {
      fs.rmSync(k.dir, { recursive: true, force: true });
      fs.mkdirSync(k.dir, { recursive: true });
      const t0 = Date.now();
      process.stderr.write(`generating ${k.label} … `);
      await k.gen(k.dir);
      fs.writeFileSync(done, "");
      process.stderr.write(`${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    }
    const files = listFiles(k.dir);
    const bytes = files.reduce((a, f) => a + fs.statSync(f).size, 0);
    out.push({ kind: k.kind, label: k.label, view: k.view, files, bytes });
  }
  return out;
}
