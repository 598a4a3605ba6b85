/** The warm-up line of the Requests tile and the Latency header: a hyphen and a plural, as the rest of the page writes them. */
import { describe, expect, it } from "vitest";
import { warmupText } from "@/components/aiperf/warmup-text";
import type { RequestsBlock } from "@/lib/api/schemas";

const block = (r: Partial<RequestsBlock>) => r as RequestsBlock;

describe("warmupText", () => {
  it("counts warm-up requests in words ('1 warm-up request', '12 warm-up requests'), never '1 warmup'", () => {
    expect(warmupText(block({ warmupCount: 1, warmupSource: "config" }))).toBe(
      "1 warm-up request (configured; no warm-up records uploaded)",
    );
    expect(warmupText(block({ warmupCount: 12, warmupSource: "records" }))).toBe(
      "12 warm-up requests (records)",
    );
    expect(warmupText(block({ warmupCount: 16, warmupSource: "log", warmupErrorCount: 1 }))).toBe(
      "16 warm-up requests (aiperf.log warm-up phase, 1 failed)",
    );
    expect(warmupText(block({ warmupCount: 0, warmupSource: "config" }))).toBe("no warm-up (configured)");
  });
});
