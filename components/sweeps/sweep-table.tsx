"use client";

import Link from "next/link";
import { DataTable } from "@/components/charts/data-table";
import { downloadCsv } from "@/components/charts/export";
import { perUserStatLabel } from "@/lib/metrics/derived-throughput";
import { runHref } from "@/components/run/search-params";
import type { Sweep, SweepRun, SweepStat } from "@/lib/api/sweeps";
import { formatFigure, formatMs } from "@/lib/format-number";
import { loadLabel } from "@/lib/metrics/sweep-chart-rows";

// A figure's own decimals at every size, as the run's Overview and Compare write it: tok/s 194.51
// (not 195), req/s 0.973 (lib/format-number.ts figureDigits).
const num = (v: number | null, unit = "tok/s") => (v === null ? "—" : formatFigure(v, unit));
const ms = (v: number | null) => (v === null ? "—" : formatMs(v));

function csvRows(sweep: Sweep, stat: SweepStat) {
  return sweep.runs.map((r) => {
    const p = r.points[stat];
    return {
      load: loadLabel(r),
      run: r.name,
      runId: r.id,
      source: r.source,
      gpus: r.gpuCount?.value ?? null,
      statistic: stat,
      "output tok/s/GPU": p.outputTokPerSPerGpu,
      "total tok/s/GPU": p.totalTokPerSPerGpu,
      "req/s/GPU": p.requestsPerSPerGpu,
      "tok/s/user": p.tokPerSPerUser,
      "output tok/s": p.outputTokPerS,
      "req/s": p.requestsPerS,
      "TTFT (ms)": p.ttftMs,
      "E2E (ms)": p.e2eMs,
      "TPOT (ms)": p.tpotMs,
    };
  });
}

/** Every point of the sweep at the chosen statistic, with where its numbers come from. */
export function SweepTable({
  sweep,
  stat,
  onRemove,
}: {
  sweep: Sweep;
  stat: SweepStat;
  onRemove?: (runId: string) => void;
}) {
  const missingNote = (r: SweepRun, key: keyof SweepRun["points"]["mean"]) =>
    r.points[stat].missing[key as string];
  return (
    <section className="space-y-2" data-testid="sweep-table">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold">Every point ({stat})</h2>
        <button
          type="button"
          className="btn-ghost text-xs"
          onClick={() =>
            downloadCsv(csvRows(sweep, stat), `sweep-${sweep.name.replace(/[^a-z0-9]+/gi, "-")}-${stat}.csv`)
          }
        >
          CSV
        </button>
      </div>
      <DataTable
        framed
        caption={`Points of ${sweep.name}`}
        rows={sweep.runs}
        rowKey={(r) => r.id}
        rowAttrs={(r) => ({ "data-run": r.id })}
        columns={[
          { header: "Load", cell: (r) => loadLabel(r) },
          {
            header: "Run",
            cell: (r) => (
              <Link className="link" href={runHref(r.id)}>
                {r.name}
              </Link>
            ),
          },
          {
            header: "GPUs",
            num: true,
            cell: (r) =>
              r.gpuCount ? (
                <span title={r.gpuCount.source}>{r.gpuCount.value}</span>
              ) : (
                <Link className="text-warn" href={runHref(r.id)} title="Set the GPU count on the run's page">
                  unknown
                </Link>
              ),
          },
          {
            header: "tok/s/GPU",
            num: true,
            cell: (r) => (
              <span title={missingNote(r, "outputTokPerSPerGpu")}>
                {num(r.points[stat].outputTokPerSPerGpu)}
              </span>
            ),
            attrs: () => ({ "data-stat": "outputTokPerSPerGpu" }),
          },
          {
            // At a tail statistic the slow tail: "p99" is the worst 1% (p1) of tok/s per user.
            header: stat === perUserStatLabel(stat) ? "tok/s/user" : `tok/s/user ${perUserStatLabel(stat)}`,
            num: true,
            cell: (r) => num(r.points[stat].tokPerSPerUser),
            attrs: () => ({ "data-stat": "tokPerSPerUser" }),
          },
          { header: "req/s", num: true, cell: (r) => num(r.points[stat].requestsPerS, "req/s") },
          {
            header: "TTFT",
            num: true,
            cell: (r) => ms(r.points[stat].ttftMs),
            attrs: () => ({ "data-stat": "ttftMs" }),
          },
          { header: "E2E", num: true, cell: (r) => ms(r.points[stat].e2eMs) },
          { header: "TPOT", num: true, cell: (r) => ms(r.points[stat].tpotMs) },
          {
            header: "Numbers from",
            cell: (r) => (
              <span className="text-xs text-muted" title={r.sourceNote ?? undefined}>
                {r.source === "summary" ? `${r.sourceProducer ?? "aiperf"} summary` : r.source}
                {r.sourceNote ? " *" : ""}
              </span>
            ),
          },
          onRemove
            ? {
                header: "",
                cell: (r) => (
                  <button type="button" className="btn-ghost text-xs" onClick={() => onRemove(r.id)}>
                    Remove
                  </button>
                ),
              }
            : null,
        ]}
        after={
          sweep.runs.some((r) => r.sourceNote) ? (
            <ul className="mt-2 space-y-1 px-3 pb-2 text-xs text-muted">
              {sweep.runs
                .filter((r) => r.sourceNote)
                .map((r) => (
                  <li key={r.id}>
                    * {loadLabel(r)}: {r.sourceNote}
                  </li>
                ))}
            </ul>
          ) : null
        }
      />
    </section>
  );
}
