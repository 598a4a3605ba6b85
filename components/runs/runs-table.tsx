import Link from "next/link";
import type { RunListItem } from "@/lib/api/schemas";
import { KIND_LABELS, type Kind } from "@/lib/api/kinds";
import { runHref } from "@/components/run/search-params";
import { formatCount, formatDateTime } from "@/lib/format-number";
import { StatusBadge } from "./status-badge";

export function RunsTable({
  runs,
  onLabel,
  selected,
  onToggle,
}: {
  runs: RunListItem[];
  onLabel: (label: string) => void;
  /** Run ids ticked for "Compare selected" */
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  if (runs.length === 0) return null;
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-card">
      <table className="table-base" data-testid="runs-table">
        <thead>
          <tr>
            <th className="w-8">
              <span className="sr-only">Compare</span>
            </th>
            <th>Name</th>
            <th>Uploaded</th>
            <th>Labels</th>
            <th>Contents</th>
            <th>Backend</th>
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
              <td className="text-xs text-muted">
                {r.kinds.map((k) => KIND_LABELS[k as Kind] ?? k).join(", ")}
              </td>
              <td className="text-xs">{r.backend ?? "—"}</td>
              <td className="num">{r.requestCount === null ? "—" : formatCount(r.requestCount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
