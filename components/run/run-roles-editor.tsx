"use client";

import type { RoleFact, RunFacts } from "@/lib/api/run-facts";

/** One role as the form holds it: text per field, empty = not stated. */
export interface RoleDraft {
  role: string;
  count: string;
  tp: string;
  pp: string;
  ep: string;
  dp: string;
}

const SIZES = [
  ["count", "Workers"],
  ["tp", "TP"],
  ["pp", "PP"],
  ["ep", "EP"],
  ["dp", "DP"],
] as const;

const text = (v: number | null) => (v === null ? "" : String(v));

export function rolesDraft(facts: RunFacts): RoleDraft[] {
  return (facts.roles?.value ?? []).map((r) => ({
    role: r.role,
    count: text(r.count),
    tp: text(r.tp),
    pp: text(r.pp),
    ep: text(r.ep),
    dp: text(r.dp),
  }));
}

const EMPTY_ROLE: RoleDraft = { role: "", count: "", tp: "", pp: "", ep: "", dp: "" };

/**
 * What the rows change: the new list (undefined when unchanged), null to go back to the files'
 * roles (every row removed from edited roles), or a sentence saying what is wrong.
 */
export function rolesPatchFrom(
  facts: RunFacts,
  rows: readonly RoleDraft[],
): RoleFact[] | null | undefined | string {
  const same = JSON.stringify(rows) === JSON.stringify(rolesDraft(facts));
  if (same) return undefined;
  if (rows.length === 0) return facts.roles?.edited ? null : undefined;
  const out: RoleFact[] = [];
  for (const [i, r] of rows.entries()) {
    const role = r.role.trim();
    if (!role) return `Role ${i + 1}: a name (prefill, decode, combined…)`;
    const fact: RoleFact = { role, count: null, tp: null, pp: null, ep: null, dp: null };
    for (const [k, label] of SIZES) {
      const t = r[k].trim();
      if (t === "") continue;
      const n = Number(t);
      if (!Number.isInteger(n) || n <= 0) return `${role} ${label}: a whole number, or empty when not stated`;
      fact[k] = n;
    }
    out.push(fact);
  }
  return out;
}

export function RolesEditor({
  facts,
  rows,
  onChange,
}: {
  facts: RunFacts;
  rows: RoleDraft[];
  onChange: (rows: RoleDraft[]) => void;
}) {
  const set = (i: number, patch: Partial<RoleDraft>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="col-span-full flex flex-col gap-1" data-testid="roles-editor">
      <legend className="text-muted">
        Roles (workers and parallel sizes per role; empty = not stated)
        {facts.roles?.edited ? " (edited; remove every role to restore the files' roles)" : ""}
      </legend>
      {rows.map((r, i) => (
        <div key={i} className="flex flex-wrap items-end gap-2" data-role-row={i}>
          <label className="flex flex-col gap-0.5">
            <span className="text-muted">Role</span>
            <input
              className="input w-28 py-0.5 text-xs"
              value={r.role}
              placeholder="prefill"
              aria-label={`Role ${i + 1} name`}
              onChange={(e) => set(i, { role: e.target.value })}
            />
          </label>
          {SIZES.map(([k, label]) => (
            <label key={k} className="flex flex-col gap-0.5">
              <span className="text-muted">{label}</span>
              <input
                className="input w-16 py-0.5 text-xs"
                inputMode="numeric"
                value={r[k]}
                aria-label={`Role ${i + 1} ${label}`}
                onChange={(e) => set(i, { [k]: e.target.value })}
              />
            </label>
          ))}
          <button
            type="button"
            className="btn-ghost py-0.5 text-xs"
            aria-label={`Remove role ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          className="btn-ghost py-0.5 text-xs"
          disabled={rows.length >= 16}
          onClick={() => onChange([...rows, { ...EMPTY_ROLE }])}
        >
          Add role
        </button>
      </div>
    </fieldset>
  );
}
