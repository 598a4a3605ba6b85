"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useState } from "react";
import { RUNS_PAGE_SIZE, runsSearchParams } from "./search-params";
import { runListInfiniteQueryOptions } from "@/lib/api/query-options";
import { CompareSelectedButton } from "./compare-selected-button";
import { LabelFilter } from "./label-filter";
import { MakeSweepButton } from "./make-sweep-button";
import { SweepsList } from "./sweeps-list";
import { RunsTable } from "./runs-table";

/** Search box, label filter and the runs table, newest first, with "Load more" by cursor. */
export function RunsBrowser() {
  const [{ q, label }, setParams] = useQueryStates(runsSearchParams, { shallow: true, throttleMs: 300 });
  // Ticked runs are a step towards /compare?runs=…, which is where they become URL state.
  const [selected, setSelected] = useState<string[]>([]);
  const query = useInfiniteQuery(
    runListInfiniteQueryOptions({ q: q || undefined, label: label || undefined, limit: RUNS_PAGE_SIZE }),
  );
  const runs = query.data?.pages.flatMap((p) => p.runs) ?? [];
  const knownLabels = [...new Set(runs.flatMap((r) => r.labels))].sort();
  const toggle = (id: string) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <section className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-xl font-semibold">Runs</h1>
        <CompareSelectedButton ids={selected} onClear={() => setSelected([])} />
        {selected.length >= 2 ? <MakeSweepButton ids={selected} /> : null}
        <LabelFilter label={label} known={knownLabels} onChange={(l) => void setParams({ label: l })} />
        <input
          type="search"
          aria-label="Search runs"
          placeholder="Search by name or label"
          className="input w-72"
          defaultValue={q}
          onChange={(e) => void setParams({ q: e.target.value || null })}
        />
      </div>
      <SweepsList />
      {query.isError ? (
        <p className="text-sm text-danger">Could not load runs: {query.error.message}</p>
      ) : null}
      <RunsTable
        runs={runs}
        onLabel={(l) => setParams({ label: l })}
        selected={new Set(selected)}
        onToggle={toggle}
      />
      {runs.length === 0 && !query.isLoading ? (
        <p className="text-sm text-muted">
          {q || label ? "No run matches." : "No runs yet: drop an artifacts folder above."}
        </p>
      ) : null}
      {query.hasNextPage ? (
        <button
          type="button"
          className="btn-ghost"
          disabled={query.isFetchingNextPage}
          onClick={() => query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </section>
  );
}
