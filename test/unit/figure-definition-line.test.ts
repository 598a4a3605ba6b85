/**
 * The definition line under a chart's title (components/charts/definitions.ts, docs/metrics.md
 * §Readable numbers): one sentence, the window, the requests and the method in that order, a part
 * the definition lacks left out, nothing for none; never a "window: … · requests: …" key list.
 */
import { describe, expect, it } from "vitest";
import {
  AIPERF_SUCCESSFUL,
  definitionText,
  SERVER_GAUGE,
  TRTLLM_STEPS,
} from "@/components/charts/definitions";

describe("definition line", () => {
  it("reads as one sentence: over the window, which requests; how", () => {
    expect(definitionText({ method: "m", window: "w", requests: "r" })).toBe("Over w, r; m.");
    expect(definitionText(AIPERF_SUCCESSFUL)).toBe(
      "Over the profiling phase, successful profiling requests (errors and warm-up excluded); client-side timings from aiperf's records.",
    );
    expect(definitionText(TRTLLM_STEPS)).toMatch(
      /^Over all of the perf-metrics files .*, completed requests with step metrics .*; differences of the worker's own step stamps /,
    );
    for (const d of [AIPERF_SUCCESSFUL, TRTLLM_STEPS, SERVER_GAUGE])
      expect(definitionText(d)).not.toMatch(/\b(window|requests|method): /);
  });

  it("leaves out a part the definition does not state, and is empty for none", () => {
    expect(definitionText(SERVER_GAUGE)).toBe(
      "Over scrape intervals, from the first; gauge samples (a level, not a count).",
    );
    expect(definitionText({ requests: "r", method: "" })).toBe("R.");
    expect(definitionText({ requests: "aiperf: successful requests" })).toBe("aiperf: successful requests.");
    expect(definitionText({ window: "from the first request", method: "m" })).toBe(
      "From the first request; m.",
    );
    expect(definitionText({ window: "none: capacity is configuration", method: "m" })).toBe(
      "No window: capacity is configuration; m.",
    );
    expect(definitionText({})).toBe("");
  });
});
