/** GET /api/compare at p75 (docs/metrics.md §Compare): the statistic is accepted and read per segment. */
import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { POST as upload } from "@/app/api/runs/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { fixture, freshAppEachTest, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

async function uploadRun(dir: string, name: string): Promise<string> {
  const res = await upload(
    uploadRequest(
      [
        { name: "perf_metrics-0.jsonl", path: fixture(`compare/${dir}/perf_metrics-0.jsonl`) },
        { name: "extra-llm-api-config.yml", path: fixture(`compare/${dir}/extra-llm-api-config.yml`) },
      ],
      { name },
    ),
  );
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

describe("GET /api/compare at p75", () => {
  it("reads p75 of every segment: rank 0.75 × 2 = 1.5, halfway between the 2nd and 3rd value", async () => {
    const a = await uploadRun("run-a", "baseline");
    const b = await uploadRun("run-b", "branch");
    const res = await compare(new Request(`http://localhost/api/compare?runs=${a},${b}&stat=p75`));
    expect(res.status).toBe(200);
    const body = compareResponseSchema.parse(await res.json());
    expect(body.stat).toBe("p75");
    // Queue 10/20/30 ms vs 5/10/15 ms → 25 and 12.5; decode 200/300/400 vs 100/150/200 → 350 and 175.
    const queue = body.rows.find((r) => r.key === "segment:ctx_queue")!;
    expect(queue.baseline).toBeCloseTo(25, 6);
    expect(queue.cells[1].value).toBeCloseTo(12.5, 6);
    const decode = body.rows.find((r) => r.key === "segment:decode")!;
    expect(decode.baseline).toBeCloseTo(350, 6);
    expect(decode.cells[1].value).toBeCloseTo(175, 6);
    expect(decode.cells[1].verdict).toBe("better");
  });
});
