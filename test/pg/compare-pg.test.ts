import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { POST as upload } from "@/app/api/runs/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";
import { fixture, uploadRequest } from "../helpers/test-app";

/** GET /api/compare on PostgreSQL: the chart-key lookup and summaries through the other dialect. */
describe.skipIf(!PG_URL)("compare on PostgreSQL", () => {
  usePgTestApp();

  it("compares two runs against the baseline", async () => {
    const ids: string[] = [];
    for (const dir of ["run-a", "run-b"]) {
      const res = await upload(
        uploadRequest([
          { name: "perf_metrics-0.jsonl", path: fixture(`compare/${dir}/perf_metrics-0.jsonl`) },
          { name: "extra-llm-api-config.yml", path: fixture(`compare/${dir}/extra-llm-api-config.yml`) },
        ]),
      );
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const res = await compare(new Request(`http://localhost/api/compare?runs=${ids.join(",")}&stat=p50`));
    expect(res.status).toBe(200);
    const body = compareResponseSchema.parse(await res.json());
    expect(body.chartKeys[ids[1]]).toContain("trtllm-segments");
    const queue = body.rows.find((r) => r.key === "segment:ctx_queue")!;
    expect(queue.cells[1].percent).toBeCloseTo(-0.5, 6);
    expect(body.collectorMismatches.map((m) => m.flag)).toEqual(["enable_iter_perf_stats"]);
  });
});
