"use client";

import { useState } from "react";
import {
  formatSlos,
  parseSlos,
  SLO_METRIC_LABELS,
  SLO_METRICS,
  SLO_MODES,
  type Slo,
  type SloMode,
} from "@/lib/api/slo";

type Row = { mode: SloMode | ""; ms: string };

/** TTFT, TPOT and E2E thresholds, each per request or at a percentile (or off); applied to the URL. */
export function SloForm({ slo, onApply }: { slo: string; onApply: (slo: string) => void }) {
  const current = parseSlos(slo) ?? [];
  const initial = Object.fromEntries(
    SLO_METRICS.map((m) => {
      const s = current.find((c) => c.metric === m);
      return [m, { mode: s?.mode ?? "", ms: s ? String(s.thresholdMs) : "" }];
    }),
  ) as Record<(typeof SLO_METRICS)[number], Row>;
  const [rows, setRows] = useState(initial);
  const slos: Slo[] = SLO_METRICS.flatMap((metric) => {
    const r = rows[metric];
    const ms = Number(r.ms);
    return r.mode && r.ms !== "" && ms > 0 ? [{ metric, mode: r.mode, thresholdMs: ms }] : [];
  });
  return (
    <form
      className="flex flex-wrap items-end gap-4 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(formatSlos(slos));
      }}
    >
      {SLO_METRICS.map((m) => (
        <fieldset key={m} className="flex items-center gap-1">
          <legend className="sr-only">{SLO_METRIC_LABELS[m]} SLO</legend>
          <span className="w-12">{SLO_METRIC_LABELS[m]}</span>
          <select
            className="input py-1"
            aria-label={`${SLO_METRIC_LABELS[m]} SLO mode`}
            value={rows[m].mode}
            onChange={(e) => setRows({ ...rows, [m]: { ...rows[m], mode: e.target.value as SloMode | "" } })}
          >
            <option value="">off</option>
            {SLO_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {mode === "req" ? "per request" : mode}
              </option>
            ))}
          </select>
          <span>≤</span>
          <input
            type="number"
            min={0}
            step="any"
            className="input w-24 py-0.5"
            aria-label={`${SLO_METRIC_LABELS[m]} SLO threshold (ms)`}
            value={rows[m].ms}
            onChange={(e) => setRows({ ...rows, [m]: { ...rows[m], ms: e.target.value } })}
          />
          <span>ms</span>
        </fieldset>
      ))}
      <button type="submit" className="btn">
        Apply SLO
      </button>
    </form>
  );
}
