"use client";

import { useQueries } from "@tanstack/react-query";
import { GoodputSection } from "@/components/goodput/goodput-section";
import { ChartContainer, type SeriesConfig } from "@/components/charts/chart-container";
import { paletteColor } from "@/components/charts/chart-theme";
import { ticksFor } from "@/components/charts/chart-scatter-sweep-pareto";
import { niceTicks } from "@/lib/metrics/nice-scale";
import { sweepGoodputQueryOptions } from "@/lib/api/sweep-query-options";
import { describeSlo, parseSlos } from "@/lib/api/slo";
import type { Sweep } from "@/lib/api/sweeps";
import { formatNumber, formatRate } from "@/lib/format-number";
import { loadLabel } from "@/lib/metrics/sweep-chart-rows";

type Row = { load: number; goodput: number | null; share: number | null; run: string };

/** Goodput against concurrency for every overlaid sweep under the URL's SLO, and the highest load meeting it. */
export function SweepGoodput({
  sweeps,
  slo,
  onSlo,
  logX,
  onLogX,
}: {
  sweeps: Sweep[];
  slo: string;
  onSlo: (s: string) => void;
  logX: boolean;
  onLogX: (log: boolean) => void;
}) {
  const slos = parseSlos(slo);
  const active = slos !== null && slos.length > 0;
  const queries = useQueries({
    queries: sweeps.map((s) => ({ ...sweepGoodputQueryOptions(s.id, slo), enabled: active })),
  });
  const series: SeriesConfig<Row> = {};
  const all: Row[] = [];
  queries.forEach((q, i) => {
    const rows: Row[] = (q.data?.runs ?? []).flatMap((r) =>
      r.concurrency === null
        ? []
        : [
            {
              load: r.concurrency,
              goodput: r.goodput.goodputReqPerS.value,
              share: r.goodput.share,
              run: r.name,
            },
          ],
    );
    all.push(...rows);
    series[`g${i}`] = {
      label: sweeps[i].name,
      color: paletteColor(i),
      data: rows,
      dataKey: "goodput",
      dots: true,
      mark: "line",
    };
  });
  const maxGood = Math.max(0, ...all.map((r) => r.goodput ?? 0));
  const yTicks = niceTicks(maxGood || 1);
  const loads = all.map((r) => r.load).filter((v) => v > 0);
  const xt = ticksFor(loads.length ? loads : [1], logX);
  return (
    <GoodputSection
      testId="sweep-goodput"
      slo={slo}
      slos={slos}
      onSlo={onSlo}
      unset="Set a TTFT, TPOT or E2E threshold to see each run's goodput and the highest concurrency that meets it."
    >
      {(set) => (
        <>
          <ul className="space-y-1 text-sm">
            {queries.map((q, i) => {
              const best = q.data?.highestMeeting;
              const run = best && sweeps[i].runs.find((r) => r.id === best.id);
              return (
                <li key={sweeps[i].id} data-testid={i === 0 ? "highest-meeting" : undefined}>
                  <span style={{ color: paletteColor(i) }}>■</span> {sweeps[i].name}:{" "}
                  {q.isPending
                    ? "computing…"
                    : q.isError
                      ? q.error.message
                      : run
                        ? `highest load meeting ${set.map(describeSlo).join(", ")}: ${loadLabel(run)}`
                        : `no run meets ${set.map(describeSlo).join(", ")}`}
                </li>
              );
            })}
          </ul>
          <label className="flex items-center gap-1 text-xs text-muted">
            <input type="checkbox" checked={logX} onChange={(e) => onLogX(e.target.checked)} />
            log concurrency axis
          </label>
          <ChartContainer
            title="Goodput vs concurrency"
            description={`Requests per second meeting ${set.map(describeSlo).join(", ")}, from every recorded request`}
            exportName="sweep-goodput"
            kind="line"
            series={series}
            x={{
              key: "load",
              title: "Concurrency",
              unit: "requests in flight",
              numeric: true,
              ticks: xt.ticks,
              domain: xt.domain,
              log: logX,
              format: (v) => formatNumber(v),
            }}
            y={{
              key: "goodput",
              title: "Goodput",
              unit: "req/s",
              ticks: yTicks,
              format: (v) => formatNumber(v),
            }}
            tooltip={{
              value: (v, _k, row) => [
                `${formatNumber(v)} req/s (${formatRate(row.share)} of requests)`,
                row.run,
              ],
            }}
            legend
            csvRows={() =>
              queries.flatMap((q, i) =>
                (q.data?.runs ?? []).map((r) => ({
                  sweep: sweeps[i].name,
                  run: r.name,
                  concurrency: r.concurrency,
                  requestRate: r.requestRate,
                  meetsAll: r.meetsAll,
                  share: r.goodput.share,
                  "goodput (req/s)": r.goodput.goodputReqPerS.value,
                  "goodput (tok/s)": r.goodput.goodputTokPerS.value,
                  note: r.goodput.note ?? r.goodput.goodputReqPerS.reason ?? "",
                })),
              )
            }
            missing="No run of these sweeps states its concurrency, or none has per-request rows: upload aiperf's profile_export.jsonl."
          />
        </>
      )}
    </GoodputSection>
  );
}
