// The benchmark's console table.
const mb = (b) => (b / 1e6).toFixed(1);
const fix = (x, d = 1) => (x === null || x === undefined ? "–" : x.toFixed(d));
/** Seconds to "summary ready" / "drill-down ready": "—" when the server does not say. */
const readyCell = (x) => (x === null || x === undefined ? "—" : x.toFixed(1));

/**
 * The view and the chart that drew first on each visit ("latency: latency-histogram / same"),
 * "(server)" when it was the server's drawing in the HTML (lib/runs/first-figures.ts).
 */
export function firstCharts(f) {
  const cold = `${f.coldChart ?? "?"}${f.coldDrawnBy === "server" ? " (server)" : ""}`;
  const warm = f.warmChart ?? "?";
  return `${f.view ?? "?"}: ${cold}${warm === cold ? "" : ` / ${warm}`}`;
}

export function printTable(report) {
  const m = report.machine;
  console.log(
    `\nRunlens bench, size ${report.size}: ${m.cpus} × ${m.cpuModel}, ${mb(m.memoryBytes)} MB RAM, Node ${m.node}, load average ${report.loadAverage.map((x) => x.toFixed(1)).join(" ")}, median of ${report.repeat} upload(s)\n`,
  );
  const head = [
    "store",
    "kind",
    "MB",
    "records",
    "s",
    "summary ready s",
    "drill-down ready s",
    "MB/s",
    "rec/s",
    "floor MB/s",
    "ratio",
    "loop/ready",
    "DuckDB s",
    "ready/DuckDB",
    "RSS idle MB",
    "RSS peak MB",
    "ingest MB",
    "data dir ×input",
    "GET p50 ms",
    "GET p99 ms",
    "charts",
    "max pts",
    "max chart KB",
    "1st chart ms",
    "again ms",
    "script KB",
    "first chart drawn",
  ];
  const rows = report.results.map((r) => [
    r.store,
    r.kind,
    mb(r.inputBytes),
    String(r.records),
    fix(r.ingestSeconds),
    readyCell(r.summaryReadySeconds),
    readyCell(r.drilldownReadySeconds),
    fix(r.ingestMbPerSecond),
    r.ingestRecordsPerSecond.toFixed(0),
    fix(r.floorMbPerSecond),
    fix(r.ratioToFloor, 2),
    fix(r.summaryOverFloor, 2),
    fix(r.duckdbScanSeconds, 2),
    fix(r.summaryOverDuckdb, 2),
    mb(r.rssBaselineBytes ?? 0),
    mb(r.rssPeakBytes),
    r.ingestMemoryBytes === undefined ? "–" : mb(r.ingestMemoryBytes),
    fix(r.dataDirGrowthOverInput, 2),
    fix(r.summaryGetP50Ms),
    fix(r.summaryGetP99Ms),
    String(r.charts.length),
    String(r.maxChartPoints),
    (r.maxChartBytes / 1000).toFixed(0),
    r.firstChartMs.coldMs === null ? "none" : r.firstChartMs.coldMs.toFixed(0),
    r.firstChartMs.warmMs === null ? "none" : r.firstChartMs.warmMs.toFixed(0),
    r.firstChartMs.scriptKB == null ? "–" : r.firstChartMs.scriptKB.toFixed(0),
    firstCharts(r.firstChartMs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const last = head.length - 1;
  const line = (cells) =>
    cells.map((c, i) => (i < 2 || i === last ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  console.log(
    `\nreads while the same input is uploaded again (${report.results[0]?.underLoad.readers ?? "?"} clients per path):`,
  );
  const loadHead = [
    "store",
    "kind",
    "ingest s",
    "alone s",
    "summary p50/p99/max ms",
    "health p50/p99/max ms",
    "reads",
    "failed",
  ];
  const trio = (l) => `${fix(l.p50Ms)} / ${fix(l.p99Ms)} / ${fix(l.maxMs)}`;
  const loadRows = report.results.map((r) => [
    r.store,
    r.kind,
    fix(r.underLoad.ingestSeconds),
    fix(r.ingestSeconds),
    trio(r.underLoad.summary),
    trio(r.underLoad.health),
    String(r.underLoad.summary.count + r.underLoad.health.count),
    String(r.underLoad.failures),
  ]);
  const loadWidths = loadHead.map((h, i) => Math.max(h.length, ...loadRows.map((r) => r[i].length)));
  const loadLine = (cells) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(loadWidths[i]) : c.padStart(loadWidths[i]))).join("  ");
  console.log(loadLine(loadHead));
  for (const r of loadRows) console.log(loadLine(r));
  printPeer(report.results);
  printInteractions(report.interactions ?? []);
  console.log(
    "\ntargets (docs/performance.md): summary ready within 2× DuckDB's own scan of the records (ready/DuckDB ≤ 2) and ≥ 1.5× faster than the JSON.parse loop (loop/ready ≥ 1.5); drill-down ready no later than the loop; ingest memory (peak − idle RSS) ≤ 128 MB at 600k and 1.2M records; data dir growth ≤ 0.25× the input; PostgreSQL within 1.3× of SQLite; summary GET p50 ≤ 10 ms; every chart p50 ≤ 100 ms, first call ≤ 1 s; ≤ 2,000 points per series; first chart ≤ 1,000 ms with ≤ 300 KB of script received; interaction p75 ≤ 100 ms; against the peer on the agentic run ≥ 10× faster and ≥ 8× less memory",
  );
}

/** The agentic run beside the peer's quoted figures, with the ratios and the issue's targets. */
export function printPeer(results) {
  const runs = results.filter((r) => r.peer);
  if (runs.length === 0) return;
  const p = runs[0].peer;
  console.log(
    `\nagentic run against the peer (${p.name}: figures quoted, it cannot run here; target ≥ ${p.targetSpeedup}× faster, ≥ ${p.targetMemoryRatio}× less memory):`,
  );
  const head = [
    "store",
    "ours s",
    "peer s (quoted)",
    "× faster",
    "ours peak MB",
    "peer peak MB (quoted)",
    "× less memory",
  ];
  const rows = runs.map((r) => [
    r.store,
    fix(r.ingestSeconds),
    fix(r.peer.seconds),
    fix(r.peer.speedup),
    mb(r.rssPeakBytes),
    mb(r.peer.peakRssBytes),
    fix(r.peer.memoryRatio),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

/** Interaction latency (Event Timing: input to the next paint) of the run page's heaviest controls. */
export function printInteractions(list) {
  if (list.length === 0) return;
  console.log(
    `\ninteraction latency, input → next paint (Event Timing; < 16 ms counts as 16), ${list[0].rounds} rounds:`,
  );
  const head = ["store", "interaction", "count", "p75 ms", "max ms"];
  const controls = [
    ["breakdownStat", "breakdown statistic toggle"],
    ["breakdownSort", "breakdown sort toggle"],
    ["latencyTab", "switch to the Latency tab"],
  ];
  const rows = [];
  for (const i of list)
    for (const [key, name] of controls) {
      const m = i[key];
      rows.push([i.store, name, m ? String(m.count) : "–", fix(m?.p75Ms, 0), fix(m?.maxMs, 0)]);
    }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  for (const i of list) for (const e of i.errors) console.log(`  ${i.store}: not measured: ${e}`);
}
