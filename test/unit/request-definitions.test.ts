/**
 * Definition differences shown side by side (docs/metrics.md §Definitions beside aiperf), on the
 * real aiperf 0.6 run (test/fixtures/aiperf/real-v0.6-c4, unedited aiperf output: 200 requests,
 * 2 HTTP 500s) and on hand-made summaries where the server counter and the client total differ.
 */
import { describe, expect, it } from "vitest";
import type { RunSummary } from "@/lib/api/schemas";
import { outputTokenFacts, requestCountFacts } from "@/lib/metrics/request-definitions";
import { analyze, fixtureFile } from "./aiperf-helpers";

const tokens = (generationTotal: number | null) => ({
  promptTotal: null,
  cachedTotal: null,
  generationTotal,
});

describe("request and output-token definitions", () => {
  it("the real run: 200 requests with errors, 198 successful as aiperf's request_count says", async () => {
    const { result, handle } = await analyze([
      fixtureFile("real-v0.6-c4/profile_export.jsonl", 0),
      fixtureFile("real-v0.6-c4/profile_export_aiperf.json", 1),
    ]);
    expect(requestCountFacts(result.requests!)).toEqual({ all: 200, successful: 198, errors: 2 });
    // aiperf's total_osl of the same run is 12,170 tokens; the servers counted 12,170 too
    // (ground_truth.json), so the page shows one number.
    expect(result.requests!.outputTokensTotal).toBe(12170);
    expect(outputTokenFacts({ requests: result.requests!, serverMetrics: null })).toEqual({
      client: 12170,
      server: null,
      differ: false,
    });
    await handle.close();
  });

  it("differ only when both are known and more than half a token apart", () => {
    const run = (client: number | null, server: number | null) =>
      ({
        requests: { outputTokensTotal: client },
        serverMetrics: server === null ? null : { tokens: tokens(server) },
      }) as unknown as Pick<RunSummary, "requests" | "serverMetrics">;
    expect(outputTokenFacts(run(12170, 12170))).toEqual({ client: 12170, server: 12170, differ: false });
    expect(outputTokenFacts(run(12170, 12230))).toEqual({ client: 12170, server: 12230, differ: true });
    expect(outputTokenFacts(run(null, 12230)).differ).toBe(false);
    expect(outputTokenFacts(run(12170, null)).differ).toBe(false);
  });
});
