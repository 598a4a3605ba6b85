"use client";

import Link from "next/link";
import { useState } from "react";
import { seriesHref } from "@/components/series/search-params";
import type { RunSummary } from "@/lib/api/schemas";
import type { SeriesFields } from "@/lib/api/series-fields";
import { PatchFeedback } from "./draft-form";
import { usePatchRun } from "./use-patch-run";

const FIELDS = [
  { key: "series", label: "Series", placeholder: "e.g. nightly/llama-70b/h100/c64", width: "w-64" },
  { key: "commit", label: "Commit", placeholder: "e.g. abc1234", width: "w-28" },
  { key: "branch", label: "Branch", placeholder: "e.g. main", width: "w-28" },
  { key: "order", label: "Order", placeholder: "1234, v1.2.0 or 2026-12-01", width: "w-48" },
] as const;
type Key = (typeof FIELDS)[number]["key"];

/**
 * The run's place in its series ("run 12 of 30 in nightly/…", linking to the series page), its
 * commit, branch and order key, and a form editing them with PATCH (an emptied field clears it).
 */
export function RunSeries({ run }: { run: RunSummary }) {
  const [draft, setDraft] = useState<Record<Key, string> | null>(null);
  const patch = usePatchRun(run.id);
  const stored: Record<Key, string> = {
    series: run.series ?? "",
    commit: run.commit ?? "",
    branch: run.branch ?? "",
    order: run.order ?? "",
  };
  const save = () => {
    if (!draft) return;
    const changed: SeriesFields = {};
    for (const { key } of FIELDS)
      if (draft[key].trim() !== stored[key]) changed[key] = draft[key].trim() || null;
    if (Object.keys(changed).length === 0) return setDraft(null);
    patch.mutate(changed, { onSuccess: () => setDraft(null) });
  };

  if (draft !== null)
    return (
      <form
        className="flex flex-wrap items-end gap-2 text-xs"
        aria-label="Series fields"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
        onKeyDown={(e) => e.key === "Escape" && setDraft(null)}
      >
        {FIELDS.map((f) => (
          <label key={f.key} className="flex flex-col gap-0.5">
            <span className="text-muted">{f.label}</span>
            <input
              className={`input py-0.5 text-xs ${f.width}`}
              value={draft[f.key]}
              placeholder={f.placeholder}
              onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
            />
          </label>
        ))}
        <button type="submit" className="btn py-0.5 text-xs" disabled={patch.isPending}>
          Save
        </button>
        <button type="button" className="btn-ghost py-0.5 text-xs" onClick={() => setDraft(null)}>
          Cancel
        </button>
        <PatchFeedback patch={patch} retry={save} />
      </form>
    );
  const pos = run.seriesPosition;
  const extras = [
    run.commit ? `commit ${run.commit}` : null,
    run.branch ? `branch ${run.branch}` : null,
    run.order ? `order ${run.order}` : null,
  ].filter((x) => x !== null);
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm" data-testid="run-series">
      {run.series ? (
        <span>
          {pos ? `Run ${pos.at} of ${pos.of} in ` : "In "}
          <Link href={seriesHref(run.series)} className="font-mono text-accent hover:underline">
            {run.series}
          </Link>
        </span>
      ) : (
        <span className="text-muted">In no series</span>
      )}
      {extras.length > 0 ? <span className="font-mono text-xs text-muted">{extras.join(" · ")}</span> : null}
      <button type="button" className="btn-ghost py-0.5 text-xs" onClick={() => setDraft(stored)}>
        {run.series ? "Edit series" : "Add to a series"}
      </button>
    </p>
  );
}
