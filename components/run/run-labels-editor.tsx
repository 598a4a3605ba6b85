"use client";

import Link from "next/link";
import { useState } from "react";
import { runsHref } from "@/components/runs/search-params";
import type { RunSummary } from "@/lib/api/schemas";
import { DraftForm, PatchFeedback } from "./draft-form";
import { usePatchRun } from "./use-patch-run";

/** Labels as links to the filtered runs table, plus add (comma list) and remove, saved with PATCH. */
export function RunLabelsEditor({ run }: { run: RunSummary }) {
  const [adding, setAdding] = useState<string | null>(null);
  const [pending, setPending] = useState<string[] | null>(null);
  const patch = usePatchRun(run.id);
  const send = (labels: string[]) => {
    setPending(labels);
    patch.mutate({ labels }, { onSuccess: () => (setAdding(null), setPending(null)) });
  };
  const add = () => {
    const extra = (adding ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (extra.length === 0) return setAdding(null);
    send([...new Set([...run.labels, ...extra])]);
  };

  return (
    <>
      {run.labels.map((l) => (
        <span key={l} className="inline-flex items-center rounded bg-card ring-1 ring-border">
          <Link href={runsHref({ label: l })} className="px-2 py-0.5">
            {l}
          </Link>
          <button
            type="button"
            aria-label={`Remove label ${l}`}
            className="pr-1.5 text-muted hover:text-danger"
            onClick={() => send(run.labels.filter((x) => x !== l))}
          >
            ×
          </button>
        </span>
      ))}
      {adding === null ? (
        <button type="button" className="btn-ghost py-0.5 text-xs" onClick={() => setAdding("")}>
          + label
        </button>
      ) : (
        <DraftForm
          draft={[adding, setAdding]}
          onSave={add}
          className="inline-flex items-center gap-1"
          input={{
            className: "input w-40 py-0.5 text-xs",
            placeholder: "baseline, h100",
            "aria-label": "New labels, comma separated",
          }}
        >
          <button type="submit" className="btn-ghost py-0.5 text-xs" disabled={patch.isPending}>
            Add
          </button>
        </DraftForm>
      )}
      <PatchFeedback patch={patch} retry={pending ? () => send(pending) : null} />
    </>
  );
}
