"use client";

import { NOISE_BASELINES } from "./search-params";

type Noise = (typeof NOISE_BASELINES)[number];

const LABEL: Record<Noise, string> = {
  "": "the baseline run",
  "last:3": "last 3 of series",
  "last:5": "last 5 of series",
  "last:10": "last 10 of series",
};

/** What the delta table's noise-aware verdicts judge each run against (docs/metrics.md §Regressions). */
export function NoiseBaselinePicker({ noise, onChange }: { noise: Noise; onChange: (n: Noise) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      Verdicts against
      <select
        className="input py-1"
        aria-label="Verdict baseline"
        data-testid="noise-baseline"
        value={noise}
        onChange={(e) => onChange(e.target.value as Noise)}
      >
        {NOISE_BASELINES.map((n) => (
          <option key={n} value={n}>
            {LABEL[n]}
          </option>
        ))}
      </select>
    </label>
  );
}
