import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { SearchParams } from "nuqs/server";
import { RunsBrowser } from "@/components/runs/runs-browser";
import { UploadDropzone } from "@/components/upload/upload-dropzone";
import { runListInfiniteQueryOptions } from "@/lib/api/query-options";
import { getQueryClient } from "@/lib/api/query-client";
import { getAppContext } from "@/lib/server/app-context";
import { listRuns } from "@/lib/store/run-list";
import { runListParams, RUNS_PAGE_SIZE, runsSearchParamsCache } from "@/components/runs/search-params";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const state = runsSearchParamsCache.parse(await searchParams);
  const app = await getAppContext();
  const queryClient = getQueryClient();
  if (!app.config.privateMode) {
    const params = runListParams(state, RUNS_PAGE_SIZE);
    const first = await listRuns(app.store.db, { ...params, sort: params.sort ?? "created" });
    queryClient.setQueryData(runListInfiniteQueryOptions(params).queryKey, {
      pages: [first],
      pageParams: [null],
    });
  }
  return (
    <div className="space-y-6">
      <UploadDropzone />
      {app.config.privateMode ? (
        <p className="text-sm text-muted">This Runlens is private: runs are reachable only by their links.</p>
      ) : (
        <HydrationBoundary state={dehydrate(queryClient)}>
          <RunsBrowser />
        </HydrationBoundary>
      )}
    </div>
  );
}
