/**
 * aiperf's `profile_export_aiperf.csv` (docs/formats.md §aiperf summary): Python csv output (CRLF,
 * minimal quoting), sections separated by blank rows, each with its own header. Columns are read
 * by header name — `sum` appeared in v0.7, so positions shift between versions. The CSV carries
 * no version fields and no run configuration.
 */
import { tagFromDisplay } from "./aiperf-metric-tags";
import { splitCsvRow } from "./csv";
import {
  SUMMARY_STAT_KEYS,
  type AiperfSummary,
  type SummaryMetric,
  type SummaryStatKey,
} from "./aiperf-summary";
import { readInputConfig } from "./aiperf-input-config";

/** Rows grouped into blank-row-separated sections; the first row of each is its header. */
export function csvSections(text: string): string[][][] {
  const sections: string[][][] = [];
  let current: string[][] | null = null;
  for (const raw of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    if (raw.trim() === "") {
      current = null;
      continue;
    }
    if (!current) {
      current = [];
      sections.push(current);
    }
    current.push(splitCsvRow(raw));
  }
  return sections;
}

const STAT_SET = new Set<string>(SUMMARY_STAT_KEYS);

export function parseSummaryCsv(text: string): AiperfSummary {
  const metrics: Record<string, SummaryMetric> = {};
  for (const [header, ...rows] of csvSections(text)) {
    if (!header || header[0] !== "Metric") continue; // the GPU section starts with "Endpoint"
    const columns = header.map((h) => h.trim());
    for (const row of rows) {
      const { tag, unit } = tagFromDisplay(row[0] ?? "");
      const block: SummaryMetric = { unit };
      let any = false;
      columns.forEach((col, i) => {
        if (i === 0) return;
        const key = (col === "Value" ? "avg" : col) as SummaryStatKey;
        const cell = row[i]?.trim();
        if (!STAT_SET.has(key) || !cell) return;
        const v = Number(cell);
        if (Number.isFinite(v)) {
          block[key] = v;
          any = true;
        }
      });
      if (any && tag) metrics[tag] = block;
    }
  }
  return {
    schemaVersion: null,
    aiperfVersion: null,
    metrics,
    config: readInputConfig(undefined),
    errorSummary: [],
    wasCancelled: null,
    telemetryGpus: [],
    warmupMetrics: null,
    runConfig: {},
  };
}
