#!/usr/bin/env node
// Turns benchmark JSON files into the README "Performance" table rows:
//   node test/bench/markdown.mjs test-results/bench-<a>.json [test-results/bench-<b>.json …]
import fs from "node:fs";
import { firstCharts } from "./report.mjs";

const n = (x, d = 0) =>
  x === null || x === undefined
    ? "–"
    : x.toLocaleString("en", { minimumFractionDigits: d, maximumFractionDigits: d });
const s = (ms) => (ms === null ? "none" : `${n(ms / 1000, 1)} s`);
const sec = (x) => (x === null || x === undefined ? "–" : `${n(x, 1)} s`);
const STORE = { sqlite: "SQLite", postgres: "PostgreSQL" };
const KIND = {
  trtllm: "TensorRT-LLM",
  aiperf: "aiperf",
  "server-metrics": "server metrics",
  "server-metrics-json": "server-metrics JSON",
};

console.log(
  "| size, store | kind | input | records | ingest MB/s | × floor | summary ready | drill-down ready | peak RSS | summary GET p50 / p99 | max points | first chart (again) | drawn first |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  for (const r of report.results)
    console.log(
      `| ${report.size}, ${STORE[r.store]} | ${KIND[r.kind]} | ${n(r.inputBytes / 1e6)} MB | ${n(r.records)} | ` +
        `${n(r.ingestMbPerSecond)} | ${n(r.ratioToFloor, 2)} | ${sec(r.summaryReadySeconds)} | ${sec(r.drilldownReadySeconds)} | ` +
        `${n(r.rssPeakBytes / 1e6)} MB | ` +
        `${n(r.summaryGetP50Ms, 1)} / ${n(r.summaryGetP99Ms, 1)} ms | ${n(r.maxChartPoints)} | ` +
        `${s(r.firstChartMs.coldMs)} (${s(r.firstChartMs.warmMs)}) | ${firstCharts(r.firstChartMs)} |`,
    );
}
