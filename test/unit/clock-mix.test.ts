import path from "node:path";
import { describe, expect, it } from "vitest";
import { mixedClocks } from "@/lib/metrics/clock-mix";
import { analyzeTrtllm, trtllmDiskFile, TRTLLM_FIXTURES } from "../generators/trtllm-ingest";

describe("mixed clocks in one run", () => {
  it("counts steady-clock and epoch stamps only when both occur", () => {
    expect(mixedClocks([16_784.2, 16_790, 1_234_567_890.123, null])).toEqual({ steady: 2, epoch: 1 });
    expect(mixedClocks([1.0, 2.0, 16_784])).toBeNull();
    expect(mixedClocks([1_700_000_000, 1_700_000_010])).toBeNull();
  });
  it("the TensorRT-LLM fixture folder (README stamps beside the Dynamo doc's epoch one) is flagged", async () => {
    // The UI review's upload of the whole folder drew "request start (s)" to 1,000,000,000 s with
    // no warning.
    const file = (name: string, ord: number) => trtllmDiskFile(path.join(TRTLLM_FIXTURES, name), ord);
    const mixed = await analyzeTrtllm([
      file("time_breakdown_readme_disaggregated.json", 0),
      file("dynamo_doc_request_perf_metrics.json", 1),
    ]);
    const flagged = (ws: readonly string[] = []) =>
      ws.filter((w) => w.includes("request stamps mix two clocks"));
    expect(flagged(mixed.result.warnings)).toHaveLength(1);
    expect(flagged(mixed.result.warnings)[0]).toContain("1 in steady-clock seconds");
    const one = await analyzeTrtllm([file("time_breakdown_readme_disaggregated.json", 0)]);
    expect(flagged(one.result.warnings)).toEqual([]);
  });
});
