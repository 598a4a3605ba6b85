import Link from "next/link";
import type { RunListItem } from "@/lib/api/schemas";
import { KIND_LABELS, type Kind } from "@/lib/api/kinds";
import { runHref } from "@/components/run/search-params";
import { formatCount, formatDateTime } from "@/lib/format-number";
import { formatNumber } from "@/lib/format-number";
import type { RunSort } from "@/lib/api/schemas";
import { SortHeader, type SortState } from "./sort-header";
import { StatusBadge } from "./status-badge";

/** The run's inputs, by kind, in one line of text. */
const contents = (r: RunListItem) => r.kinds.map((k) => KIND_LABELS[k as Kind] ?? k).join(", ");

/** The run-fact columns: sortable, headed by `label`, each cell the fact or a dash. */
const FACT_COLUMNS: ReadonlyArray<{
  key: "model" | "gpuModel" | "gpuCount" | "concurrency" | "backend";
  label: string;
  numeric?: boolean;
  className: string;
}> = [
  { key: "model", label: "Model", className: "min-w-[6rem] max-w-[10rem] text-xs [overflow-wrap:anywhere]" },
  { key: "gpuModel", label: "Hardware", className: "min-w-[5rem] max-w-[8rem] text-xs" },
  { key: "gpuCount", label: "GPUs", numeric: true, className: "num" },
  { key: "concurrency", label: "Concurrency", numeric: true, className: "num" },
  { key: "backend", label: "Backend", className: "min-w-[5rem] max-w-[8rem] text-xs" },
];

export function RunsTable({
  runs,
  onLabel,
  selected,
  onToggle,
  sort,
  onSort,
}: {
  runs: RunListItem[];
  onLabel: (label: string) => void;
  /** Run ids ticked for "Compare selected" */
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  sort: SortState;
  onSort: (column: RunSort, dir: "asc" | "desc") => void;
}) {
  if (runs.length === 0) return null;
  const header = { sort, onSort };
  const fact = (v: string | number | null) =>
    v === null ? <span className="text-muted">—</span> : typeof v === "number" ? formatNumber(v, 3) : v;
  return (
    // Fits 1,440 px with every column (the right-hand ones were cut): tighter cells, the upload
    // time on two lines, long names and the contents list wrapped in bounded columns. On a phone
    // it scrolls inside its box; labels sit side by side, not one per line.
    <div className="overflow-x-auto rounded-lg border border-border bg-card">
      <table className="table-base table-compact" data-testid="runs-table">
        <thead>
          <tr>
            <th className="w-8">
              <span className="sr-only">Compare</span>
            </th>
            <th>Name</th>
            <SortHeader column="created" label="Uploaded" {...header} />
            <th>Labels</th>
            {FACT_COLUMNS.map((c) => (
              <SortHeader key={c.key} column={c.key} label={c.label} numeric={c.numeric} {...header} />
            ))}
            <th>Contents</th>
            <th className="num">Requests</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${r.name} to compare`}
                  data-testid={`select-${r.id}`}
                  checked={selected.has(r.id)}
                  disabled={r.status !== "ready"}
                  onChange={() => onToggle(r.id)}
                />
              </td>
              <td className="min-w-[15rem] max-w-[16rem] [overflow-wrap:anywhere]">
                <Link href={runHref(r.id)} className="font-medium text-accent hover:underline">
                  {r.name}
                </Link>
                {r.status !== "ready" ? <StatusBadge status={r.status} /> : null}
              </td>
              <td className="min-w-[5.5rem] text-xs text-muted">{formatDateTime(r.createdAt)}</td>
              <td className={r.labels.length > 0 ? "min-w-[7rem]" : undefined}>
                <div className="flex flex-wrap gap-1">
                  {r.labels.map((l) => (
                    <button
                      key={l}
                      type="button"
                      className="rounded bg-bg px-1.5 py-0.5 text-xs hover:underline"
                      onClick={() => onLabel(l)}
                    >
                      {l}
                    </button>
                  ))}
                </div>
              </td>
              {FACT_COLUMNS.map((c) => (
                <td key={c.key} className={c.className} data-col={c.key}>
                  {fact(r[c.key])}
                </td>
              ))}
              <td className="min-w-[9rem] max-w-[14rem] text-xs text-muted">
                <span className="line-clamp-2" title={contents(r)}>
                  {contents(r)}
                </span>
              </td>
              <td className="num">{r.requestCount === null ? "—" : formatCount(r.requestCount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
