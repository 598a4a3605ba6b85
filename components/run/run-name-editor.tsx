"use client";

import { useState } from "react";
import type { RunSummary } from "@/lib/api/schemas";
import { StatusBadge } from "@/components/runs/status-badge";
import { DraftForm, PatchFeedback } from "./draft-form";
import { usePatchRun } from "./use-patch-run";

/** The run's name as the page title; "Rename" turns it into a field saved with PATCH. */
export function RunNameEditor({ run }: { run: RunSummary }) {
  const [draft, setDraft] = useState<string | null>(null);
  const patch = usePatchRun(run.id);
  const save = () => {
    const name = draft?.trim();
    if (!name || name === run.name) return setDraft(null);
    patch.mutate({ name }, { onSuccess: () => setDraft(null) });
  };

  if (draft === null)
    return (
      <h1 className="break-words text-xl font-semibold sm:text-2xl" data-testid="run-name">
        {run.name}
        {run.status !== "ready" ? <StatusBadge status={run.status} /> : null}
        <button
          type="button"
          className="btn-ghost ml-2 align-middle text-xs font-normal"
          onClick={() => setDraft(run.name)}
        >
          Rename
        </button>
      </h1>
    );
  return (
    <div className="space-y-1">
      <DraftForm
        draft={[draft, setDraft]}
        onSave={save}
        className="flex items-center gap-2"
        input={{ className: "input text-lg", maxLength: 200, "aria-label": "Run name" }}
      >
        <button type="submit" className="btn" disabled={patch.isPending}>
          Save
        </button>
        <button type="button" className="btn-ghost" onClick={() => setDraft(null)}>
          Cancel
        </button>
      </DraftForm>
      <PatchFeedback patch={patch} retry={save} />
    </div>
  );
}
