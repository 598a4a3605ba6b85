// Benchmark inputs: synthetic runs from the project's generators, written once per size and
// reused (cached under the OS temp dir, keyed by size) so reruns measure ingest, not generation.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateScrapes } from "../generators/server-metrics.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Sizes: TensorRT-LLM requests (disaggregated: router + ctx + gen worker files, ~4.7 KB of
 * JSONL per request), aiperf records (~630 B each), server-metrics endpoints × seconds of raw
 * 0.5 s scrapes (~2.5 KB per scrape). `large` is ~1.6 GB in all.
 */
export const SIZES = {
  small: { trtllmRequests: 2_000, aiperfRecords: 20_000, smEndpoints: 16, smSeconds: 300 },
  default: { trtllmRequests: 20_000, aiperfRecords: 200_000, smEndpoints: 64, smSeconds: 600 },
  large: { trtllmRequests: 100_000, aiperfRecords: 1_000_000, smEndpoints: 64, smSeconds: 3_600 },
};

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

/** Returns [{kind, label, view (the run page tab with its main charts), files: [path…], bytes}] for the size, generating what is missing. */
export function prepareInputs(size, baseDir = path.join(os.tmpdir(), "runlens-bench-inputs"), wanted = null) {
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
  ];
  // `wanted`: only these kinds are generated and returned (the timeline-only bench needs no scrapes).
  return kinds
    .filter((k) => wanted === null || wanted.includes(k.kind))
    .map((k) => {
      const done = path.join(k.dir, ".complete");
      if (!fs.existsSync(done)) {
        fs.rmSync(k.dir, { recursive: true, force: true });
        fs.mkdirSync(k.dir, { recursive: true });
        const t0 = Date.now();
        process.stderr.write(`generating ${k.label} … `);
        k.gen(k.dir);
        fs.writeFileSync(done, "");
        process.stderr.write(`${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      }
      const files = listFiles(k.dir);
      const bytes = files.reduce((a, f) => a + fs.statSync(f).size, 0);
      return { kind: k.kind, label: k.label, view: k.view, files, bytes };
    });
}
