/**
 * A comparison's offline report: the compared runs, the delta table against the baseline, the
 * collector warnings, and the compare page's charts (latency CDF overlays, one bar chart per group
 * of metrics sharing a unit). Built as a `ReportDoc` like a run's, so other reports (a sweep's)
 * are one more builder over the same renderer.
 */

import type { CompareQuery, CompareResponse } from "@/lib/api/compare-schemas";
import { formatDateTime, formatNumber } from "@/lib/format-number";
import type { Db } from "@/lib/store/db";
import { readRunCharts } from "@/lib/runs/column-charts";
import { loadComparison } from "../compare-runs";
import {
  compareCdfFigure,
  compareCdfLabel,
  compareCdfMetrics,
  type CompareCdfRun,
} from "@/lib/metrics/figures/compare-cdf";
import { compareDeltaFigures } from "@/lib/metrics/figures/compare-deltas";
import { cell, payloadsFrom, reportFigure } from "./figure-kit";
import { renderReport, type ReportDoc, type Section } from "./html";
import type { BuiltReport } from "./run-report";
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

const DISTRIBUTIONS = [AIPERF_CHARTS.distribution, TRTLLM_CHARTS.latencyDistribution];

function runsSection(c: CompareResponse): Section {
  const blocks: Section["blocks"] = [
    {
      kind: "table",
      title: "Runs",
      table: {
        columns: ["run", "id", "uploaded", "files", "baseline"],
        rows: c.runs.map((r) => [
          r.name,
          r.id,
          formatDateTime(r.createdAt),
          String(r.files.length),
          r.id === c.baseline ? "yes" : "",
        ]),
      },
    },
  ];
  // The comparability doctor's verdict per run, each reason with its evidence (a collector on in
  // one run only is one of them).
  const name = (id: string) => c.runs.find((r) => r.id === id)?.name ?? id;
  for (const r of c.comparability?.runs ?? [])
    blocks.push({
      kind: "note",
      text: `${name(r.runId)} against ${name(c.baseline)}: ${r.verdict}${r.reasons
        .map(
          (x) =>
            `; ${x.accepted ? "accepted" : x.severity === "blocking" ? "blocks" : "caveat"}: ${x.label} ${x.a} → ${x.b} (${x.evidence})`,
        )
        .join("")}`,
    });
  for (const m of c.collectorMismatches)
    if (m.kind === "unknown")
      blocks.push({
        kind: "note",
        text: `Collector ${m.flag} is unknown for some runs: it changes what a run measures and costs throughput.`,
      });
  if (c.missing.length > 0)
    blocks.push({ kind: "note", text: `Not found or not ready: ${c.missing.join(", ")}` });
  return { id: "runs", title: "Runs", blocks, figures: [] };
}

function deltaSection(c: CompareResponse): Section {
  const name = new Map(c.runs.map((r) => [r.id, r.name]));
  const others = c.runs.filter((r) => r.id !== c.baseline);
  const table = {
    columns: [
      "group",
      "metric",
      "unit",
      `baseline: ${name.get(c.baseline) ?? c.baseline}`,
      ...others.map((r) => r.name),
    ],
    rows: c.rows.map((row) => [
      row.group,
      row.label,
      row.unit,
      cell(row.baseline),
      ...others.map((r) => {
        const x = row.cells.find((k) => k.runId === r.id);
        if (!x || x.value === null) return "not recorded";
        const pct =
          x.percent === null
            ? ""
            : ` (${x.percent >= 0 ? "+" : ""}${formatNumber(x.percent * 100, 1)}%, ${x.verdict})`;
        return `${cell(x.value)}${pct}`;
      }),
    ]),
  };
  const figures = compareDeltaFigures(c).map(reportFigure);
  return {
    id: "deltas",
    title: `Deltas against the baseline (${c.stat})`,
    blocks: [{ kind: "table", title: "Delta table", table }],
    figures,
  };
}

async function cdfSection(db: Db, c: CompareResponse): Promise<Section> {
  const dists = await Promise.all(
    c.runs.map(async (r) => {
      const p = payloadsFrom(
        await readRunCharts(
          db,
          r.id,
          DISTRIBUTIONS.map((c) => c.key),
        ),
      );
      return {
        run: r,
        d: p.get(DISTRIBUTIONS[0]) ?? p.get(DISTRIBUTIONS[1]),
      };
    }),
  );
  // Each run's aiperf distribution, else its TensorRT-LLM one; every metric any run has.
  const runs: CompareCdfRun[] = dists.map(({ run, d }, index) => ({
    id: run.id,
    name: run.name,
    index,
    distribution: d,
  }));
  const figures = compareCdfMetrics(runs)
    .map((m) => compareCdfFigure(runs, m, compareCdfLabel(c.runs, m)))
    .map(reportFigure);
  const blocks: Section["blocks"] =
    figures.length === 0
      ? [
          {
            kind: "note",
            text: "No run has per-request latency: upload aiperf profile_export.jsonl or TensorRT-LLM perf metrics.",
          },
        ]
      : [];
  return { id: "distributions", title: "Latency distributions", blocks, figures };
}

export async function compareReportDoc(db: Db, c: CompareResponse, generatedAt: string): Promise<ReportDoc> {
  return {
    title: `Comparison of ${c.runs.length} runs`,
    subtitle: `Runlens comparison report · ${c.runs.map((r) => r.name).join(" · ")} · written ${formatDateTime(generatedAt)}`,
    sections: [runsSection(c), deltaSection(c), await cdfSection(db, c)],
  };
}

export async function compareReport(
  db: Db,
  query: CompareQuery,
  now = new Date(),
): Promise<BuiltReport | null> {
  const c = await loadComparison(db, query);
  if (c.runs.length === 0) return null;
  const doc = await compareReportDoc(db, c, now.toISOString());
  return { name: "comparison", html: renderReport(doc), figures: doc.sections.flatMap((s) => s.figures) };
}
