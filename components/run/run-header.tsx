import Link from "next/link";
import type { RunSummary } from "@/lib/api/schemas";
import { formatDateTime } from "@/lib/format-number";
import { StatusBadge } from "@/components/runs/status-badge";
import { CollectorsBadges } from "./collectors-badges";
import { CopyLinkButton } from "./copy-link-button";

/** Name, labels, when, collectors, run facts and the share button. */
export function RunHeader({ run }: { run: RunSummary }) {
  const info = Object.entries(run.info).filter(([, v]) => v !== null && v !== "");
  return (
    <header className="space-y-2">
      <div className="flex flex-wrap items-start gap-3">
        <div className="mr-auto min-w-0">
          <h1 className="break-words text-2xl font-semibold" data-testid="run-name">
            {run.name}
            {run.status !== "ready" ? <StatusBadge status={run.status} /> : null}
          </h1>
          <p className="text-sm text-muted">
            Uploaded {formatDateTime(run.createdAt)} · {run.files.length} file{run.files.length === 1 ? "" : "s"}
          </p>
        </div>
        <Link href={`/compare?runs=${run.id}`} className="btn-ghost py-1.5 text-sm">
          Compare…
        </Link>
        <CopyLinkButton />
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        {run.labels.map((l) => (
          <Link key={l} href={`/?label=${encodeURIComponent(l)}`} className="rounded bg-card px-2 py-0.5 ring-1 ring-border">
            {l}
          </Link>
        ))}
        <CollectorsBadges collectors={run.collectors} />
      </div>
      {info.length > 0 ? (
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-xs" data-testid="run-info">
          {info.map(([k, v]) => (
            <div key={k} className="flex gap-1">
              <dt className="text-muted">{humanize(k)}</dt>
              <dd className="font-medium">{String(v)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </header>
  );
}

function humanize(key: string): string {
  return key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
