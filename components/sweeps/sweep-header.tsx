"use client";

import { useState } from "react";
import type { Sweep } from "@/lib/api/sweeps";
import { FACT_LABELS, type FactKey } from "@/lib/api/run-facts";
import type { usePatchSweep } from "./use-sweep-mutations";

/** The sweep's name (renamable), the facts its runs share with their sources, and aiperf's own verdict. */
export function SweepHeader({ sweep, patch }: { sweep: Sweep; patch: ReturnType<typeof usePatchSweep> }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(sweep.name);
  const facts = Object.entries(sweep.facts);
  return (
    <div className="mr-auto min-w-0 space-y-1">
      {editing ? (
        <form
          className="flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) patch.mutate({ name: name.trim() }, { onSuccess: () => setEditing(false) });
          }}
        >
          <input
            className="input"
            aria-label="Sweep name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className="btn">
            Save
          </button>
        </form>
      ) : (
        <h1 className="text-xl font-semibold [overflow-wrap:anywhere]">
          {sweep.name}{" "}
          <button type="button" className="btn-ghost text-xs" onClick={() => setEditing(true)}>
            Rename
          </button>
        </h1>
      )}
      <p className="text-sm text-muted">
        Sweep of {sweep.runs.length} run{sweep.runs.length === 1 ? "" : "s"}
        {facts.map(([k, f]) => (
          <span key={k} title={f.source}>
            {" · "}
            {FACT_LABELS[k as FactKey] ?? k} {String(f.value)}
            {f.edited ? " (edited)" : ""}
          </span>
        ))}
      </p>
      {sweep.aiperf ? (
        <p className="text-xs text-muted">
          aiperf&apos;s sweep aggregate: {sweep.aiperf.parameterName}{" "}
          {sweep.aiperf.parameterValues.join(", ")}; Pareto-optimal by its own objectives (request throughput,
          TTFT p99): {sweep.aiperf.paretoOptimal.join(", ") || "none"}.
        </p>
      ) : null}
    </div>
  );
}
