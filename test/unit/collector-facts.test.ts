/**
 * The TensorRT-LLM collectors in a run's report and header (docs/metrics.md §Collectors): shown
 * only where the run's files could say them, "not in these files" where they do not; the
 * comparability doctor counts no collector that neither run's files say.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_FACTS } from "@/lib/api/run-facts";
import type { RunSummary } from "@/lib/api/schemas";
import { collectorTexts } from "@/lib/metrics/collectors-mismatch";
import { diagnose } from "@/lib/metrics/run-differences";
import { summarySection } from "@/lib/runs/report/run-sections";
import { summary, timeBreakdown } from "./compare-helpers";

const UNKNOWN = { returnPerfMetrics: null, enableIterPerfStats: null, publishKvEvents: null };
const backend = (value: string): RunSummary["facts"] => ({
  ...EMPTY_FACTS,
  backend: { value, source: "server metrics", edited: false },
});
const factsOf = (run: RunSummary) =>
  new Map(
    summarySection(run, "2026-12-06T00:00:00Z").blocks.flatMap((b) => (b.kind === "facts" ? b.facts : [])),
  );
const FLAGS = ["return_perf_metrics", "enable_iter_perf_stats", "publish_kv_events"];

describe("collectors in the report's summary facts", () => {
  it("an aiperf run, whose files cannot say a TensorRT-LLM setting, lists none of them", () => {
    const aiperf = summary("aiperf", { collectors: UNKNOWN });
    const facts = factsOf(aiperf);
    for (const flag of FLAGS) expect(facts.has(flag), flag).toBe(false);
    expect([...facts.values()]).not.toContain("unknown");
    expect(collectorTexts(aiperf)).toEqual([]);
    // A vLLM run likewise.
    expect(collectorTexts(summary("vllm", { collectors: UNKNOWN, facts: backend("vllm") }))).toEqual([]);
  });

  it("a TensorRT-LLM run says each: proved by its perf metrics, or not in these files", () => {
    const trt = summary("trt", {
      collectors: UNKNOWN,
      facts: backend("trtllm"),
      timeBreakdown: timeBreakdown("aggregated", 10),
    });
    const facts = factsOf(trt);
    expect(FLAGS.map((f) => facts.get(f))).toEqual([
      "on (from the data)",
      "not in these files",
      "not in these files",
    ]);
    // A collector a file records is listed on any run.
    const recorded = summary("rec", { collectors: { ...UNKNOWN, publishKvEvents: false } });
    expect(FLAGS.map((f) => factsOf(recorded).get(f))).toEqual([undefined, undefined, "off"]);
  });

  it("the doctor finds no collector difference where neither run's files say it", () => {
    const a = summary("a", { collectors: UNKNOWN, facts: backend("trtllm") });
    const b = summary("b", { collectors: UNKNOWN, facts: backend("trtllm") });
    expect(diagnose(a, b).reasons.map((r) => r.name)).not.toContain("collectors");
  });
});
