/**
 * One plain Prometheus text scrape (`.prom`, e.g. curl of a worker's /metrics) → MetricSet.
 * A single scrape has no window: counters hold lifetime values and gauges one sample, so the
 * analyzer labels numbers from it as lifetime totals (trap T17). The scrape names no URL;
 * the caller passes an endpoint key (the file name).
 */
import type { Readable } from "node:stream";
import {
  canonicalName,
  emptyMetricSet,
  type MetricSet,
  type MetricSeries,
} from "@/lib/formats/server-metrics/types";
import type { WarningLog } from "./json-lines";
import { readLines } from "./read-lines";
import { dropBadSeries } from "./server-metrics/bad-values";

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\S+)?\s*$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/gy;

export function parsePromLabels(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (LABEL.lastIndex < text.length && (m = LABEL.exec(text)) !== null)
    out[m[1]] = m[2].replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
  return LABEL.lastIndex >= text.trim().length || text.trim() === "" ? out : null;
}

function promNumber(s: string): number | null {
  const n = s === "+Inf" || s === "Inf" ? Infinity : s === "-Inf" ? -Infinity : Number(s);
  return Number.isFinite(n) ? n : null;
}

export async function readPrometheusText(
  stream: Readable,
  endpoint: string,
  warnings: WarningLog,
  result: { records: number; skipped: number },
): Promise<MetricSet> {
  const types = new Map<string, string>();
  const series = new Map<string, MetricSeries>();
  for await (const { lineNo, text } of readLines(stream)) {
    const line = text.trim();
    if (line === "") continue;
    if (line.startsWith("#")) {
      const m = /^#\s*TYPE\s+(\S+)\s+(\S+)/.exec(line);
      if (m) types.set(m[1], m[2]);
      continue;
    }
    const m = SAMPLE.exec(line);
    const labels = m ? parsePromLabels(m[3] ?? "") : null;
    const value = m ? promNumber(m[4]) : null;
    if (!m || !labels) {
      result.skipped++;
      warnings.add("skipped line: not a Prometheus sample", lineNo);
      continue;
    }
    result.records++;
    const raw = m[1];
    if (value === null || raw.endsWith("_created") || raw.endsWith("_bucket")) continue;
    let family = raw;
    let stat = "";
    for (const suffix of ["_sum", "_count"]) {
      const base = raw.slice(0, -suffix.length);
      if (raw.endsWith(suffix) && (types.get(base) === "histogram" || types.get(base) === "summary")) {
        family = base;
        stat = suffix.slice(1);
      }
    }
    const declared = types.get(family) ?? types.get(canonicalName(family));
    if (declared === "summary") continue;
    const type =
      stat !== ""
        ? "histogram"
        : declared === "counter" || raw.endsWith("_total")
          ? "counter"
          : family.endsWith("_info")
            ? "info"
            : "gauge";
    const key = `${family}\u0000${JSON.stringify(Object.entries(labels).sort())}`;
    const s = series.get(key) ?? { name: canonicalName(family), type, endpoint, labels, stats: {} };
    if (type === "histogram") s.stats[stat] = value;
    else if (type === "counter") s.stats.total = value;
    else Object.assign(s.stats, { avg: value, min: value, max: value });
    series.set(key, s);
  }
  const set = emptyMetricSet();
  set.series = dropBadSeries(Array.from(series.values()), (m) => warnings.count(m));
  return set;
}
