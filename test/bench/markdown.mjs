#!/usr/bin/env node
// Turns benchmark JSON files into the README "Performance" table rows, and the agentic run
// against the peer's quoted figures when a file has it:
//   node test/bench/markdown.mjs test-results/bench-<a>.json [test-results/bench-<b>.json …]
import fs from "node:fs";
import { firstCharts } from "./report.mjs";

const n = (x, d = 0) =>
  x === null || x === undefined
    ? "–"
    : x.toLocaleString("en", { minimumFractionDigits: d, maximumFractionDigits: d });
const s = (ms) => (ms === null ? "none" : `${n(ms / 1000, 1)} s`);
/** Seconds from the upload's start; "—" when the run GET did not say (older servers). */
const ready = (x) => (x === null || x === undefined ? "—" : `${n(x, 1)} s`);
const STORE = { sqlite: "SQLite", postgres: "PostgreSQL" };
const KIND = {
  trtllm: "TensorRT-LLM",
  aiperf: "aiperf",
  "server-metrics": "server metrics",
  "server-metrics-json": "server-metrics JSON",
  agentic: "agentic (aiperf multi-turn + server-metrics JSON)",
};

console.log(
  "| size, store | kind | input | records | upload | summary ready | drill-down ready | ingest MB/s | × floor | peak RSS | summary GET p50 / p99 | max points | first chart (again) | drawn first |",
);
console.log(
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
);
const reports = process.argv.slice(2).map((file) => JSON.parse(fs.readFileSync(file, "utf8")));
for (const report of reports) {
  for (const r of report.results)
    console.log(
      `| ${report.size}, ${STORE[r.store]} | ${KIND[r.kind]} | ${n(r.inputBytes / 1e6)} MB | ${n(r.records)} | ` +
        `${n(r.ingestSeconds, 1)} s | ${ready(r.summaryReadySeconds)} | ${ready(r.drilldownReadySeconds)} | ` +
        `${n(r.ingestMbPerSecond)} | ${n(r.ratioToFloor, 2)} | ${n(r.rssPeakBytes / 1e6)} MB | ` +
        `${n(r.summaryGetP50Ms, 1)} / ${n(r.summaryGetP99Ms, 1)} ms | ${n(r.maxChartPoints)} | ` +
        `${s(r.firstChartMs.coldMs)} (${s(r.firstChartMs.warmMs)}) | ${firstCharts(r.firstChartMs)} |`,
    );
}

const peers = reports.flatMap((report) => report.results.filter((r) => r.peer).map((r) => ({ report, r })));
if (peers.length > 0) {
  const p = peers[0].r.peer;
  console.log(
    `\nAgainst the peer (${p.name}; its figures are quoted, it does not run here; target ≥ ${p.targetSpeedup}× faster, ≥ ${p.targetMemoryRatio}× less memory):\n`,
  );
  console.log(
    "| size, store | Runlens | peer (quoted) | × faster | Runlens peak RSS | peer peak RSS (quoted) | × less memory |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const { report, r } of peers)
    console.log(
      `| ${report.size}, ${STORE[r.store]} | ${n(r.ingestSeconds, 1)} s | ${n(r.peer.seconds)} s | ${n(r.peer.speedup, 1)} | ` +
        `${n(r.rssPeakBytes / 1e6)} MB | ${n(r.peer.peakRssBytes / 1e9, 1)} GB | ${n(r.peer.memoryRatio, 1)} |`,
    );
}
