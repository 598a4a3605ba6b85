/**
 * Compare and the gate refuse a verdict between runs that benchmark different things
 * (docs/metrics.md §Comparable runs) unless the user says it is meant. Runs are aiperf exports
 * from test/generators/aiperf.mjs; the second run's model is set through PATCH, as a user would
 * correct it, so the two differ in the model alone.
 */
import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { PATCH } from "@/app/api/runs/[id]/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { readGate } from "../helpers/read-api";
import { freshAppEachTest, idParams, uploadGeneratedAiperf } from "../helpers/test-app";

freshAppEachTest();

const SERIES = "nightly/comparable";

const uploadInto = (seed: number) =>
  uploadGeneratedAiperf({ records: 400, seed, ttftScale: seed === 2 ? 1.3 : 1 }, { series: SERIES });

async function setModel(id: string, model: string) {
  const res = await PATCH(
    new Request(`http://localhost/api/runs/${id}`, {
      method: "PATCH",
      body: JSON.stringify({ facts: { model } }),
      headers: { "content-type": "application/json" },
    }),
    idParams(id),
  );
  expect(res.status).toBe(200);
}

const compareOf = async (qs: string) =>
  compareResponseSchema.parse(
    await (await compare(new Request(`http://localhost/api/compare?${qs}`))).json(),
  );

describe("comparable runs", () => {
  it("withholds compare's verdicts and colours and the gate's verdict across models, unless allowed", async () => {
    const a = await uploadInto(1);
    const b = await uploadInto(2);
    await setModel(a, "mock-llama-8b");
    await setModel(b, "Qwen/Qwen3-0.6B");

    const refused = await readGate(b, "baseline=last&failOn=ttft.p50>5%25");
    expect(refused.outcome).toBe("unjudged");
    expect(refused.exitCode).toBe(2);
    expect(refused.reasons[0]).toMatch(/not comparable .*model mock-llama-8b vs Qwen\/Qwen3-0\.6B/);
    expect(refused.markdown).toContain("could not judge");

    const allowed = await readGate(b, "baseline=last&failOn=ttft.p50>5%25&allowDifferent=1");
    // TTFT × 1.3 on the second run: judged, and past the 5% rule.
    expect(allowed.outcome).toBe("fail");
    expect(allowed.judgement!.verdicts.find((v) => v.metric === "ttft.p50")!.verdict).toBe("regressed");

    const data = await compareOf(`runs=${a},${b}&stat=p50`);
    expect(data.comparability!.accepted).toBe("");
    expect(data.comparability!.runs).toEqual([
      {
        runId: b,
        verdict: "not comparable",
        reasons: [
          {
            name: "model",
            group: "workload",
            severity: "blocking",
            accepted: false,
            label: "model",
            a: "mock-llama-8b",
            b: "Qwen/Qwen3-0.6B",
            evidence: "from edited",
          },
        ],
      },
    ]);
    const ttft = data.rows.find((r) => r.key === "ttft")!;
    expect(ttft.cells[1].percent!).toBeGreaterThan(0.2);
    expect(ttft.cells[1].verdict).toBe("neutral");
    expect(ttft.cells[1].noise).toBeUndefined();
    expect(data.noise!.notes[b]).toMatch(/not comparable/);

    const meant = await compareOf(`runs=${a},${b}&stat=p50&allowDifferent=true`);
    expect(meant.comparability!.accepted).toBe("1");
    const judged = meant.rows.find((r) => r.key === "ttft")!.cells[1];
    expect(judged.verdict).toBe("worse");
    expect(judged.noise!.verdict).toBe("regressed");
  });

  it("judges runs of one model as before", async () => {
    const a = await uploadInto(1);
    const b = await uploadInto(2);
    const data = await compareOf(`runs=${a},${b}&stat=p50`);
    expect(data.comparability!.runs).toEqual([{ runId: b, verdict: "comparable", reasons: [] }]);
    expect(data.rows.find((r) => r.key === "ttft")!.cells[1].noise!.verdict).toBe("regressed");
    expect((await readGate(b, "baseline=last&failOn=ttft.p50>5%25")).exitCode).toBe(1);
  });
});
