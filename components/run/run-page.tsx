"use client";

import { useQuery } from "@tanstack/react-query";
import { parseAsString, useQueryState } from "nuqs";
import { runQueryOptions } from "@/lib/api/query-options";
import { RunHeader } from "./run-header";
import { DEFAULT_VIEW, RUN_VIEWS } from "./run-views";
import { ViewTabs } from "./view-tabs";

export function RunPage({ id }: { id: string }) {
  const { data: run, error } = useQuery(runQueryOptions(id));
  const [view] = useQueryState("view", parseAsString.withDefault(DEFAULT_VIEW));
  if (error) return <p className="text-danger">Could not load the run: {error.message}</p>;
  if (!run) return <p className="text-muted">Loading…</p>;
  const current = RUN_VIEWS.find((v) => v.id === view) ?? RUN_VIEWS[0];
  return (
    <div className="space-y-4">
      <RunHeader run={run} />
      <ViewTabs run={run} current={current.id} />
      {run.status === "ready" ? (
        <current.Component run={run} />
      ) : run.status === "failed" ? (
        <div role="alert" className="rounded-lg border border-danger p-4 text-sm">
          <p className="font-medium text-danger">This run failed to ingest.</p>
          <p className="text-muted">{run.error ?? "Its raw files are kept; re-ingest to try again."}</p>
        </div>
      ) : (
        <p className="text-sm text-muted">This run is still being ingested.</p>
      )}
    </div>
  );
}
