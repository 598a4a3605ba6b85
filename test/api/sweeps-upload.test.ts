/**
 * A folder of aiperf runs, one per concurrency, uploaded at once: one run per folder and one
 * sweep. The expected values are aiperf's own summaries (profile_export_aiperf.json of each
 * run, written by aiperf's metric summary exporter), read straight from the fixture files.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getSweep } from "@/app/api/sweeps/[id]/route";
import type { Sweep } from "@/lib/api/sweeps";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

const summaryOf = (rel: string) => JSON.parse(fs.readFileSync(fixture(rel), "utf8"));
const qwenFolder = (c: number) => [
  {
    name: `qwen-sweep/qwen-c${c}/profile_export.jsonl`,
    path: fixture(`aiperf/qwen-c${c}__profile_export.jsonl`),
  },
  {
    name: `qwen-sweep/qwen-c${c}/profile_export_aiperf.json`,
    path: fixture(`aiperf/qwen-c${c}__profile_export_aiperf.json`),
  },
  {
    name: `qwen-sweep/qwen-c${c}/gpu_telemetry_export.jsonl`,
    path: fixture(`aiperf/qwen-c${c}__gpu_telemetry_export.jsonl`),
  },
];

async function readSweep(id: string): Promise<Sweep> {
  const res = await getSweep(new Request(`http://localhost/api/sweeps/${id}`), idParams(id));
  expect(res.status).toBe(200);
  return res.json();
}

describe("uploading a folder of run folders", () => {
  it("makes one run per folder and one sweep whose points are aiperf's summary values", async () => {
    const res = await upload(uploadRequest([1, 2, 4].flatMap(qwenFolder)));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.sweep.url).toBe(`/sweeps/${body.sweep.id}`);
    expect(res.headers.get("location")).toBe(body.sweep.url);
    expect(body.runs.map((r: { folder: string }) => r.folder)).toEqual(["qwen-c1", "qwen-c2", "qwen-c4"]);
    const sweep = await readSweep(body.sweep.id);
    expect(sweep.name).toBe("qwen-sweep");
    expect(sweep.runs.map((r) => r.concurrency)).toEqual([1, 2, 4]);
    expect(sweep.facts.model?.value).toBe("Qwen/Qwen3-0.6B");
    for (const [i, c] of [1, 2, 4].entries()) {
      const s = summaryOf(`aiperf/qwen-c${c}__profile_export_aiperf.json`);
      const run = sweep.runs[i];
      // The records hold 10 requests; the summary describes 64: the point says it took the summary.
      expect(run.source).toBe("summary");
      expect(run.sourceNote).toContain(`10 of the ${s.request_count.avg} requests`);
      // One GPU, seen by two DCGM exporters (same gpu_uuid): counted once.
      expect(run.gpuCount).toMatchObject({ value: 1, source: expect.stringMatching(/GPU telemetry/) });
      const mean = run.points.mean;
      expect(mean.tokPerSPerUser).toBe(s.output_token_throughput_per_user.avg);
      expect(mean.requestsPerS).toBe(s.request_throughput.avg);
      expect(mean.ttftMs).toBe(s.time_to_first_token.avg);
      expect(mean.outputTokPerSPerGpu).toBe(s.output_token_throughput.avg / 1);
      expect(run.points.p50.tokPerSPerUser).toBe(s.output_token_throughput_per_user.p50);
      // A tail of tok/s/user is the slow one: "p90" is 1000 / aiperf's ITL p90, within 0.01% of
      // aiperf's own p10 of output_token_throughput_per_user; "p99" likewise its p1.
      expect(run.points.p90.tokPerSPerUser).toBe(1000 / s.inter_token_latency.p90);
      expect(run.points.p99.tokPerSPerUser).toBe(1000 / s.inter_token_latency.p99);
      const near = (a: number | null, b: number) => expect(Math.abs(a! / b - 1)).toBeLessThan(1e-4);
      near(run.points.p90.tokPerSPerUser, s.output_token_throughput_per_user.p10);
      near(run.points.p99.tokPerSPerUser, s.output_token_throughput_per_user.p1);
      expect(run.points.p99.ttftMs).toBe(s.time_to_first_token.p99);
      expect(run.points.p90.e2eMs).toBe(s.request_latency.p90);
    }
  });

  it("gives the same point from records and from the summary when both describe every request", async () => {
    const dir = "aiperf-real-c4";
    const both = await (
      await upload(
        uploadRequest([
          { name: "a_c4/profile_export.jsonl", path: fixture(`${dir}/profile_export.jsonl`) },
          { name: "a_c4/profile_export_aiperf.json", path: fixture(`${dir}/profile_export_aiperf.json`) },
          { name: "b_c4/profile_export_aiperf.json", path: fixture(`${dir}/profile_export_aiperf.json`) },
        ]),
      )
    ).json();
    const sweep = await readSweep(both.sweep.id);
    const [records, summary] = sweep.runs;
    expect(records.source).toBe("records");
    expect(summary.source).toBe("summary");
    for (const stat of ["mean", "p50", "p90", "p99"] as const)
      for (const key of [
        "tokPerSPerUser",
        "requestsPerS",
        "outputTokPerS",
        "ttftMs",
        "e2eMs",
        "tpotMs",
      ] as const) {
        const a = records.points[stat][key]!;
        const b = summary.points[stat][key]!;
        expect(Math.abs(a - b) / Math.abs(b), `${stat} ${key}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-9);
      }
  });

  it("keeps a folder that is no sweep as one run", async () => {
    const res = await upload(uploadRequest(qwenFolder(4)));
    const body = await res.json();
    expect(body.sweep).toBeUndefined();
    expect(res.headers.get("location")).toBe(body.url);
  });
});
