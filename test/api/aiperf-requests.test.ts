import { describe, expect, it } from "vitest";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { requestListSchema } from "@/lib/api/aiperf-requests";
import { fixture, freshAppEachTest, uploadRun } from "../helpers/test-app";

freshAppEachTest();

const get = (id: string, qs: string) =>
  listRequests(new Request(`http://localhost/api/runs/${id}/aiperf/requests?${qs}`), {
    params: Promise.resolve({ id }),
  });

describe("GET /api/runs/{id}/aiperf/requests", () => {
  it("lists the slowest requests with their exact ids, and validates the query", async () => {
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: fixture("aiperf/qwen-c4__profile_export.jsonl") },
    ]);
    const body = requestListSchema.parse(await (await get(id, "sort=ttft&order=desc&limit=3")).json());
    expect(body.total).toBe(10);
    expect(body.rows).toHaveLength(3);
    // The largest TTFT of the 10 records (numpy max) and rows in descending order.
    expect(body.rows[0].ttftMs).toBeCloseTo(70.740763, 6);
    expect(body.rows[0].ttftMs! >= body.rows[1].ttftMs! && body.rows[1].ttftMs! >= body.rows[2].ttftMs!).toBe(
      true,
    );
    expect(body.rows[0].requestId).toMatch(/^[0-9a-f-]{36}$/);
    const first = requestListSchema.parse(await (await get(id, "sort=start&order=asc&limit=1")).json());
    expect(first.rows[0].startS).toBe(0);
    const bad = await get(id, "sort=bogus");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("sort"),
    });
    expect((await get("AAAAAAAAAAAAAAAAAAAAAA", "")).status).toBe(404);
  });
});
