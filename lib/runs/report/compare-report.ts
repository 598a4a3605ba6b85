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
import { itlWordsOf } from "@/lib/metrics/request-words";
import { cell, figure, METRIC_LABEL, payloadsFrom } from "./figure-kit";
import { renderReport, type Figure, type ReportDoc, type Section } from "./html";
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
  // One chart per group of rows in one unit: bars cannot share an axis across units.
  const groups = new Map<string, CompareResponse["rows"]>();
  for (const row of c.rows)
    groups.set(`${row.group}|${row.unit}`, [...(groups.get(`${row.group}|${row.unit}`) ?? []), row]);
  const figures: Figure[] = [...groups.values()].map((rows) =>
    figure(
      `delta-${rows[0].group}-${rows[0].unit}`.replace(/[^\w-]+/g, "-"),
      `${rows[0].group}, ${rows[0].unit} (${c.stat})`,
      "Each run's value beside the others; the table below has the deltas against the baseline.",
      {
        kind: "bars",
        categories: rows.map((r) => r.label),
        value: { title: rows[0].group, unit: rows[0].unit },
        series: c.runs.map((run) => ({
          label: run.name,
          values: rows.map((r) => r.cells.find((k) => k.runId === run.id)?.value ?? null),
        })),
      },
      "no run recorded these metrics",
      "metric",
    ),
  );
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
  const metrics = [...new Set(dists.flatMap((x) => (x.d ? Object.keys(x.d.metrics) : [])))];
  // The runs' own word for the per-request ITL: vLLM's and SGLang's TPOT.
  const labels: Record<string, string> = { ...METRIC_LABEL, itlMs: itlWordsOf(c.runs).label };
  const figures = metrics.map((m) =>
    figure(
      `cdf-${m}`,
      `${labels[m] ?? m}: cumulative distribution per run`,
      "Share of each run's requests at or below each value.",
      {
        kind: "line",
        x: { title: labels[m] ?? m, unit: "ms" },
        y: { title: "Requests at or below", unit: "%" },
        series: dists.map(({ run, d }) => ({
          label: run.name,
          points: (d?.metrics[m]?.cdf ?? []).map((p) => [p.value, p.fraction * 100] as const),
        })),
      },
      "no run has per-request records for this metric",
    ),
  );
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
