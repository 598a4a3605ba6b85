import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { sweepSearchParamsCache } from "@/components/sweeps/search-params";
import { SweepPage } from "@/components/sweeps/sweep-page";
import { getQueryClient } from "@/lib/api/query-client";
import { sweepQueryOptions } from "@/lib/api/sweep-query-options";
import { readSweep } from "@/lib/runs/sweeps";
import { getAppContext } from "@/lib/server/app-context";
import { isValidId } from "@/lib/store/ids";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };

async function load(id: string) {
  if (!isValidId(id)) return null;
  return readSweep(await getAppContext(), id);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const sweep = await load((await params).id);
  return { title: sweep ? `${sweep.name} · sweep · Runlens` : "Sweep not found · Runlens" };
}

/** A sweep's page, rendered with the sweep and its overlays loaded, so a shared link needs no state. */
export default async function SweepRoute({ params, searchParams }: Props) {
  const { id } = await params;
  const sweep = await load(id);
  if (!sweep) notFound();
  const queryClient = getQueryClient();
  queryClient.setQueryData(sweepQueryOptions(id).queryKey, sweep);
  const { with: others } = sweepSearchParamsCache.parse(await searchParams);
  for (const other of others.slice(0, 7)) {
    const s = await load(other);
    if (s) queryClient.setQueryData(sweepQueryOptions(other).queryKey, s);
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <SweepPage id={id} />
    </HydrationBoundary>
  );
}
