/**
 * A run's offline report (docs/formats.md §Offline report): its summary, facts and every view's
 * charts, drawn from the payloads stored at ingest. A view without data says what it needs, as
 * its tab does; a chart without marks says what is missing instead of drawing a frame.
 */
import { AIPERF_CHART_KEYS } from "@/lib/api/aiperf-charts";
import { RUN_VIEWS, type RunViewId } from "@/lib/api/run-views";
import type { RunSummary } from "@/lib/api/schemas";
import { SM_ENDPOINTS_CHART } from "@/lib/api/server-metrics-charts";
import { TRTLLM_CHART_KEYS } from "@/lib/api/trtllm-charts";
import type { Db } from "@/lib/store/db";
import { chartPayloads } from "@/lib/store/chart-payloads";
import { readRunSummary } from "../read-run";
import { payloadsFrom, type Payloads } from "./figure-kit";
import { gpuFigures, throughputFigures } from "./figures-aiperf";
import { breakdownFigures } from "./figures-breakdown";
import { latencyFigures } from "./figures-latency";
import { endpointFigures, seriesFigures } from "./figures-server-metrics";
import { renderReport, type Figure, type ReportDoc, type Section } from "./html";
import { breakdownTables, endpointTables, latencyTables, summarySection } from "./run-sections";

/** Every payload a report view draws from. */
export const REPORT_CHART_KEYS = [
  ...Object.values(AIPERF_CHART_KEYS),
  ...Object.values(TRTLLM_CHART_KEYS),
  SM_ENDPOINTS_CHART,
  "sm-series-all",
];

/** Per view: the tables before its charts and the charts themselves. */
function viewContent(
  id: RunViewId,
  run: RunSummary,
  p: Payloads,
): Pick<Section, "blocks" | "figures"> | null {
  const sm = () => {
    const e = endpointFigures(p);
    const s = seriesFigures(p);
    return { cache: [...e.cache, ...s.cache], kv: [...e.kv, ...s.kv], offload: [...e.offload, ...s.offload] };
  };
  switch (id) {
    case "latency":
      return { blocks: latencyTables(run), figures: latencyFigures(p) };
    case "throughput":
      return { blocks: [], figures: throughputFigures(p) };
    case "breakdown":
      return { blocks: breakdownTables(run), figures: breakdownFigures(p) };
    case "cache":
      return { blocks: [], figures: sm().cache };
    case "kv":
      return { blocks: [], figures: sm().kv };
    case "offload":
      return { blocks: [], figures: sm().offload };
    case "gpu":
      return { blocks: [], figures: gpuFigures(p) };
    case "endpoints":
      return { blocks: endpointTables(run), figures: [] };
    default:
      return null;
  }
}

/** The report's document for a run and its stored payloads: pure, so tests can count what it holds. */
export function runReportDoc(run: RunSummary, p: Payloads, generatedAt: string): ReportDoc {
  const sections: Section[] = [summarySection(run, generatedAt)];
  for (const view of RUN_VIEWS) {
    const content = viewContent(view.id, run, p);
    if (content === null) continue;
    if (!view.hasData(run)) {
      sections.push({
        id: view.id,
        title: view.label,
        blocks: [{ kind: "note", text: `Nothing to show: ${view.missing}.` }],
        figures: [],
      });
      continue;
    }
    const blocks = [...content.blocks];
    if (content.figures.length === 0 && blocks.length === 0)
      blocks.push({
        kind: "note",
        text: "This view's charts were not stored with the run; re-ingest it to add them.",
      });
    sections.push({ id: view.id, title: view.label, blocks, figures: content.figures });
  }
  return { title: run.name, subtitle: `Runlens run report · ${run.id}`, sections };
}

export interface BuiltReport {
  name: string;
  html: string;
  figures: Figure[];
}

export async function runReport(db: Db, runId: string, now = new Date()): Promise<BuiltReport | null> {
  const run = await readRunSummary(db, runId);
  if (!run || run.status !== "ready") return null;
  const payloads = payloadsFrom(await chartPayloads(db, runId, REPORT_CHART_KEYS));
  const doc = runReportDoc(run, payloads, now.toISOString());
  return { name: run.name, html: renderReport(doc), figures: doc.sections.flatMap((s) => s.figures) };
}
