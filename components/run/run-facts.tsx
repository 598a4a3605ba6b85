"use client";

import { useState } from "react";
import {
  FACT_KEYS,
  FACT_LABELS,
  type FactKey,
  type FactsPatch,
  type RoleFact,
  type RunFacts,
} from "@/lib/api/run-facts";
import type { RunSummary } from "@/lib/api/schemas";
import { formatNumber } from "@/lib/format-number";
import { PatchFeedback } from "./draft-form";
import { RolesEditor, rolesDraft, rolesPatchFrom, type RoleDraft } from "./run-roles-editor";
import { usePatchRun } from "./use-patch-run";

export const FACT_EDITOR_ID = "run-facts-editor";

/** Opens the fact editor in the run header and puts the cursor in one fact's field. */
export function openFactEditor(key: FactKey): void {
  const editor = document.getElementById(FACT_EDITOR_ID);
  if (editor instanceof HTMLDetailsElement) editor.open = true;
  editor?.scrollIntoView({ block: "nearest" });
  document.getElementById(`fact-input-${key}`)?.focus();
}

function roleText(r: RoleFact): string {
  const sizes = (["tp", "pp", "ep", "dp"] as const)
    .filter((k) => r[k] !== null)
    .map((k) => `${k.toUpperCase()} ${r[k]}`);
  return `${r.role}${r.count !== null ? ` ×${r.count}` : ""}${sizes.length ? ` (${sizes.join(" · ")})` : ""}`;
}

export function factText(facts: RunFacts, key: FactKey): string | null {
  const f = facts[key];
  if (!f) return null;
  if (key === "roles") return (f.value as RoleFact[]).map(roleText).join(", ");
  if (typeof f.value !== "number") return String(f.value);
  if (key === "requestRate") return `${formatNumber(f.value, 3)} req/s`;
  if (key === "isl" || key === "osl") return `${formatNumber(f.value, 1)} tokens`;
  return formatNumber(f.value, 3);
}

/** Every known fact with its source on hover (and in the accessible name), edited ones marked. */
export function RunFactsList({ facts }: { facts: RunFacts }) {
  const known = FACT_KEYS.filter((k) => facts[k] !== null);
  if (known.length === 0) return <p className="text-xs text-muted">No run facts in the uploaded files.</p>;
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 text-xs" data-testid="run-facts">
      {known.map((k) => {
        const f = facts[k]!;
        return (
          <div key={k} className="flex gap-1" title={`Source: ${f.source}`} data-fact={k}>
            <dt className="text-muted">{FACT_LABELS[k]}</dt>
            <dd className="font-medium">
              {factText(facts, k)}
              <span className="sr-only"> (source: {f.source})</span>
              {f.edited ? (
                <span className="ml-1 rounded bg-border px-1 text-[10px] text-muted">edited</span>
              ) : null}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** The one-line facts; roles, a list of records, have their own rows (./run-roles-editor.tsx). */
const EDITABLE = FACT_KEYS.filter((k): k is Exclude<FactKey, "roles"> => k !== "roles");
const NUMERIC = new Set<FactKey>(["gpuCount", "concurrency", "requestRate", "isl", "osl"]);

function initial(facts: RunFacts): Record<string, string> {
  return Object.fromEntries(EDITABLE.map((k) => [k, facts[k] ? String(facts[k]!.value) : ""]));
}

/** What the form changed: a new value sets the fact, an emptied edited fact goes back to the files' value. */
export function factsPatchFrom(facts: RunFacts, draft: Record<string, string>): FactsPatch | string {
  const patch: Record<string, unknown> = {};
  for (const k of EDITABLE) {
    const text = (draft[k] ?? "").trim();
    const current = facts[k];
    if (text === (current ? String(current.value) : "")) continue;
    if (text === "") {
      if (current?.edited) patch[k] = null;
      continue;
    }
    if (!NUMERIC.has(k)) {
      patch[k] = text;
      continue;
    }
    const n = Number(text.replace(/,/g, ""));
    if (!Number.isFinite(n) || n <= 0 || (k === "gpuCount" && !Number.isInteger(n)))
      return `${FACT_LABELS[k]}: ${k === "gpuCount" ? "a whole number of GPUs" : "a positive number"}`;
    patch[k] = n;
  }
  return patch as FactsPatch;
}

export function RunFactsEditor({ run }: { run: RunSummary }) {
  const [draft, setDraft] = useState(() => initial(run.facts));
  const [roles, setRoles] = useState<RoleDraft[]>(() => rolesDraft(run.facts));
  const [invalid, setInvalid] = useState<string | null>(null);
  const patch = usePatchRun(run.id);
  const reset = (facts: RunFacts) => {
    setDraft(initial(facts));
    setRoles(rolesDraft(facts));
  };
  const save = () => {
    const p = factsPatchFrom(run.facts, draft);
    if (typeof p === "string") return setInvalid(p);
    const r = rolesPatchFrom(run.facts, roles);
    if (typeof r === "string") return setInvalid(r);
    setInvalid(null);
    const facts: FactsPatch = r === undefined ? p : { ...p, roles: r };
    if (Object.keys(facts).length === 0) return;
    patch.mutate({ facts }, { onSuccess: (next) => reset(next.facts) });
  };
  return (
    <details id={FACT_EDITOR_ID} className="text-xs" onToggle={() => reset(run.facts)}>
      <summary className="cursor-pointer text-muted">Edit run facts</summary>
      <form
        className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        {EDITABLE.map((k) => (
          <label key={k} className="flex flex-col gap-0.5">
            <span className="text-muted">
              {FACT_LABELS[k]}
              {run.facts[k]?.edited ? " (edited; empty it to restore the files' value)" : ""}
            </span>
            <input
              id={`fact-input-${k}`}
              className="input py-0.5 text-xs"
              inputMode={NUMERIC.has(k) ? "decimal" : undefined}
              value={draft[k] ?? ""}
              placeholder={run.facts[k] ? "" : "unknown"}
              onChange={(e) => setDraft({ ...draft, [k]: e.target.value })}
            />
          </label>
        ))}
        <RolesEditor facts={run.facts} rows={roles} onChange={setRoles} />
        <div className="col-span-full flex items-center gap-2">
          <button type="submit" className="btn-ghost py-0.5 text-xs" disabled={patch.isPending}>
            Save facts
          </button>
          {invalid ? <span className="text-danger">{invalid}</span> : null}
          <PatchFeedback patch={patch} retry={save} />
        </div>
      </form>
    </details>
  );
}
