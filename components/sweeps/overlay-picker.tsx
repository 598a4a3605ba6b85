"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { paletteColor } from "@/components/charts/chart-theme";
import { sweepListQueryOptions } from "@/lib/api/sweep-query-options";
import { MAX_OVERLAID_SWEEPS, type Sweep, type SweepRun } from "@/lib/api/sweeps";

/** Adds or drops overlaid sweeps (up to eight in all) and marks one run by its id. */
export function OverlayPicker({
  id,
  overlaid,
  markedRun,
  markedError,
  onOverlay,
  onMark,
}: {
  id: string;
  overlaid: Sweep[];
  markedRun: SweepRun | null;
  markedError: string | null;
  onOverlay: (ids: string[]) => void;
  onMark: (runId: string) => void;
}) {
  const list = useQuery(sweepListQueryOptions());
  const [runId, setRunId] = useState("");
  const others = overlaid.slice(1).map((s) => s.id);
  const candidates = (list.data?.sweeps ?? []).filter((s) => s.id !== id && !others.includes(s.id));
  const full = overlaid.length >= MAX_OVERLAID_SWEEPS;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="overlay-picker">
      {overlaid.map((s, i) => (
        <span
          key={s.id}
          className="flex min-w-0 max-w-full items-center gap-1 rounded border border-border px-2 py-0.5"
          title={s.name}
        >
          <span aria-hidden style={{ color: paletteColor(i) }}>
            ●
          </span>
          <span className="min-w-0 truncate">{s.name}</span>
          {i > 0 ? (
            <button
              type="button"
              className="btn-ghost px-1 text-xs"
              aria-label={`Remove ${s.name} from the overlay`}
              onClick={() => onOverlay(others.filter((o) => o !== s.id))}
            >
              ×
            </button>
          ) : null}
        </span>
      ))}
      {candidates.length > 0 && !full ? (
        <select
          // As wide as its longest sweep name at most the row: a long name widened a phone's page.
          className="input max-w-full py-1"
          aria-label="Overlay a sweep"
          value=""
          onChange={(e) => e.target.value && onOverlay([...others, e.target.value])}
        >
          <option value="">Overlay a sweep…</option>
          {candidates.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.runCount} runs)
            </option>
          ))}
        </select>
      ) : full ? (
        <span className="text-muted">{MAX_OVERLAID_SWEEPS} sweeps at most</span>
      ) : null}
      <form
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          onMark(runId.trim());
        }}
      >
        <input
          className="input w-56 py-0.5"
          aria-label="Mark a run by id"
          placeholder="Mark a run (run id)"
          value={runId}
          onChange={(e) => setRunId(e.target.value)}
        />
        <button type="submit" className="btn-ghost text-xs">
          Mark
        </button>
      </form>
      {markedRun ? (
        <span className="flex items-center gap-1">
          ★ {markedRun.name}
          <button
            type="button"
            className="btn-ghost px-1 text-xs"
            aria-label="Unmark the run"
            onClick={() => onMark("")}
          >
            ×
          </button>
        </span>
      ) : null}
      {markedError ? <span className="text-danger">Marked run: {markedError}</span> : null}
    </div>
  );
}
