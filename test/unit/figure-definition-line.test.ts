/**
 * The definition line under a chart's title (components/charts/definitions.ts, docs/metrics.md
 * §Readable numbers): its parts in order, a part the definition lacks left out, nothing for none.
 */
import { describe, expect, it } from "vitest";
import { definitionText, SERVER_GAUGE, TRTLLM_STEPS } from "@/components/charts/definitions";

describe("definition line", () => {
  it("reads window, requests, method in that order, joined by a middle dot", () => {
    expect(definitionText({ method: "m", window: "w", requests: "r" })).toBe(
      "window: w · requests: r · method: m",
    );
    expect(definitionText(TRTLLM_STEPS)).toMatch(
      /^window: all of the perf-metrics files .* · requests: completed requests with step metrics .* · method: differences of the worker's own step stamps /,
    );
  });

  it("leaves out a part the definition does not state, and is empty for none", () => {
    expect(definitionText(SERVER_GAUGE)).toBe(
      "window: scrape intervals, from the first · method: gauge samples (a level, not a count)",
    );
    expect(definitionText({ requests: "r", method: "" })).toBe("requests: r");
    expect(definitionText({})).toBe("");
  });
});
