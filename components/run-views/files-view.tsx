"use client";

import { DataTable } from "@/components/charts/data-table";
import type { RunViewProps } from "@/components/run/run-view-props";
import { KIND_LABELS } from "@/lib/api/kinds";
import { infoLabel, infoValue, type InfoValue } from "@/components/run/run-info";
import { formatBytes, formatCount, properPlurals } from "@/lib/format-number";

type File = RunViewProps["run"]["files"][number];

/** Every uploaded file: detected kind, size, records, skipped lines, warnings, original bytes. */
export function FilesView({ run }: RunViewProps) {
  return (
    <DataTable<File>
      framed
      testId="files-table"
      rows={run.files}
      rowKey={(f) => f.id}
      columns={[
        { header: "File", className: "max-w-sm break-all font-mono text-xs", cell: (f) => f.name },
        {
          header: "Kind",
          className: (f) => (f.kind === "unknown" ? "text-muted" : ""),
          cell: (f) => (
            <>
              <span title={`${f.kind} (${f.format})`}>{KIND_LABELS[f.kind]}</span>
              <FileMeta meta={f.meta} />
            </>
          ),
        },
        { header: "Size", num: true, className: "whitespace-nowrap", cell: (f) => formatBytes(f.bytes) },
        {
          header: "Records",
          num: true,
          className: (f) => (wasRead(f) ? "" : "text-muted"),
          cell: (f) => (wasRead(f) ? formatCount(f.records) : <span title="stored, not read">—</span>),
        },
        {
          header: "Skipped",
          num: true,
          className: (f) => (!wasRead(f) ? "text-muted" : f.skipped > 0 ? "text-warn" : ""),
          cell: (f) => (wasRead(f) ? formatCount(f.skipped) : "—"),
        },
        { header: "Warnings", className: "text-xs", cell: (f) => <Warnings warnings={f.warnings} /> },
        {
          header: null,
          cell: (f) => (
            <a className="btn-ghost" href={`/api/runs/${run.id}/files/${f.id}`} download>
              Download
            </a>
          ),
        },
      ]}
    />
  );
}

/**
 * Whether an analyzer read the file: a file no analyzer knows, or one left unread because another
 * file of the upload holds the same data, has no record count (never shown as 0 records).
 */
const wasRead = (f: File) => f.kind !== "unknown" && f.meta?.notRead !== true;

function Warnings({ warnings }: { warnings: File["warnings"] }) {
  if (warnings.length === 0) return <span className="text-muted">—</span>;
  return (
    <ul className="space-y-0.5">
      {warnings.map((w, i) => (
        <li key={i}>
          {w.line !== undefined ? <span className="text-muted">line {w.line}: </span> : null}
          {properPlurals(w.message)}
        </li>
      ))}
    </ul>
  );
}

function FileMeta({ meta }: { meta?: Record<string, unknown> }) {
  const entries = Object.entries(meta ?? {}).filter(
    ([k, v]) => k !== "notRead" && v !== null && v !== undefined && typeof v !== "object",
  );
  if (entries.length === 0) return null;
  // In words, as the run header writes its info ("lifetime counters: no"), never the stored keys.
  return (
    <div className="text-xs text-muted">
      {entries.map(([k, v]) => `${infoLabel(k)}: ${infoValue(k, v as InfoValue)}`).join(" · ")}
    </div>
  );
}
