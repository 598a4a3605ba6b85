import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { RunPage } from "@/components/run/run-page";
import { TimelineSeed } from "@/components/timeline/timeline-seed";
import { StillFigures } from "@/components/run/still-figures";
import { latencyLabel } from "@/components/aiperf/latency-metric";
import { runSearchParamsCache } from "@/components/run/search-params";
import { getQueryClient } from "@/lib/api/query-client";
import { runQueryOptions } from "@/lib/api/query-options";
import { requestLinkView } from "@/lib/api/run-views";
import {
  breakdownFirstFigures,
  cacheFirstFigures,
  kvFirstFigures,
  latencyFirstFigures,
  offloadFirstFigures,
  overviewFirstFigure,
} from "@/lib/runs/first-figures";
import { prefetchRunView } from "@/lib/runs/prefetch-first-chart";
import { readRunSummary } from "@/lib/runs/read-run";
import { getAppContext } from "@/lib/server/app-context";
import { isValidId } from "@/lib/store/ids";

export const dynamic = "force-dynamic";

/** Sent by the server's warm-up (bin/warm-routes.mjs). */
const WARM_UP_HEADER = "x-runlens-warm-up";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
};

async function load(id: string) {
  if (!isValidId(id)) return null;
  const app = await getAppContext();
  return readRunSummary(app.store.db, id);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const run = await load((await params).id);
  return { title: run ? `${run.name} · Runlens` : "Run not found · Runlens" };
}

/** A run's page: rendered on the server from the stored summary, so a shared link needs no state. */
export default async function RunRoute({ params, searchParams }: Props) {
  const { id } = await params;
  const run = await load(id);
  if (!run) notFound();
  const queryClient = getQueryClient();
  queryClient.setQueryData(runQueryOptions(id).queryKey, run);
  const query = await searchParams;
  const {
    view,
    tfrom,
    tto,
    lanes,
    rid,
    metric: urlMetric,
    stat,
    segments,
    scale,
  } = runSearchParamsCache.parse(query);
  // A request's link by its own id names no view (docs/http-api.md §A request's link): it opens
  // the view whose drill-down shows the run's requests, the rest of the link kept.
  const ridView = rid !== null && query.view === undefined ? requestLinkView(run) : null;
  if (ridView) {
    const kept = new URLSearchParams();
    for (const [k, v] of Object.entries(query))
      for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) kept.append(k, one);
    kept.set("view", ridView);
    redirect(`/runs/${encodeURIComponent(id)}?${kept}`);
  }
  const app = await getAppContext();
  // The server's own warm-up after it starts (bin/warm-routes.mjs) reads no run's timeline into memory.
  const warmUp = (await headers()).get(WARM_UP_HEADER) === "1";
  const timeline = await prefetchRunView(
    queryClient,
    app.store.db,
    run,
    view,
    { from: tfrom, to: tto, lanes },
    { warmUp },
  );
  // The Latency view's distribution, drawn here so it is on screen with the HTML (as the view
  // reads the metric: TPOT is TensorRT-LLM's, ITL aiperf's; each opens on TTFT without its own).
  const trtllm = run.requests === null;
  const metric = urlMetric === (trtllm ? "itlMs" : "tpotMs") ? "ttftMs" : urlMetric;
  // TensorRT-LLM's figures carry their own metric names; aiperf's are in the run's tool's words.
  const label = metric === "tpotMs" ? "" : latencyLabel(run, metric);
  // The Cache, KV, Offload and Breakdown views' first figures too (their bars), with the title and
  // height the page's preview frames them in.
  const { figures: stills, frames } =
    view === "latency"
      ? { figures: latencyFirstFigures(queryClient, run, metric, label), frames: {} }
      : view === "overview"
        ? { figures: overviewFirstFigure(queryClient, run, latencyLabel(run, "ttftMs")), frames: {} }
        : view === "cache"
          ? cacheFirstFigures(queryClient, run)
          : view === "kv"
            ? kvFirstFigures(queryClient, run)
            : view === "offload"
              ? offloadFirstFigures(queryClient, run)
              : view === "breakdown"
                ? breakdownFirstFigures(queryClient, run, stat, segments, scale)
                : { figures: {}, frames: {} };
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <TimelineSeed seed={timeline}>
        <StillFigures figures={stills} frames={frames}>
          <RunPage id={id} />
        </StillFigures>
      </TimelineSeed>
    </HydrationBoundary>
  );
}
