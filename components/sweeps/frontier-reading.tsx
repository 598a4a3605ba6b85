"use client";

import { figureDigits, formatFigure, formatNumber } from "@/lib/format-number";
import type { Reading } from "@/lib/metrics/pareto";
import type { SpreadVerdict } from "@/lib/metrics/run-spread";
import { readSweepsAt, type PlotPoint, type SweepAxis } from "@/lib/metrics/sweep-chart-rows";
import type { OverlaidSweep } from "@/components/charts/chart-scatter-sweep-pareto";

const pct = (d: number) => `${d > 0 ? "+" : d < 0 ? "−" : ""}${formatNumber(Math.abs(d) * 100, 0)}%`;

/** Where to read by default: the middle of the first frontier's measured range. */
export function defaultReadAt(sweeps: OverlaidSweep[]): number | null {
  const f = sweeps[0]?.series.frontier ?? [];
  if (f.length === 0) return null;
  const lo = f[0].x;
  const hi = f[f.length - 1].x;
  const mid = (lo + hi) / 2;
  // The roundest number inside the measured range, so the default reads, never extends.
  for (let digits = 1; digits < 8; digits++) {
    const v = Number(mid.toPrecision(digits));
    if (v >= lo && v <= hi) return v;
  }
  return mid;
}

/**
 * A reading and its runs' range at the figure's own decimals, as the sweep table beside it writes
 * the same point (50.08 tok/s/GPU, not 50.1; lib/format-number.ts figureDigits).
 */
function value(r: Reading<PlotPoint>, unit: string): string {
  if (r.y === null) return `nothing (${r.reason})`;
  const s = r.point.ySpread;
  const at = ` at ${r.point.label}`;
  const f = (v: number) =>
    figureDigits(unit) !== null ? formatFigure(v, unit) : formatNumber(v, v < 100 ? 1 : 0);
  return `${f(r.y)} ${unit}${at}${s.runs > 1 ? ` (runs ${f(s.lo)}–${f(s.hi)})` : ""}`;
}

/** "Output throughput per GPU" → "output throughput per GPU": a title inside a sentence. */
const lowerFirst = (t: string) => t.charAt(0).toLowerCase() + t.slice(1);

/** What the spread rule says about a sweep's reading against the first sweep's. */
function verdictText(
  v: SpreadVerdict,
  base: { name: string; r: Reading<PlotPoint> },
  other: { name: string; r: Reading<PlotPoint> },
  sense: "max" | "min",
): string {
  if (v === "within") return "within each other's run-to-run spread: no winner here";
  if (base.r.y === null || other.r.y === null) return "";
  if (v === "apart") {
    const otherAhead = sense === "max" ? other.r.y > base.r.y : other.r.y < base.r.y;
    return `outside each other's run-to-run spread: ${otherAhead ? other.name : base.name} wins here`;
  }
  const single = [base, other].filter((s) => s.r.y !== null && s.r.point.ySpread.runs < 2);
  if (single.length === 2) return "spread not known: one run each";
  return `spread not known: ${single.map((s) => `${s.name} has one run at ${s.r.y === null ? "" : s.r.point.label}`).join("")}`;
}

/**
 * The frontiers read at one x: "at 50 tok/s/user, A gives 1,830 tok/s/GPU at c16, B gives 1,410
 * (−23%, outside each other's run-to-run spread: A wins here)", each frontier read as the step it
 * is drawn as, with the spread of the point read (its repeated runs' min–max) and whether two
 * sweeps are within each other's spread (docs/metrics.md §Sweeps).
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
          x,
          y,
        );
  const beyond = cmp ? sweeps.filter((_, i) => cmp.readings[i].how === "beyond") : [];
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
          {x.sense === "max" ? "With at least" : "Within"} {formatFigure(where, x.unit)} {x.unit},{" "}
          {sweeps.map((s, i) => {
            const r = cmp.readings[i];
            const d = cmp.deltas[i];
            const v = cmp.verdicts[i];
            const said =
              v === null
                ? ""
                : verdictText(v, { name: sweeps[0].name, r: cmp.readings[0] }, { name: s.name, r }, y.sense);
            const paren = [d !== null ? pct(d) : "", said].filter(Boolean).join(", ");
            return (
              <span key={i}>
                {i > 0 ? "; " : ""}
                <span style={{ color: s.color }}>■</span> {s.name} gives {value(r, y.unit)}
                {r.how === "beyond" ? "†" : ""}
                {paren ? (
                  <>
                    {" ("}
                    <span data-testid="spread-verdict" data-verdict={v ?? ""}>
                      {paren}
                    </span>
                    {")"}
                  </>
                ) : null}
              </span>
            );
          })}
          .
        </p>
      ) : (
        <p className="mt-2 text-muted">No frontier to read: no run of the sweep has both values.</p>
      )}
      {beyond.length > 0 ? (
        <p className="mt-1 text-xs text-warn">
          † past the measured range of {beyond.map((s) => s.name).join(", ")}: its nearest point is read; the
          sweep did not run there, and may do better.
        </p>
      ) : null}
      <p className="mt-1 text-xs text-muted">
        Each frontier is read as its step: the best {lowerFirst(y.title)} among the points with{" "}
        {lowerFirst(x.title)} {x.sense === "max" ? "at least" : "at most"} this. Repeated runs of one load are
        read at their median; two sweeps are within each other&apos;s spread when the runs&apos; min–max
        ranges overlap.
      </p>
    </div>
  );
}
