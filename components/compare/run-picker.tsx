"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { MAX_COMPARED_RUNS } from "@/lib/api/compare-schemas";
import { runListQueryOptions } from "@/lib/api/query-options";
import type { RunListItem } from "@/lib/api/schemas";
import { formatCount } from "@/lib/format-number";

/** Runs the picker lists per search: enough to find one, short enough to scan. */
const PICKER_LIMIT = 30;
/** Typing waits this long before it searches, so a name is not fetched letter by letter. */
const SEARCH_DELAY_MS = 250;

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * The compare page's own way in: search the runs (by name or label, as the runs list does) and tick
 * the ones to compare. Each tick is a change of the compared runs, which the page writes to the
 * URL as a new history entry. With runs already chosen it folds away under a summary line.
 */
export function RunPicker({ chosen, onChange }: { chosen: string[]; onChange: (ids: string[]) => void }) {
  const body = <PickerBody chosen={chosen} onChange={onChange} />;
  if (chosen.length === 0)
    return (
      <section className="space-y-2 rounded-lg border border-border bg-card p-3" data-testid="run-picker">
        <h2 className="text-sm font-semibold">Choose runs to compare</h2>
        {body}
      </section>
    );
  return (
    <details className="rounded-lg border border-border bg-card px-3 py-2" data-testid="run-picker">
      <summary className="cursor-pointer text-sm font-medium">
        Add or remove runs ({chosen.length} of at most {MAX_COMPARED_RUNS} chosen)
      </summary>
      <div className="mt-2">{body}</div>
    </details>
  );
}

function PickerBody({ chosen, onChange }: { chosen: string[]; onChange: (ids: string[]) => void }) {
  const [text, setText] = useState("");
  const q = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const list = useQuery(runListQueryOptions({ q: q || undefined, limit: PICKER_LIMIT }));
  const runs = list.data?.runs ?? [];
  const full = chosen.length >= MAX_COMPARED_RUNS;
  const toggle = (id: string) =>
    onChange(chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id]);
  return (
    <div className="space-y-2">
      <input
        type="search"
        aria-label="Search runs to compare"
        placeholder="Search by name or label"
        className="input w-full sm:w-80"
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid="run-picker-search"
      />
      {list.isError ? <p className="text-sm text-danger">Could not load runs: {list.error.message}</p> : null}
      {runs.length > 0 ? (
        <ul className="max-h-72 divide-y divide-border overflow-y-auto rounded border border-border">
          {runs.map((r) => (
            <PickerRow
              key={r.id}
              run={r}
              checked={chosen.includes(r.id)}
              disabled={r.status !== "ready" || (full && !chosen.includes(r.id))}
              onToggle={() => toggle(r.id)}
            />
          ))}
        </ul>
      ) : list.isLoading ? (
        <p className="text-sm text-muted">Loading runs…</p>
      ) : (
        <p className="text-sm text-muted">
          {q ? `No run matches “${q}”.` : "No runs yet: upload one first."}
        </p>
      )}
      {full ? (
        <p className="text-xs text-muted">
          {MAX_COMPARED_RUNS} runs is the most one comparison holds; remove one to add another.
        </p>
      ) : null}
    </div>
  );
}

function PickerRow({
  run,
  checked,
  disabled,
  onToggle,
}: {
  run: RunListItem;
  checked: boolean;
  disabled: boolean;
  onToggle: () => void;
}) {
  const facts = [
    run.backend,
    run.requestCount === null
      ? null
      : `${formatCount(run.requestCount)} request${run.requestCount === 1 ? "" : "s"}`,
    run.status === "ready" ? null : run.status,
  ].filter(Boolean);
  return (
    <li>
      <label
        className={`flex items-center gap-2 px-2 py-1.5 text-sm ${disabled ? "opacity-60" : "cursor-pointer hover:bg-bg"}`}
      >
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={onToggle}
          data-testid={`pick-${run.id}`}
        />
        {/* Whole on a phone, where there is no hover; one line from sm up, the full name on hover. */}
        <span className="min-w-0 flex-1 break-words sm:truncate" title={run.name}>
          {run.name}
        </span>
        {facts.length > 0 ? <span className="shrink-0 text-xs text-muted">{facts.join(" · ")}</span> : null}
      </label>
    </li>
  );
}
