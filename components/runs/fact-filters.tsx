"use client";

import type { RunsUrlState } from "./search-params";

type Filters = Pick<RunsUrlState, "model" | "gpu" | "backend" | "gpus" | "concurrency">;

const TEXT = [
  ["model", "Model", "Qwen"],
  ["gpu", "Hardware", "H100"],
  ["backend", "Backend", "vllm"],
] as const;
const NUMBERS = [
  ["gpus", "GPUs", "8"],
  ["concurrency", "Concurrency", "64"],
] as const;

/** The run-fact filters of the runs table: text matches a part of the value, numbers match exactly. */
export function FactFilters({
  value,
  onChange,
}: {
  value: Filters;
  onChange: (patch: Partial<Filters>) => void;
}) {
  return (
    <div className="flex flex-wrap items-end gap-2 text-xs" data-testid="fact-filters">
      {TEXT.map(([key, label, example]) => (
        <label key={key} className="flex flex-col gap-0.5">
          <span className="text-muted">{label}</span>
          <input
            type="search"
            className="input w-32 py-0.5 text-xs"
            aria-label={`Filter by ${label.toLowerCase()}`}
            placeholder={example}
            defaultValue={value[key]}
            onChange={(e) => onChange({ [key]: e.target.value })}
          />
        </label>
      ))}
      {NUMBERS.map(([key, label, example]) => (
        <label key={key} className="flex flex-col gap-0.5">
          <span className="text-muted">{label}</span>
          <input
            type="number"
            min={1}
            className="input w-20 py-0.5 text-xs"
            aria-label={`Filter by ${label.toLowerCase()}`}
            placeholder={example}
            defaultValue={value[key] ?? ""}
            onChange={(e) => {
              const n = Number(e.target.value);
              onChange({ [key]: e.target.value !== "" && Number.isFinite(n) && n > 0 ? n : null });
            }}
          />
        </label>
      ))}
    </div>
  );
}
