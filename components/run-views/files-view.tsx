"use client";

import type { RunViewProps } from "@/components/run/run-view-props";
import { KIND_LABELS } from "@/lib/api/kinds";
import { formatBytes, formatCount } from "@/lib/format-number";

/** Every uploaded file: detected kind, size, records, skipped lines, warnings, original bytes. */
export function FilesView({ run }: RunViewProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-card">
      <table className="table-base" data-testid="files-table">
        <thead>
          <tr>
            <th>File</th>
            <th>Kind</th>
            <th className="num">Size</th>
            <th className="num">Records</th>
            <th className="num">Skipped</th>
            <th>Warnings</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {run.files.map((f) => (
            <tr key={f.id}>
              <td className="max-w-sm break-all font-mono text-xs">{f.name}</td>
              <td className={f.kind === "unknown" ? "text-muted" : ""}>
                <span title={`${f.kind} (${f.format})`}>{KIND_LABELS[f.kind]}</span>
                <FileMeta meta={f.meta} />
              </td>
              <td className="num whitespace-nowrap">{formatBytes(f.bytes)}</td>
              <td className="num">{formatCount(f.records)}</td>
              <td className={`num ${f.skipped > 0 ? "text-warn" : ""}`}>{formatCount(f.skipped)}</td>
              <td className="text-xs">
                {f.warnings.length === 0 ? (
                  <span className="text-muted">—</span>
                ) : (
                  <ul className="space-y-0.5">
                    {f.warnings.map((w, i) => (
                      <li key={i}>
                        {w.line !== undefined ? <span className="text-muted">line {w.line}: </span> : null}
                        {w.message}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td>
                <a className="btn-ghost" href={`/api/runs/${run.id}/files/${f.id}`} download>
                  Download
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FileMeta({ meta }: { meta?: Record<string, unknown> }) {
  const entries = Object.entries(meta ?? {}).filter(
    ([, v]) => v !== null && v !== undefined && typeof v !== "object",
  );
  if (entries.length === 0) return null;
  return (
    <div className="text-xs text-muted">{entries.map(([k, v]) => `${k}: ${String(v)}`).join(" · ")}</div>
  );
}
