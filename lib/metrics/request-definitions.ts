/**
 * The numbers whose definitions differ between Runlens, aiperf and the server
 * (docs/metrics.md §Definitions beside aiperf), paired so the page can show both and say why.
 * Pure: the components word and format them.
 */
import type { RunSummary } from "@/lib/api/schemas";

export interface RequestCountFacts {
  /** Profiling requests, errors included: Runlens' request count */
  all: number;
  /** Profiling requests without an error: aiperf's `request_count` */
  successful: number;
  errors: number;
}

export function requestCountFacts(r: NonNullable<RunSummary["requests"]>): RequestCountFacts {
  return { all: r.count, successful: r.count - r.errorCount, errors: r.errorCount };
}

export interface OutputTokenFacts {
  /** Σ output tokens of successful profiling requests as the client counted them (aiperf's total_osl) */
  client: number | null;
  /** The engine's generation-token counter over the window, summed over endpoints */
  server: number | null;
  /** Both known and not the same count: the page shows both */
  differ: boolean;
}

export function outputTokenFacts(run: Pick<RunSummary, "requests" | "serverMetrics">): OutputTokenFacts {
  const client = run.requests?.outputTokensTotal ?? null;
  const server = run.serverMetrics?.tokens.generationTotal ?? null;
  // Token counts are whole numbers: anything over half a token apart is a different count.
  return { client, server, differ: client !== null && server !== null && Math.abs(client - server) > 0.5 };
}
