"use client";

import { SWEEP_STATS, type SweepStat } from "@/lib/api/sweeps";
import type { ThroughputBasis } from "@/lib/metrics/sweep-chart-rows";

/** The statistic, the per-GPU throughput basis and the log axes: each a URL parameter. */
export function SweepControls({
  stat,
  basis,
  logx,
  logy,
  onChange,
}: {
  stat: SweepStat;
  basis: ThroughputBasis;
  logx: boolean;
  logy: boolean;
  onChange: (p: { stat?: SweepStat; basis?: ThroughputBasis; logx?: boolean; logy?: boolean }) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-4 text-sm" data-testid="sweep-controls">
      <label className="flex items-center gap-2">
        Statistic
        <select
          className="input py-1"
          aria-label="Statistic"
          value={stat}
          onChange={(e) => onChange({ stat: e.target.value as SweepStat })}
        >
          {SWEEP_STATS.map((s) => (
            <option key={s} value={s}>
              {s === "mean" ? "mean" : s}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2">
        Throughput per GPU
        <select
          className="input py-1"
          aria-label="Throughput per GPU"
          value={basis}
          onChange={(e) => onChange({ basis: e.target.value as ThroughputBasis })}
        >
          <option value="output">output tokens</option>
          <option value="total">input + output tokens</option>
        </select>
      </label>
      <label className="flex items-center gap-1">
        <input type="checkbox" checked={logx} onChange={(e) => onChange({ logx: e.target.checked })} />
        log x
      </label>
      <label className="flex items-center gap-1">
        <input type="checkbox" checked={logy} onChange={(e) => onChange({ logy: e.target.checked })} />
        log y
      </label>
    </div>
  );
}
