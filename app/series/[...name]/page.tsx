import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { seriesSearchParamsCache } from "@/components/series/search-params";
import { SeriesPage } from "@/components/series/series-page";
import { getQueryClient } from "@/lib/api/query-client";
import { seriesNameSchema, seriesQuerySchema } from "@/lib/api/regression-schemas";
import { seriesQueryOptions } from "@/lib/api/series-query-options";
import { parseThresholds } from "@/lib/metrics/regression/catalog";
import { seriesDetail } from "@/lib/runs/series";
import { getAppContext } from "@/lib/server/app-context";

export const dynamic = "force-dynamic";
export const metadata = { title: "Series · Runlens" };

/** A series' trends, noise bands and verdicts, rendered with its data already loaded. */
export default async function SeriesRoute({
  params,
  searchParams,
}: {
  params: Promise<{ name: string[] }>;
  searchParams: Promise<SearchParams>;
}) {
  const parts = (await params).name.map((p) => decodeURIComponent(p));
  const name = seriesNameSchema.safeParse(parts.join("/"));
  if (!name.success) notFound();
  const app = await getAppContext();
  if (app.config.privateMode) notFound();
  const { stat, window, thresholds } = seriesSearchParamsCache.parse(await searchParams);
  // The page opens with stored figures and run-level verdicts; the latency verdicts, which read
  // every run's requests, are fetched by the browser after it.
  const query = seriesQuerySchema.safeParse({
    stat,
    window,
    judge: "run",
    thresholds: thresholds || undefined,
  });
  if (!query.success) notFound();
  const queryClient = getQueryClient();
  const valid = validThresholds(thresholds);
  if (valid) {
    const data = await seriesDetail(app.store.db, name.data, query.data);
    if (!data) notFound();
    queryClient.setQueryData(seriesQueryOptions(name.data, stat, window, "run", thresholds).queryKey, data);
  } else if (!(await seriesDetail(app.store.db, name.data, { ...query.data, thresholds: undefined })))
    notFound();
  // Thresholds the link gets wrong are not prefetched: the browser's fetch of them answers with
  // what is wrong, and the page shows it beside the thresholds field.
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <SeriesPage name={name.data} />
    </HydrationBoundary>
  );
}

function validThresholds(text: string): boolean {
  try {
    parseThresholds(text);
    return true;
  } catch {
    return false;
  }
}
