"use client";

import type { RunSort } from "@/lib/api/schemas";

export interface SortState {
  column: RunSort;
  dir: "asc" | "desc" | null;
}

/** The direction a column sorts in when it is not given: newest first, facts A→Z / small→large. */
export const defaultDir = (column: RunSort) => (column === "created" ? "desc" : "asc");

/** A column header that sorts the runs by it; a second click reverses the direction. */
export function SortHeader({
  column,
  label,
  sort,
  onSort,
  numeric,
}: {
  column: RunSort;
  label: string;
  sort: SortState;
  onSort: (column: RunSort, dir: "asc" | "desc") => void;
  numeric?: boolean;
}) {
  const active = sort.column === column;
  const dir = active ? (sort.dir ?? defaultDir(column)) : null;
  const next = active ? (dir === "asc" ? "desc" : "asc") : defaultDir(column);
  return (
    <th
      className={numeric ? "num" : undefined}
      aria-sort={dir === null ? "none" : dir === "asc" ? "ascending" : "descending"}
    >
      <button
        type="button"
        className="inline-flex items-center gap-1 hover:underline"
        data-testid={`sort-${column}`}
        onClick={() => onSort(column, next)}
      >
        {label}
        <span aria-hidden className="text-muted">
          {dir === "asc" ? "▲" : dir === "desc" ? "▼" : "↕"}
        </span>
      </button>
    </th>
  );
}
