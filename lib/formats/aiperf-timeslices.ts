/**
 * aiperf timeslice exports (`--slice-duration`, docs/formats.md §Timeslices): JSON
 * `{timeslices:[{timeslice_index, <tag>: {unit, avg, …}}]}` (newer: `start_ns`, `end_ns`,
 * `is_complete`) and the tidy CSV `Timeslice,Metric,Unit,Stat,Value`. Quirk kept in mind: older
 * aiperf numbers slices from the epoch and renumbers non-empty ones, so index × duration is not
 * an exact time offset; order is what can be trusted.
 */
import type { Readable } from "node:stream";
import { tagFromDisplay } from "./aiperf-metric-tags";
import { SUMMARY_STAT_KEYS, type SummaryMetric, type SummaryStatKey } from "./aiperf-summary";
import { csvSections } from "./aiperf-summary-csv";
import { readJsonObjectMembers } from "./json-object-stream";

export interface Timeslice {
  index: number;
  /** False only on a trailing partial slice (newer files) */
  complete: boolean;
  metrics: Record<string, SummaryMetric>;
}

export interface TimesliceExport {
  sliceDurationS: number | null;
  slices: Timeslice[];
}

const STATS = new Set<string>(SUMMARY_STAT_KEYS);
const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** One element of `timeslices` (null: not an object, left out); `position` is its place in the list. */
export function parseTimeslice(s: unknown, position: number): Timeslice | null {
  const o = obj(s);
  if (!o) return null;
  const metrics: Record<string, SummaryMetric> = {};
  for (const [k, v] of Object.entries(o)) {
    const b = obj(v);
    if (!b) continue;
    const m: SummaryMetric = { unit: typeof b.unit === "string" ? b.unit : undefined };
    for (const stat of SUMMARY_STAT_KEYS) if (typeof b[stat] === "number") m[stat] = b[stat] as number;
    metrics[k] = m;
  }
  const index = typeof o.timeslice_index === "number" ? o.timeslice_index : position;
  return { index, complete: o.is_complete !== false, metrics };
}

/** `input_config.output.slice_duration`, when it is a number. */
export function sliceDurationOf(inputConfig: unknown): number | null {
  const duration = obj(obj(inputConfig)?.output)?.slice_duration;
  return typeof duration === "number" ? duration : null;
}

export function parseTimeslicesJson(doc: unknown): TimesliceExport {
  const d = obj(doc) ?? {};
  const raw = Array.isArray(d.timeslices) ? d.timeslices : [];
  const slices: Timeslice[] = [];
  raw.forEach((s, position) => {
    const slice = parseTimeslice(s, position);
    if (slice) slices.push(slice);
  });
  return { sliceDurationS: sliceDurationOf(d.input_config), slices };
}

/**
 * The same export read as it streams: one slice is parsed at a time, and only the parsed
 * slices are kept. Throws JsonSyntaxError on malformed JSON; null when the document is a bare
 * number, string, boolean or null (no export at all). A top-level array, like JSON.parse's, has
 * no `timeslices`: an empty export.
 */
export async function readTimeslicesJson(source: Readable): Promise<TimesliceExport | null> {
  let slices: Timeslice[] = [];
  let inputConfig: unknown = undefined;
  const topLevel = await readJsonObjectMembers(source, STREAMED, {
    member: (key, value) => {
      if (key === "timeslices") slices = [];
      else if (key === "input_config") inputConfig = value;
    },
    arrayStart: () => {
      slices = [];
    },
    element: (_key, value, index) => {
      const slice = parseTimeslice(value, index);
      if (slice) slices.push(slice);
    },
  });
  if (topLevel === "scalar") return null;
  return { sliceDurationS: sliceDurationOf(inputConfig), slices };
}

const STREAMED = new Set(["timeslices"]);

export function parseTimeslicesCsv(text: string): TimesliceExport {
  const bySlice = new Map<number, Timeslice>();
  for (const [header, ...rows] of csvSections(text)) {
    const col = (name: string) => header.findIndex((h) => h.trim() === name);
    const [iSlice, iMetric, iUnit, iStat, iValue] = ["Timeslice", "Metric", "Unit", "Stat", "Value"].map(col);
    if ([iSlice, iMetric, iStat, iValue].some((i) => i < 0)) continue;
    for (const r of rows) {
      const index = Number(r[iSlice]);
      const stat = r[iStat]?.trim();
      const value = Number(r[iValue]);
      if (!Number.isFinite(index) || !STATS.has(stat) || !Number.isFinite(value)) continue;
      const slice = bySlice.get(index) ?? { index, complete: true, metrics: {} };
      const { tag } = tagFromDisplay(r[iMetric] ?? "");
      const m = (slice.metrics[tag] ??= { unit: iUnit >= 0 ? r[iUnit]?.trim() || undefined : undefined });
      m[stat as SummaryStatKey] = value;
      bySlice.set(index, slice);
    }
  }
  return { sliceDurationS: null, slices: [...bySlice.values()].sort((a, b) => a.index - b.index) };
}
