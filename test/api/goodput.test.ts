/**
 * GET /api/runs/{id}/goodput over every record of a real aiperf run (aiperf-real-c4: 200
 * records, 2 of them HTTP 500s), checked against a count made here straight from the JSONL.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { GET as goodput } from "@/app/api/runs/[id]/goodput/route";
import { goodputSchema } from "@/lib/api/slo";
import { appForTest, fixture, uploadRun } from "../helpers/test-app";

interface Rec {
  metadata: { benchmark_phase: string };
  metrics?: Record<string, { value: number } | undefined>;
  error?: unknown;
}

const call = (id: string, query: string) =>
  goodput(new Request(`http://localhost/api/runs/${id}/goodput?${query}`), {
    params: Promise.resolve({ id }),
  });

describe("GET /api/runs/{id}/goodput", () => {
  it("counts every record against per-request SLOs", async () => {
    await appForTest();
    const files = ["profile_export.jsonl", "profile_export_aiperf.json"];
    const id = await uploadRun(files.map((f) => ({ name: `c4/${f}`, path: fixture(`aiperf-real-c4/${f}`) })));
    const records = fs
      .readFileSync(fixture("aiperf-real-c4/profile_export.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Rec)
      .filter((r) => r.metadata.benchmark_phase === "profiling");
    const good = records.filter(
      (r) =>
        !r.error &&
        (r.metrics?.time_to_first_token?.value ?? Infinity) <= 80 &&
        (r.metrics?.inter_token_latency?.value ?? Infinity) <= 10,
    );
    const res = await call(id, "slo=ttft:req:80,tpot:req:10");
    expect(res.status).toBe(200);
    const g = goodputSchema.parse(await res.json());
    expect(g.source).toBe("aiperf records");
    expect(g.requests).toBe(records.length);
    expect(g.meeting).toBe(good.length);
    expect(good.length).toBeGreaterThan(0);
    expect(good.length).toBeLessThan(records.length);
    const tokens = good.reduce((a, r) => a + r.metrics!.output_sequence_length!.value, 0);
    expect(g.goodputTokPerS.value! / g.goodputReqPerS.value!).toBeCloseTo(tokens / good.length, 9);
  });

  it("refuses a malformed slo with a 400 and an unknown run with a 404", async () => {
    await appForTest();
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: fixture("aiperf-real-c4/profile_export.jsonl") },
    ]);
    expect((await call(id, "slo=ttft:p98:200")).status).toBe(400);
    expect((await call("AAAAAAAAAAAAAAAAAAAAAA", "slo=ttft:req:200")).status).toBe(404);
  });
});
