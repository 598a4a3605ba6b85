import type { RunSummary } from "@/lib/api/schemas";
import { formatDateTime } from "@/lib/format-number";
import { AddToCompare } from "./add-to-compare";
import { CollectorsBadges } from "./collectors-badges";
import { CopyLinkButton } from "./copy-link-button";
import { ExportLinks } from "./export-links";
import { RunFactsEditor, RunFactsList } from "./run-facts";
import { RunLabelsEditor } from "./run-labels-editor";
import { headerInfo, infoLabel, infoSources, infoTitle, infoValue } from "./run-info";
import { RunNameEditor } from "./run-name-editor";
import { RunSeries } from "./run-series";

/** Info entries the run facts show, with their sources, when they are known. */
const SHOWN_AS_FACTS = new Set(["model", "concurrency", "requestRate"]);

/** Name (renamable), its series (editable), labels (editable), when, collectors, run facts, compare, export and share buttons. */
export function RunHeader({ run }: { run: RunSummary }) {
  const info = headerInfo(run.info, (k) => SHOWN_AS_FACTS.has(k) && Boolean(run.facts[k as "model"]));
  const sources = infoSources(run.info, info);
  return (
    <header className="space-y-2">
      {/* The name grows into the room the buttons leave and wraps there: a long name no longer
          pushes Copy link onto a line of its own. Under 20rem of room (a phone) the buttons go
          below the name. */}
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-[1_1_20rem]">
          <RunNameEditor run={run} />
          <p className="text-sm text-muted">
            Uploaded {formatDateTime(run.createdAt)} · {run.files.length} file
            {run.files.length === 1 ? "" : "s"}
          </p>
          {run.series ? <RunSeries key={run.id} run={run} /> : null}
        </div>
        <div className="flex flex-wrap items-start gap-3">
          <AddToCompare runId={run.id} />
          <ExportLinks run={run} />
          <CopyLinkButton />
        </div>
      </div>
      {/* On a phone the labels, collectors and facts fold away behind one line, so the tabs and
          the first chart fit on the first screen; from the sm breakpoint they are always shown. */}
      <details className="unfold-sm space-y-2">
        <summary className="cursor-pointer text-xs text-muted">
          Labels, series, collectors and run facts
        </summary>
        {/* A run in no series offers to join one among the other editable details. */}
        {run.series ? null : <RunSeries key={run.id} run={run} />}
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <RunLabelsEditor run={run} />
          <CollectorsBadges run={run} />
        </div>
        <RunFactsList facts={run.facts} />
        <RunFactsEditor key={run.id} run={run} />
        {info.length > 0 ? (
          <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-xs" data-testid="run-info">
            {/* Where an entry was read from (the producer's field path) is its tooltip, as a run
                fact's source is, and read out to a screen reader, not written on the page. */}
            {info.map(([k, v]) => {
              const source = sources.get(k);
              return (
                <div
                  key={k}
                  className="flex gap-1"
                  title={source ? `Source: ${source}` : (infoTitle(k, v) ?? undefined)}
                  data-info={k}
                >
                  <dt className="text-muted">{infoLabel(k)}</dt>
                  <dd className="font-medium">
                    {infoValue(k, v)}
                    {source ? <span className="sr-only"> (source: {source})</span> : null}
                  </dd>
                </div>
              );
            })}
          </dl>
        ) : null}
      </details>
    </header>
  );
}
