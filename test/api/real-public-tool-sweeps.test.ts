/**
 * Sweeps of summary-only results of other tools that take the same path as vLLM's (review N1):
 * genai-perf summaries that other people committed (../shared/fixtures/real-public/, PROVENANCE.md),
 * each uploaded alone, then swept with POST /api/sweeps; every point is genai-perf's own figure,
 * read from its file here.
 */
import { expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { POST as createSweep } from "@/app/api/sweeps/route";
import { GET as getSweep } from "@/app/api/sweeps/[id]/route";
import { uploadResponseSchema } from "@/lib/api/schemas";
import { sweepSchema } from "@/lib/api/sweeps";
import { describeRealPublic, realPublicJson, realPublicParts } from "../helpers/real-public";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

type Block = { avg: number; p50: number; p90: number; p99: number };

const FOLDER = "genai-perf-tritonsdk-gptoss20b-k8s";
describeRealPublic(FOLDER, () => {
  it("genai-perf summaries alone: a sweep whose points are genai-perf's own figures", async () => {
    const parts = realPublicParts(FOLDER);
    const ids: string[] = [];
    for (const p of parts) {
      const res = await upload(uploadRequest([p]));
      expect(res.status).toBe(201);
      ids.push(uploadResponseSchema.parse(await res.json()).id);
    }
    const created = await createSweep(
      new Request("http://localhost/api/sweeps", {
        method: "POST",
        body: JSON.stringify({ name: "genai-perf", runIds: ids }),
        headers: { "content-type": "application/json" },
      }),
    );
    const { id } = (await created.json()) as { id: string };
    const res = await getSweep(new Request(`http://localhost/api/sweeps/${id}`), idParams(id));
    const sweep = sweepSchema.parse(await res.json());
    for (const [i, p] of parts.entries()) {
      const j = realPublicJson<Record<string, Block>>(FOLDER, p.name);
      const point = sweep.runs.find((r) => r.id === ids[i])!;
      expect(point.source).toBe("summary");
      expect(point.sourceNote).toMatch(/genai-perf's own figures/);
      for (const s of ["mean", "p50", "p90", "p99"] as const) {
        const key = s === "mean" ? "avg" : s;
        expect(point.points[s].ttftMs).toBe(j.time_to_first_token[key]);
        expect(point.points[s].e2eMs).toBe(j.request_latency[key]);
        expect(point.points[s].tpotMs).toBe(j.inter_token_latency[key]);
        expect(point.points[s].requestsPerS).toBe(j.request_throughput.avg);
        expect(point.points[s].outputTokPerS).toBe(j.output_token_throughput.avg);
      }
    }
  });
});
