"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { Suspense } from "react";
import { ChartTransitionScope } from "@/components/charts/chart-pending";
import { ChartSourceProvider } from "@/components/charts/export-context";
import { runQueryOptions } from "@/lib/api/query-options";
import { RunHeader } from "./run-header";
import { RUN_VIEW_COMPONENTS } from "./run-view-components";
import { runSearchParams } from "./search-params";
import { ViewPreview } from "./view-preview";
import { VIEW_PANEL_ID, ViewTabs, viewTabId } from "./view-tabs";

/** The panel's live view, which a browser without JavaScript hides for the preview. */
const LIVE_VIEW_ID = "run-view-live";

export function RunPage({ id }: { id: string }) {
  const { data: run, error } = useQuery(runQueryOptions(id));
  const [view] = useQueryState("view", runSearchParams.view);
  if (error) return <p className="text-danger">Could not load the run: {error.message}</p>;
  if (!run) return <p className="text-muted">Loading…</p>;
  const View = RUN_VIEW_COMPONENTS[view];
  return (
    <ChartTransitionScope>
      <div className="space-y-4">
        <RunHeader run={run} />
        {run.recompute ? (
          <p role="note" data-testid="run-recompute" className="rounded-lg border border-warn/50 p-3 text-sm">
            {run.recompute}
          </p>
        ) : null}
        <ViewTabs run={run} current={view} />
        <div id={VIEW_PANEL_ID} role="tabpanel" aria-labelledby={viewTabId(view)} className="min-w-0">
          {run.status === "ready" ? (
            <>
              {/* Without JavaScript the view's charts never draw, and its streamed part stays
                  hidden or shows "Loading …" lines: the panel shows the view's preview instead. */}
              <noscript>
                <style>{`#${LIVE_VIEW_ID}{display:none}`}</style>
                <p className="mb-4 text-sm text-muted" data-testid="no-javascript">
                  Charts are drawn with JavaScript: these are the figures the server has for this view.
                </p>
                <ViewPreview run={run} view={view} />
              </noscript>
              <div id={LIVE_VIEW_ID}>
                <ChartSourceProvider source={{ name: run.name, filePrefix: run.name }}>
                  {/* A view's code loads with its first visit: meanwhile the panel shows what the
                      summary says of the view, never a bare loading line. */}
                  <Suspense fallback={<ViewPreview run={run} view={view} drawings={false} />}>
                    <View run={run} />
                  </Suspense>
                </ChartSourceProvider>
              </div>
            </>
          ) : run.status === "failed" ? (
            <div role="alert" className="rounded-lg border border-danger p-4 text-sm">
              <p className="font-medium text-danger">This run failed to ingest.</p>
              <p className="text-muted">{run.error ?? "Its raw files are kept; re-ingest to try again."}</p>
            </div>
          ) : (
            <p className="text-sm text-muted">This run is still being ingested.</p>
          )}
        </div>
      </div>
    </ChartTransitionScope>
  );
}
