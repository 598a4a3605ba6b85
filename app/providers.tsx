"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { useEffect, type ReactNode } from "react";
import { getQueryClient } from "@/lib/api/query-client";

export function Providers({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  // Pages arrive server-rendered with their data; this marks the moment their controls respond
  // (a parent's effect runs after its children's), for scripts and browser tests that drive them.
  // `data-fetching` says how many of the page's queries and changes are on their way, so a test
  // waits for a view's data (0) rather than for the network to stay quiet a while.
  useEffect(() => {
    const root = document.documentElement;
    const mark = () => {
      root.dataset.fetching = String(queryClient.isFetching() + queryClient.isMutating());
    };
    mark();
    const offQueries = queryClient.getQueryCache().subscribe(mark);
    const offMutations = queryClient.getMutationCache().subscribe(mark);
    root.dataset.hydrated = "true";
    return () => {
      offQueries();
      offMutations();
    };
  }, [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <NuqsAdapter>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
