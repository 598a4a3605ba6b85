"use client";

import { formatNumber } from "@/lib/format-number";
import type { Reading } from "@/lib/metrics/pareto";
import { readSweepsAt, type SweepAxis } from "@/lib/metrics/sweep-chart-rows";
import type { OverlaidSweep } from "@/components/charts/chart-scatter-sweep-pareto";

const pct = (d: number) => `${d > 0 ? "+" : d < 0 ? "−" : ""}${formatNumber(Math.abs(d) * 100, 0)}%`;

/** Where to read by default: the middle of the first frontier's measured range. */
export function defaultReadAt(sweeps: OverlaidSweep[]): number | null {
  const f = sweeps[0]?.series.frontier ?? [];
  if (f.length === 0) return null;
  const mid = (f[0].x + f[f.length - 1].x) / 2;
  return Number(mid.toPrecision(2));
}

function value(r: Reading, unit: string): string {
  return r.y === null ? `nothing (${r.reason})` : `${formatNumber(r.y, r.y < 100 ? 1 : 0)} ${unit}`;
}

/**
 * The frontiers read at one x: "at 50 tok/s/user, A gives 1,830 tok/s/GPU, B gives 1,410
 * (−23%)", interpolated along each frontier, and which readings lie outside what a sweep measured.
 */
export function FrontierReading({
  sweeps,
  x,
  y,
  at,
  onAt,
}: {
  sweeps: OverlaidSweep[];
  x: SweepAxis;
  y: SweepAxis;
  at: number | null;
  onAt: (v: number | null) => void;
}) {
  const where = at ?? defaultReadAt(sweeps);
  const cmp =
    where === null
      ? null
      : readSweepsAt(
          sweeps.map((s) => s.series),
          where,
        );
  const extrapolated = cmp ? sweeps.filter((_, i) => cmp.readings[i].how === "extrapolated") : [];
  return (
    <div className="rounded-lg border border-border bg-card p-4 text-sm" data-testid="frontier-reading">
      <label className="flex flex-wrap items-center gap-2">
        <span>Read the frontiers at</span>
        <input
          type="number"
          className="input w-28 py-0.5"
          min={0}
          step="any"
          aria-label={`${x.title} (${x.unit})`}
          value={where ?? ""}
          onChange={(e) => {
            const v = Number(e.target.value);
            onAt(e.target.value === "" || !Number.isFinite(v) ? null : v);
          }}
        />
        <span>{x.unit}</span>
      </label>
      {cmp && where !== null ? (
        <p className="mt-2" data-testid="frontier-sentence">
          At {formatNumber(where)} {x.unit},{" "}
          {sweeps.map((s, i) => {
            const r = cmp.readings[i];
            const d = cmp.deltas[i];
            return (
              <span key={i}>
                {i > 0 ? ", " : ""}
                <span style={{ color: s.color }}>■</span> {s.name} gives {value(r, y.unit)}
                {d !== null ? ` (${pct(d)})` : ""}
                {r.how === "extrapolated" ? "†" : ""}
              </span>
            );
          })}
          .
        </p>
      ) : (
        <p className="mt-2 text-muted">No frontier to read: no run of the sweep has both values.</p>
      )}
      {extrapolated.length > 0 ? (
        <p className="mt-1 text-xs text-warn">
          † extrapolated beyond the measured range of {extrapolated.map((s) => s.name).join(", ")}: the sweep
          did not run there.
        </p>
      ) : null}
    </div>
  );
}
