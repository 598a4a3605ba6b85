/**
 * A sweep's offline report (docs/formats.md §Offline report): the sweep's facts and runs, the
 * sweep page's three Pareto charts at one statistic (each point labelled with its load, the
 * frontier drawn), the table of every point, and goodput against concurrency under the SLOs the
 * link carries. A `ReportDoc` like a run's, rendered by the same self-contained HTML writer.
 */
import { describeSlo, type Slo } from "@/lib/api/slo";
import type { SweepReportQuery } from "@/lib/api/sweep-report";
import type { Sweep, SweepStat } from "@/lib/api/sweeps";
import { FACT_LABELS, type FactKey } from "@/lib/api/run-facts";
import { formatDateTime, formatNumber, formatRate } from "@/lib/format-number";
import type { IngestDeps } from "@/lib/ingest/deps";
import {
  chartAxes,
  loadLabel,
  SWEEP_CHARTS,
  sweepSeries,
  type PlotPoint,
  type SweepChartId,
  type ThroughputBasis,
} from "@/lib/metrics/sweep-chart-rows";
import { sweepGoodput } from "../sweep-goodput";
import { readSweep } from "../sweeps";
import { cell } from "./figure-kit";
import { renderReport, type Figure, type ReportDoc, type Section } from "./html";
import type { BuiltReport } from "./run-report";
import { perUserStatLabel } from "@/lib/metrics/derived-throughput";

const CHARTS = Object.keys(SWEEP_CHARTS) as SweepChartId[];

function sweepSection(sweep: Sweep): Section {
  const facts = Object.entries(sweep.facts).map(
    ([k, f]) =>
      [
        FACT_LABELS[k as FactKey] ?? k,
        `${typeof f.value === "number" ? formatNumber(f.value, 3) : f.value} (${f.source})`,
      ] as [string, string],
  );
  const blocks: Section["blocks"] = [
    { kind: "facts", facts: [["Runs", String(sweep.runs.length)], ...facts] },
    {
      kind: "table",
      title: "Runs",
      table: {
        columns: ["load", "run", "id", "GPUs", "numbers from"],
        rows: sweep.runs.map((r) => [
          loadLabel(r),
          r.name,
          r.id,
          r.gpuCount ? `${r.gpuCount.value} (${r.gpuCount.source})` : "unknown",
          r.source === "summary" ? `${r.sourceProducer ?? "aiperf"} summary` : r.source,
        ]),
      },
    },
  ];
  for (const r of sweep.runs)
    if (r.sourceNote) blocks.push({ kind: "note", text: `${loadLabel(r)}: ${r.sourceNote}` });
  return { id: "sweep", title: "Sweep", blocks, figures: [] };
}

interface LogAxes {
  x: boolean;
  y: boolean;
}

function paretoFigure(
  sweep: Sweep,
  chart: SweepChartId,
  stat: SweepStat,
  basis: ThroughputBasis,
  log: LogAxes,
): Figure {
  const { x, y } = chartAxes(chart, basis);
  const s = sweepSeries(sweep, stat, x, y);
  const onFrontier = new Set(s.frontier);
  const unplotted = s.unplotted.map((u) => `${u.runName} (${u.reason})`).join("; ");
  const repeated = s.points.some((p) => p.runIds.length > 1);
  const range = (sp: PlotPoint["xSpread"]) => (sp.runs > 1 ? `${cell(sp.lo)} – ${cell(sp.hi)}` : "one run");
  return {
    id: `sweep-${chart}`,
    title: SWEEP_CHARTS[chart].title,
    description: `${x.perStat || y.perStat ? `${stat} per run; ` : ""}each point is a run, labelled by its load${repeated ? "; repeated runs of one load are one point at their median, their min–max drawn as bars" : ""}; the step is the Pareto frontier${log.y ? "; the y axis is on a log scale" : ""}${unplotted ? `. Not drawn: ${unplotted}` : ""}`,
    plot: {
      kind: "scatter",
      x: { title: x.title, unit: x.unit, log: log.x },
      y: { title: y.title, unit: y.unit, log: log.y },
      series: [
        {
          label: sweep.name,
          points: s.points.map((p) => [p.x, p.y]),
          labels: s.points.map((p) => p.label),
          intervals: s.points.map((p) =>
            p.runIds.length > 1 ? { x: [p.xSpread.lo, p.xSpread.hi], y: [p.ySpread.lo, p.ySpread.hi] } : null,
          ),
        },
        { label: "Pareto frontier", mark: "line", points: s.steps.map((p) => [p.x, p.y]) },
      ],
    },
    missing: `no run has both ${x.title.toLowerCase()} and ${y.title.toLowerCase()}${unplotted ? `: ${unplotted}` : ""}`,
    table: {
      columns: [
        "load",
        "runs",
        `${x.title} (${x.unit})`,
        `${x.title} min – max`,
        `${y.title} (${y.unit})`,
        `${y.title} min – max`,
        "on the frontier",
      ],
      rows: s.points.map((p) => [
        p.label,
        String(p.runIds.length),
        cell(p.x),
        range(p.xSpread),
        cell(p.y),
        range(p.ySpread),
        onFrontier.has(p) ? "yes" : "",
      ]),
    },
  };
}

const POINT_COLUMNS = [
  ["outputTokPerSPerGpu", "output tok/s/GPU"],
  ["totalTokPerSPerGpu", "total tok/s/GPU"],
  ["requestsPerSPerGpu", "req/s/GPU"],
  ["tokPerSPerUser", "tok/s/user"],
  ["requestsPerS", "req/s"],
  ["ttftMs", "TTFT (ms)"],
  ["e2eMs", "E2E (ms)"],
  ["tpotMs", "TPOT (ms)"],
] as const;

function pointsSection(sweep: Sweep, stat: SweepStat, basis: ThroughputBasis, log: LogAxes): Section {
  const missing = new Map<string, string>();
  const rows = sweep.runs.map((r) => {
    const p = r.points[stat];
    return [
      loadLabel(r),
      ...POINT_COLUMNS.map(([k]) => {
        const v = p[k];
        if (v === null && p.missing[k]) missing.set(p.missing[k], k);
        return v === null ? "not measured" : cell(v);
      }),
    ];
  });
  const blocks: Section["blocks"] = [
    {
      kind: "table",
      title: `Every point (${stat})`,
      // At a tail statistic tok/s per user is its slow tail: "p99" reads its worst 1% (p1).
      table: {
        columns: [
          "load",
          ...POINT_COLUMNS.map(([k, l]) =>
            k === "tokPerSPerUser" && perUserStatLabel(stat) !== stat ? `${l} ${perUserStatLabel(stat)}` : l,
          ),
        ],
        rows,
      },
    },
  ];
  for (const reason of missing.keys()) blocks.push({ kind: "note", text: `Not measured: ${reason}.` });
  return {
    id: "pareto",
    title: `Pareto charts (${stat})`,
    blocks,
    figures: CHARTS.map((c) => paretoFigure(sweep, c, stat, basis, log)),
  };
}

async function goodputSection(
  app: IngestDeps,
  sweep: Sweep,
  slos: readonly Slo[],
  logX: boolean,
): Promise<Section> {
  if (slos.length === 0)
    return {
      id: "goodput",
      title: "Goodput under SLOs",
      blocks: [
        {
          kind: "note",
          text: "No SLO in this report's link: set one on the sweep page (or add ?slo=ttft:p99:200) and save the report again to include goodput.",
        },
      ],
      figures: [],
    };
  const g = await sweepGoodput(app, sweep.id, slos);
  const what = slos.map(describeSlo).join(", ");
  const runs = g?.runs ?? [];
  const best = g?.highestMeeting ? sweep.runs.find((r) => r.id === g.highestMeeting?.id) : undefined;
  const plotted = runs.filter((r) => r.concurrency !== null);
  const figure: Figure = {
    id: "sweep-goodput",
    title: "Goodput vs concurrency",
    description: `Requests per second meeting ${what}, from every recorded request`,
    plot: {
      kind: "line",
      x: { title: "Concurrency", unit: "requests in flight", log: logX },
      y: { title: "Goodput", unit: "req/s" },
      series: [
        { label: sweep.name, points: plotted.map((r) => [r.concurrency!, r.goodput.goodputReqPerS.value]) },
      ],
    },
    missing:
      "fewer than two runs state their concurrency and have per-request rows: upload aiperf's profile_export.jsonl",
    table: {
      columns: ["load", "meets every SLO", "share of requests", "goodput (req/s)", "goodput (tok/s)", "note"],
      rows: runs.map((r) => [
        loadLabel(r),
        r.meetsAll ? "yes" : "no",
        r.goodput.share === null ? "not measured" : formatRate(r.goodput.share),
        cell(r.goodput.goodputReqPerS.value),
        cell(r.goodput.goodputTokPerS.value),
        r.goodput.note ?? r.goodput.goodputReqPerS.reason ?? "",
      ]),
    },
  };
  return {
    id: "goodput",
    title: "Goodput under SLOs",
    blocks: [
      {
        kind: "note",
        text: best ? `Highest load meeting ${what}: ${loadLabel(best)}.` : `No run meets ${what}.`,
      },
    ],
    figures: [figure],
  };
}

/** The log axes the report was saved with, in its subtitle ("" when every axis is linear). */
function logAxesText(q: SweepReportQuery): string {
  const axes = [q.logx && "Pareto x", q.logy && "Pareto y", q.glogx && "goodput x"].filter(Boolean);
  return axes.length ? ` · log ${axes.join(", ")}` : "";
}

export async function sweepReportDoc(
  app: IngestDeps,
  sweep: Sweep,
  q: SweepReportQuery,
  generatedAt: string,
): Promise<ReportDoc> {
  return {
    title: `Sweep: ${sweep.name}`,
    subtitle: `Runlens sweep report · ${sweep.runs.length} runs · statistic ${q.stat} · ${q.basis} tokens per GPU${logAxesText(q)} · written ${formatDateTime(generatedAt)}`,
    sections: [
      sweepSection(sweep),
      pointsSection(sweep, q.stat, q.basis, { x: q.logx, y: q.logy }),
      await goodputSection(app, sweep, q.slo, q.glogx),
    ],
  };
}

export async function sweepReport(
  app: IngestDeps,
  id: string,
  q: SweepReportQuery,
  now = new Date(),
): Promise<BuiltReport | null> {
  const sweep = await readSweep(app, id);
  if (!sweep) return null;
  const doc = await sweepReportDoc(app, sweep, q, now.toISOString());
  return { name: sweep.name, html: renderReport(doc), figures: doc.sections.flatMap((s) => s.figures) };
}
