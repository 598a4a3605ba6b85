/**
 * aiperf's three server-metrics exports of one set of scrapes, shaped as aiperf writes them
 * (src/aiperf/server_metrics/: json_exporter.py, csv_exporter.py, jsonl_writer.py, and the window
 * stats of _counter_stats.py, _gauge_stats.py, _histogram_stats.py, storage.py), plus a scrape as
 * prometheus_client's text exposition. Written from reading that source; nothing is copied.
 *
 * Input: `run = { endpoints, window: { startNs, endNs }, sliceS, benchmarkId, inputConfig }` (`endNs` is
 * the profiling end for the summary; each endpoint's stats run to its own last scrape), each
 * endpoint `{ url, scrapes: [{ t, families }] }`, `families` mapping a family name to
 * `{ type, help, unit, samples }`; a sample is `{ labels, value }` or, for histograms,
 * `{ labels, buckets: { le: cumulative count }, sum, count }`. Counter names carry no `_total`
 * (prometheus_client's family name). Rules followed:
 * - a scrape identical to the one before is a duplicate: aiperf drops it from the JSONL and the stats;
 * - counters and histograms: value at the last in-window scrape minus the last scrape before the
 *   window (the reference); gauges: samples inside [start, end];
 * - CSV: one section per type, label columns per section, floats with 4 decimals, `_info`
 *   families transposed at the end; JSONL: every unique scrape, no `_info` family.
 */
import {
  counterStats,
  gaugeStats,
  histogramStats,
  QS,
  trackOf,
  uniqueScrapes,
} from "./aiperf-window-stats.mjs";

const NS = 1e9;

const isInfo = (name) => name.endsWith("_info");

/** Families → endpoint → series, in first-seen order, over the unique scrapes. */
function catalog(run) {
  const families = new Map();
  for (const ep of run.endpoints) {
    const scrapes = uniqueScrapes(ep.scrapes);
    for (const s of scrapes)
      for (const [name, fam] of Object.entries(s.families)) {
        const f = families.get(name) ?? { ...fam, name, series: new Map() };
        families.set(name, f);
        for (const x of fam.samples) {
          const key = `${ep.url}\u0000${JSON.stringify(x.labels)}`;
          if (!f.series.has(key)) f.series.set(key, { ep, scrapes, labels: x.labels });
        }
      }
  }
  return families;
}

/** The profiling phase's start to the endpoint's last scrape, as aiperf's real exports show. */
const windowOf = (run, ep) => ({ startNs: run.window.startNs, endNs: ep.scrapes.at(-1).t });

function seriesStats(f, sr, run) {
  const track = trackOf(sr.scrapes, f.name, JSON.stringify(sr.labels));
  const window = windowOf(run, sr.ep);
  if (f.type === "counter") return counterStats(track, window, run.sliceS);
  if (f.type === "histogram") return histogramStats(track, window, run.sliceS);
  return gaugeStats(track, window, run.sliceS);
}

export function toJson(run) {
  const metrics = {};
  for (const f of catalog(run).values()) {
    const series = [];
    for (const sr of f.series.values()) {
      const st = seriesStats(f, sr, run);
      if (!st) continue;
      series.push({
        endpoint_url: sr.ep.url,
        labels: sr.labels,
        stats: st.stats,
        ...(st.buckets ? { buckets: st.buckets } : {}),
        timeslices: st.timeslices,
      });
    }
    metrics[f.name] = {
      type: f.type === "histogram" || f.type === "counter" ? f.type : "gauge",
      description: f.help,
      ...(f.unit && !isInfo(f.name) ? { unit: f.unit } : {}),
      series,
    };
  }
  const endpointInfo = {};
  for (const ep of run.endpoints) {
    const u = uniqueScrapes(ep.scrapes);
    const first = ep.scrapes[0].t;
    const last = ep.scrapes.at(-1).t;
    endpointInfo[ep.url] = {
      total_fetches: ep.scrapes.length,
      first_fetch_ns: first,
      last_fetch_ns: last,
      unique_updates: u.length,
      first_update_ns: u[0].t,
      last_update_ns: u.at(-1).t,
      duration_seconds: (last - first) / NS,
    };
  }
  const iso = (ns) => new Date(ns / 1e6).toISOString().replace("Z", "");
  const urls = run.endpoints.map((e) => e.url);
  return JSON.stringify(
    {
      schema_version: "1.0",
      aiperf_version: "0.6.0",
      benchmark_id: run.benchmarkId,
      summary: {
        endpoints_configured: urls,
        endpoints_successful: urls,
        start_time: iso(run.window.startNs),
        end_time: iso(run.window.endNs),
        endpoint_info: endpointInfo,
      },
      metrics,
      input_config: run.inputConfig,
    },
    null,
    2,
  );
}

/** csv_exporter._format_number: ints as they are, floats with 4 decimals. */
const f4 = (v) => (v === undefined || v === null ? "" : v.toFixed(4));
const display = (url) => url.replace(/^[a-z]+:\/\//, "").replace(/\/metrics$/, "");
const STAT_KEYS = {
  gauge: ["avg", "min", "max", "std", ...QS.map((q) => `p${q}`)],
  counter: ["total", "rate", "rate_avg", "rate_min", "rate_max", "rate_std"],
  histogram: ["count", "count_rate", "sum", "sum_rate", "avg", ...QS.map((q) => `p${q}_estimate`)],
};

function csvCell(s) {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(run) {
  const fams = [...catalog(run).values()];
  const out = [
    "# AIPerf Server Metrics Export (CSV)",
    "# aiperf_version: 0.6.0",
    "# schema_version: 1.0",
    `# benchmark_id: ${run.benchmarkId}`,
    "# Note: Same benchmark_id and version appear in JSON and Parquet exports",
    "#",
  ];
  const sections = [];
  for (const type of ["gauge", "counter", "histogram"]) {
    const rows = [];
    for (const f of fams.filter((x) => x.type === type && !isInfo(x.name)))
      for (const sr of f.series.values()) {
        const st = seriesStats(f, sr, run);
        if (st) rows.push({ f, sr, st });
      }
    if (rows.length === 0) continue;
    const labelCols = [...new Set(rows.flatMap((r) => Object.keys(r.sr.labels)))].sort();
    const header = ["Endpoint", "Type", "Metric", "Unit", ...STAT_KEYS[type], ...labelCols, "Description"];
    if (type === "histogram") header.push("buckets");
    const lines = [header.join(",")];
    rows.sort((a, b) => a.f.name.localeCompare(b.f.name) || a.sr.ep.url.localeCompare(b.sr.ep.url));
    for (const { f, sr, st } of rows) {
      const stats = STAT_KEYS[type].map((k) =>
        type === "histogram" && k === "count" ? String(st.stats[k]) : f4(st.stats[k]),
      );
      const cells = [
        display(sr.ep.url),
        type,
        f.name,
        f.unit ?? "",
        ...stats,
        ...labelCols.map((k) => sr.labels[k] ?? ""),
        f.help,
      ];
      if (type === "histogram")
        cells.push(
          Object.entries(st.buckets)
            .map(([k, v]) => `${k}=${v}`)
            .join(";"),
        );
      lines.push(cells.map(csvCell).join(","));
    }
    sections.push(lines);
  }
  const info = ["Endpoint,Metric,Key,Value,Description"];
  for (const f of fams.filter((x) => isInfo(x.name)).sort((a, b) => a.name.localeCompare(b.name)))
    for (const sr of f.series.values())
      for (const k of Object.keys(sr.labels).sort())
        info.push([display(sr.ep.url), f.name, k, sr.labels[k], f.help].map(csvCell).join(","));
  if (info.length > 1) sections.push(info);
  return [...out, sections.map((s) => s.join("\n")).join("\n\n"), ""].join("\n");
}

/** jsonl_writer: one line per unique scrape, slim (no type or help text), `_info` families left out. */
export function toJsonl(run, keep = () => true) {
  const lines = [];
  for (const ep of run.endpoints)
    for (const s of uniqueScrapes(ep.scrapes)) {
      if (!keep(s)) continue;
      const metrics = {};
      for (const [name, fam] of Object.entries(s.families)) if (!isInfo(name)) metrics[name] = fam.samples;
      const latency = 12_000_000;
      lines.push(
        JSON.stringify({
          endpoint_url: ep.url,
          timestamp_ns: s.t,
          endpoint_latency_ns: latency,
          metrics,
          request_sent_ns: s.t,
          first_byte_ns: s.t + latency,
        }),
      );
    }
  lines.sort((a, b) => JSON.parse(a).timestamp_ns - JSON.parse(b).timestamp_ns);
  return lines.join("\n") + "\n";
}

/** One scrape as prometheus_client writes `/metrics`: `_total` and `_created` on counters, `_bucket` lines on histograms. */
export function toPrometheusText(scrape, createdS = 1_700_000_000) {
  const out = [];
  const lab = (labels, extra = {}) => {
    const all = { ...labels, ...extra };
    const parts = Object.entries(all).map(([k, v]) => `${k}="${v}"`);
    return parts.length ? `{${parts.join(",")}}` : "";
  };
  for (const [name, f] of Object.entries(scrape.families)) {
    const family = f.type === "counter" ? `${name}_total` : name;
    out.push(`# HELP ${family} ${f.help}`, `# TYPE ${family} ${f.type}`);
    for (const x of f.samples) {
      if (f.type === "counter")
        out.push(`${name}_total${lab(x.labels)} ${x.value}`, `${name}_created${lab(x.labels)} ${createdS}`);
      else if (f.type === "histogram") {
        for (const [le, n] of Object.entries(x.buckets))
          out.push(`${name}_bucket${lab(x.labels, { le })} ${n}`);
        out.push(
          `${name}_count${lab(x.labels)} ${x.count}`,
          `${name}_sum${lab(x.labels)} ${x.sum}`,
          `${name}_created${lab(x.labels)} ${createdS}`,
        );
      } else out.push(`${name}${lab(x.labels)} ${x.value}`);
    }
  }
  return out.join("\n") + "\n";
}
