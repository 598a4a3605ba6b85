import Link from "next/link";
import type { RunListItem } from "@/lib/api/schemas";
import { KIND_LABELS, type Kind } from "@/lib/api/kinds";
import { runHref } from "@/components/run/search-params";
import { formatCount, formatDateTime } from "@/lib/format-number";
import { formatNumber } from "@/lib/format-number";
import type { RunSort } from "@/lib/api/schemas";
import { SortHeader, type SortState } from "./sort-header";
import { StatusBadge } from "./status-badge";

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
    <div className="overflow-x-auto rounded-lg border border-border bg-card">
      <table className="table-base" data-testid="runs-table">
        <thead>
          <tr>
            <th className="w-8">
              <span className="sr-only">Compare</span>
            </th>
            <th>Name</th>
            <SortHeader column="created" label="Uploaded" {...header} />
            <th>Labels</th>
            <SortHeader column="model" label="Model" {...header} />
            <SortHeader column="gpuModel" label="Hardware" {...header} />
            <SortHeader column="gpuCount" label="GPUs" numeric {...header} />
            <SortHeader column="concurrency" label="Concurrency" numeric {...header} />
            <SortHeader column="backend" label="Backend" {...header} />
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
              <td className="max-w-xs">
                <Link href={runHref(r.id)} className="font-medium text-accent hover:underline">
                  {r.name}
                </Link>
                {r.status !== "ready" ? <StatusBadge status={r.status} /> : null}
              </td>
              <td className="whitespace-nowrap text-muted">{formatDateTime(r.createdAt)}</td>
              <td>
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
              <td className="max-w-[12rem] break-words text-xs" data-col="model">
                {fact(r.model)}
              </td>
              <td className="text-xs" data-col="gpuModel">
                {fact(r.gpuModel)}
              </td>
              <td className="num" data-col="gpuCount">
                {fact(r.gpuCount)}
              </td>
              <td className="num" data-col="concurrency">
                {fact(r.concurrency)}
              </td>
              <td className="text-xs" data-col="backend">
                {fact(r.backend)}
              </td>
              <td className="text-xs text-muted">
                {r.kinds.map((k) => KIND_LABELS[k as Kind] ?? k).join(", ")}
              </td>
              <td className="num">{r.requestCount === null ? "—" : formatCount(r.requestCount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
