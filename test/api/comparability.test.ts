/**
 * The comparability doctor through compare, the series verdicts and the gate (docs/metrics.md
 * §Comparable runs). Runs are aiperf exports from test/generators/aiperf.mjs, which writes records
 * and the summary as aiperf's exporters do (aiperf `exporters/` record and JSON summary shapes).
 */
import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { GET as series } from "@/app/api/series/[...name]/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { seriesDetailSchema } from "@/lib/api/regression-schemas";
import { readGate } from "../helpers/read-api";
import { freshAppEachTest, uploadGeneratedAiperf } from "../helpers/test-app";

freshAppEachTest();

const SERIES = "nightly/doctor";

const uploadRun = (opts: Record<string, unknown>) =>
  uploadGeneratedAiperf({ records: 400, ...opts }, { series: SERIES });

const compareOf = async (qs: string) => {
  const res = await compare(new Request(`http://localhost/api/compare?${qs}`));
  return { status: res.status, body: await res.json() };
};

const seriesOf = async (qs: string) =>
  seriesDetailSchema.parse(
    await (
      await series(new Request(`http://localhost/api/series/${SERIES}?${qs}`), {
        params: Promise.resolve({ name: SERIES.split("/") }),
      })
    ).json(),
  );

describe("the comparability doctor", () => {
  it("tests ISL distributions on the request rows: one mean, another shape, not comparable", async () => {
    // Input lengths uniform over 100…2100 against 1000…1200: both means are 1,100 tokens.
    const a = await uploadRun({ seed: 1 });
    const b = await uploadRun({ seed: 2, islBase: 1000, islSpan: 200 });
    const { body } = await compareOf(`runs=${a},${b}&stat=p50`);
    const data = compareResponseSchema.parse(body);
    const report = data.comparability!.runs[0];
    expect(report.runId).toBe(b);
    expect(report.verdict).toBe("not comparable");
    expect(report.reasons.map((r) => r.name)).toEqual(["isl"]);
    expect(report.reasons[0].label).toBe("ISL distribution");
    expect(report.reasons[0].evidence).toMatch(/two-sample KS .*D = 0\.\d\d, p < 0\.001 \(n = 400 vs 400/);
    // The means are within 10% of each other: a test on means alone would have passed the pair.
    const isl = data.runs.map((r) => r.requests!.inputTokens!.mean);
    expect(Math.abs(isl[0] - isl[1]) / Math.max(...isl)).toBeLessThan(0.1);
    expect(data.rows.find((r) => r.key === "ttft")!.cells[1].verdict).toBe("neutral");

    // Accepting the named difference gives the verdicts back, and says so.
    const accepted = compareResponseSchema.parse((await compareOf(`runs=${a},${b}&allowDifferent=isl`)).body);
    expect(accepted.comparability!.accepted).toBe("isl");
    expect(accepted.comparability!.runs[0].verdict).toBe("comparable with caveats");
    expect(accepted.comparability!.runs[0].reasons[0].accepted).toBe(true);
    expect(accepted.rows.find((r) => r.key === "ttft")!.cells[1].noise).toBeDefined();

    // A second run of the same workload is comparable, with nothing to say.
    const c = await uploadRun({ seed: 3 });
    const same = compareResponseSchema.parse((await compareOf(`runs=${a},${c}`)).body);
    expect(same.comparability!.runs).toEqual([{ runId: c, verdict: "comparable", reasons: [] }]);
  });

  it("refuses an unknown difference name rather than passing a gate on a typo", async () => {
    const a = await uploadRun({ seed: 1 });
    const { status, body } = await compareOf(`runs=${a}&allowDifferent=modle`);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toMatch(/unknown difference modle/);
  });

  it("gate: not comparable exits 2 naming the differences to accept; accepting some still refuses", async () => {
    await uploadRun({ seed: 1 });
    // 10% of the profiling requests fail, and the input lengths have another shape.
    const b = await uploadRun({ seed: 2, ttftScale: 1.3, errorEvery: 10, islBase: 1000, islSpan: 200 });
    const refused = await readGate(b, "baseline=last&failOn=ttft.p50>5%25");
    expect(refused.outcome).toBe("unjudged");
    expect(refused.exitCode).toBe(2);
    expect(refused.reasons[0]).toMatch(
      /^not comparable with .*: ISL distribution .*; error rate 0\.0% .* vs 10\.0%/,
    );
    expect(refused.reasons[0]).toContain("allowDifferent=isl,errors");
    expect(refused.comparability![0].verdict).toBe("not comparable");
    expect(refused.markdown).toContain("**Comparability: not comparable**");
    expect(refused.markdown).toMatch(
      /- blocks: error rate 0\.0% \(0 of 400\) \(baseline\) → 10\.0% \(40 of 400\) — rates 10\.0 points apart/,
    );

    const half = await readGate(b, "baseline=last&failOn=ttft.p50>5%25&allowDifferent=isl");
    expect(half.exitCode).toBe(2);
    expect(half.reasons[0]).not.toMatch(/ISL/);
    expect(half.reasons[0]).toMatch(/error rate/);

    const judged = await readGate(b, "baseline=last&failOn=ttft.p50>5%25&allowDifferent=isl,errors");
    expect(judged.outcome).toBe("fail");
    expect(judged.exitCode).toBe(1);
    expect(judged.judgement!.comparability![0].verdict).toBe("comparable with caveats");
    expect(judged.markdown).toMatch(/- accepted: error rate/);
  });

  it("series: a run not comparable with the run before gets no verdicts unless accepted", async () => {
    // Verdicts need three earlier runs (the noise band's minimum history).
    for (const seed of [1, 2, 3, 4]) await uploadRun({ seed });
    const odd = await uploadRun({ seed: 5, concurrency: 16 });
    const detail = await seriesOf("judge=run");
    const last = detail.runs.find((r) => r.id === odd)!;
    expect(last.comparability!.verdict).toBe("not comparable");
    expect(last.comparability!.reasons.map((r) => [r.name, r.a, r.b])).toEqual([["concurrency", "8", "16"]]);
    expect(last.verdicts).toEqual([]);
    expect(detail.runs[0].comparability).toBeNull();
    expect(detail.runs[3].comparability!.verdict).toBe("comparable");
    expect(detail.runs[3].verdicts.length).toBeGreaterThan(0);

    const accepted = await seriesOf("judge=run&allowDifferent=concurrency");
    expect(accepted.runs.find((r) => r.id === odd)!.verdicts.length).toBeGreaterThan(0);
  });
});
