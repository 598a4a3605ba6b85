"use client";

import Link from "next/link";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import { runColor } from "./run-colors";

/** The compared runs: colour key, baseline choice and removal, all written to the URL by the parent. */
export function CompareRunList({
  data,
  baseline,
  onBaseline,
  onRemove,
}: {
  data: CompareResponse;
  /** The baseline chosen in the URL, ahead of the data fetched for it */
  baseline: string;
  onBaseline: (id: string) => void;
  onRemove: (id: string) => void;
}) {
  return (
    <ul className="flex flex-wrap gap-2" data-testid="compare-runs">
      {data.runs.map((r, i) => {
        const isBase = r.id === (data.runs.some((x) => x.id === baseline) ? baseline : data.baseline);
        return (
          <li
            key={r.id}
            className={`flex items-center gap-2 rounded-lg border bg-card px-3 py-1.5 text-sm ${isBase ? "border-accent" : "border-border"}`}
          >
            <span
              aria-hidden
              className="inline-block h-3 w-3 rounded-sm"
              style={{ background: runColor(i) }}
            />
            <Link href={`/runs/${r.id}`} className="font-medium text-accent hover:underline">
              {r.name}
            </Link>
            <label className="flex items-center gap-1 text-xs text-muted">
              <input
                type="radio"
                name="baseline"
                checked={isBase}
                onChange={() => onBaseline(r.id)}
                data-testid={`baseline-${r.id}`}
              />
              baseline
            </label>
            <button
              type="button"
              className="text-xs text-muted hover:text-danger"
              aria-label={`Remove ${r.name}`}
              onClick={() => onRemove(r.id)}
            >
              ✕
            </button>
          </li>
        );
      })}
      {data.missing.map((id) => (
        <li key={id} className="rounded-lg border border-border px-3 py-1.5 text-sm text-muted">
          {id}: not found or not ready
        </li>
      ))}
    </ul>
  );
}
