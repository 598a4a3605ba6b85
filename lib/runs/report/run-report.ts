/**
 * A run's offline report (docs/formats.md §Offline report): its summary, facts and every view's
 * charts, drawn from the payloads stored at ingest. A view without data says what it needs, as
 * its tab does; a chart without marks says what is missing instead of drawing a frame.
 */
import { RUN_VIEWS, type RunViewId } from "@/lib/api/run-views";
import type { RunSummary } from "@/lib/api/schemas";
import { type RequestSample } from "@/lib/api/trtllm-charts";
import type { Db } from "@/lib/store/db";
import { readRunCharts } from "@/lib/runs/column-charts";
import { readRunSummary } from "../read-run";
import { sampleRequests } from "../trtllm-requests";
import { payloadsFrom, type Payloads } from "./figure-kit";
import {
  gpuEnergyBlocks,
  gpuFigures,
  gpuOutsideWindowBlocks,
  gpuSummaryTables,
  throughputFigures,
} from "./figures-aiperf";
import { breakdownFigures, REPORT_REQUEST_BARS } from "./figures-breakdown";
import { recordsSampleNote, runRequestsDefinition } from "@/lib/metrics/figures/request-definitions";
import { endpointHitRateMissing } from "@/lib/metrics/server-metrics/cache-facts";
import { latencyFigureParts } from "./figures-latency";
import {
  endpointFigures,
  endpointSeriesKeys,
  perEndpointSeriesFigures,
  seriesFigures,
} from "./figures-server-metrics";
import { renderReportInSteps, type Figure, type ReportDoc, type Section } from "./html";
import { atOnce, type Steps } from "@/lib/metrics/steps";
import { inTurns } from "../in-turns";
import { breakdownTables, endpointTables, latencyTables, summarySection } from "./run-sections";
import { agreementTables, slowestTables, trtllmSlowestTables } from "./tables-aiperf";
import { AIPERF_CHARTS, SM_CHARTS, SM_SERIES, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

/** Every payload a report view draws from. */
export const REPORT_CHART_KEYS = [
  ...Object.values(AIPERF_CHARTS).filter((c) => c !== AIPERF_CHARTS.turns),
  ...Object.values(TRTLLM_CHARTS),
  SM_CHARTS.endpoints,
  SM_SERIES.all(),
].map((c) => c.key);

/** Per view: the tables before its charts and the charts themselves, in parts made when called (a step each). */
function viewContent(
  id: RunViewId,
  run: RunSummary,
  p: Payloads,
  sample: RequestSample | null,
): { blocks: () => Section["blocks"]; figures: Array<() => Figure[]> } | null {
  const sm = () => {
    const e = endpointFigures(p, endpointHitRateMissing(run.serverMetrics?.cache ?? null));
    const s = seriesFigures(p, run.timeBreakdown?.kvCacheHitRate ?? null);
    const ep = perEndpointSeriesFigures(p);
    return {
      cache: [...e.cache, ...s.cache, ...ep.cache],
      kv: [...e.kv, ...s.kv, ...ep.kv],
      offload: [...e.offload, ...s.offload, ...ep.offload],
    };
  };
  // Charts drawn from a sample of the run's records say so once above them, as their views do.
  const sampleNote = recordsSampleNote(run.requests);
  const sampled: Section["blocks"] = sampleNote ? [{ kind: "note", text: sampleNote }] : [];
  switch (id) {
    case "latency":
      return {
        blocks: () => [
          ...sampled,
          ...latencyTables(run),
          ...agreementTables(p),
          ...slowestTables(p),
          ...trtllmSlowestTables(p),
        ],
        figures: latencyFigureParts(p, run, runRequestsDefinition(run)),
      };
    case "throughput":
      return { blocks: () => sampled, figures: [() => throughputFigures(p, run.requests)] };
    case "breakdown":
      return { blocks: () => breakdownTables(run), figures: [() => breakdownFigures(p, sample)] };
    case "cache":
      return { blocks: () => [], figures: [() => sm().cache] };
    case "kv":
      return { blocks: () => [], figures: [() => sm().kv] };
    case "offload":
      return { blocks: () => [], figures: [() => sm().offload] };
    case "gpu":
      return {
        blocks: () => [...gpuSummaryTables(p), ...gpuEnergyBlocks(p), ...gpuOutsideWindowBlocks(p)],
        figures: [() => gpuFigures(p)],
      };
    case "endpoints":
      return { blocks: () => endpointTables(run), figures: [() => []] };
    default:
      return null;
  }
}

/** The report's document for a run and its stored payloads: pure, so tests can count what it holds. */
export function runReportDoc(
  run: RunSummary,
  p: Payloads,
  generatedAt: string,
  sample: RequestSample | null = null,
): ReportDoc {
  return atOnce(runReportDocInSteps(run, p, generatedAt, sample));
}

/** runReportDoc in steps: a view's tables, then each part of its figures, a step each. */
function* runReportDocInSteps(
  run: RunSummary,
  p: Payloads,
  generatedAt: string,
  sample: RequestSample | null,
): Steps<ReportDoc> {
  const sections: Section[] = [summarySection(run, generatedAt)];
  for (const view of RUN_VIEWS) {
    yield;
    const content = viewContent(view.id, run, p, sample);
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
    const blocks = [...content.blocks()];
    yield;
    const parts: Figure[][] = [];
    for (const [i, part] of content.figures.entries()) {
      if (i > 0) yield;
      parts.push(part());
    }
    const figures = parts.flat();
    if (figures.length === 0 && blocks.length === 0)
      blocks.push({
        kind: "note",
        text: "This view's charts were not stored with the run; re-ingest it to add them.",
      });
    sections.push({ id: view.id, title: view.label, blocks, figures });
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
  const endpoints = payloadsFrom(await readRunCharts(db, runId, [SM_CHARTS.endpoints.key]));
  const payloads = payloadsFrom(
    await readRunCharts(db, runId, [...REPORT_CHART_KEYS, ...endpointSeriesKeys(endpoints)]),
  );
  // The per-request chart reads request rows, as the view does: its sample, sorted by TTFT.
  const sample = run.timeBreakdown
    ? await sampleRequests(db, runId, "ttft", "desc", REPORT_REQUEST_BARS)
    : null;
  // A view's figures, then a figure's SVG, a turn at a time: a big run's report is seconds of
  // the server's time at a loaded machine, given back between its pieces.
  const doc = await inTurns(runReportDocInSteps(run, payloads, now.toISOString(), sample));
  const html = await inTurns(renderReportInSteps(doc));
  return { name: run.name, html, figures: doc.sections.flatMap((s) => s.figures) };
}
