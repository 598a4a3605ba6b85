import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { redirect } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { ComparePage } from "@/components/compare/compare-page";
import { compareSearchParamsCache } from "@/components/compare/search-params";
import { sweepsCompareHref } from "@/components/sweeps/search-params";
import { compareQuerySchema } from "@/lib/api/compare-schemas";
import { compareQueryOptions } from "@/lib/api/compare-query-options";
import { getQueryClient } from "@/lib/api/query-client";
import { loadComparison } from "@/lib/runs/compare-runs";
import { getAppContext } from "@/lib/server/app-context";

export const dynamic = "force-dynamic";
export const metadata = { title: "Compare runs · Runlens" };

/** Runs side by side against a baseline; rendered with the comparison already loaded, so a shared link needs no state. */
export default async function CompareRoute({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  // `?sweeps=a,b` compares configurations: their frontiers overlaid on the first sweep's page.
  const sweeps = sweepsCompareHref(params.sweeps);
  if (sweeps) redirect(sweeps);
  const { runs, baseline, stat, noise, allowDifferent } = compareSearchParamsCache.parse(params);
  const queryClient = getQueryClient();
  const parsed = compareQuerySchema.safeParse({
    runs: runs.join(","),
    baseline: baseline || undefined,
    stat,
    noise: noise || undefined,
    allowDifferent: allowDifferent || undefined,
  });
  if (parsed.success) {
    const app = await getAppContext();
    const data = await loadComparison(app.store.db, parsed.data);
    if (data.runs.length > 0)
      queryClient.setQueryData(
        compareQueryOptions({ runs, baseline, stat, noise, allowDifferent }).queryKey,
        data,
      );
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ComparePage />
    </HydrationBoundary>
  );
}
