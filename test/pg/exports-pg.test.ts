/**
 * The trace and the report on PostgreSQL: the sampled idx reads, the keyset pages of aiperf
 * records and the chart payload lookup through the other dialect.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getReport } from "@/app/api/runs/[id]/report.html/route";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import { traceFileSchema } from "../helpers/chrome-trace-schema";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";
import { fixture, idParams, uploadRun } from "../helpers/test-app";

const url = (p: string) => new Request(`http://localhost${p}`);

describe.skipIf(!PG_URL)("exports on PostgreSQL", () => {
  usePgTestApp();

  it("traces a TensorRT-LLM run and an aiperf run, and writes a report", async () => {
    const trt = await uploadRun([
      { name: "perf_metrics-0.jsonl", path: fixture("compare/run-a/perf_metrics-0.jsonl") },
    ]);
    const t = traceFileSchema.parse(
      JSON.parse(await (await getTrace(url(`/api/runs/${trt}/trace.json`), idParams(trt))).text()),
    );
    expect(t.otherData.requests).toBe("3");
    expect(t.traceEvents.filter((e) => e.ph === "X" && e.cat === "ttft").length).toBeGreaterThan(0);

    const dir = fixture("aiperf/real-v0.6-c4");
    const ai = await uploadRun(
      ["profile_export.jsonl", "profile_export_aiperf.json"].map((f) => ({
        name: f,
        path: path.join(dir, f),
      })),
    );
    const a = traceFileSchema.parse(
      JSON.parse(await (await getTrace(url(`/api/runs/${ai}/trace.json`), idParams(ai))).text()),
    );
    const lifetimes = a.traceEvents.filter((e) => e.ph === "X" && e.name.startsWith("request"));
    expect(lifetimes).toHaveLength(200);
    const starts = lifetimes.map((e) => (e.ph === "X" ? e.ts : 0));
    expect(starts).toEqual([...starts].sort((x, y) => x - y));

    const res = await getReport(url(`/api/runs/${ai}/report.html`), idParams(ai));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-chart="aiperf-distribution-ttftMs-histogram" data-drawn="true"');
  });
});
