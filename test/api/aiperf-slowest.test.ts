import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as listRoute } from "@/app/api/runs/[id]/aiperf/requests/route";
import { AIPERF_SLOWEST_CHART, slowestPayloadSchema } from "@/lib/metrics/aiperf-slowest";
import { listRequests, requestListSchema, type RequestListQuery } from "@/lib/metrics/requests-query";
import type { AppContext } from "@/lib/server/app-context";
import { getChartData } from "@/lib/store/runs-repo";
import { uploadRequest, useTestApp } from "../helpers/test-app";

let app: AppContext;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ app, cleanup } = await useTestApp());
});
afterEach(async () => cleanup());

const BASE_NS = 1_762_551_940_000_000_000n;

/**
 * 80 records whose values repeat (ties at every cut-off), warmup and failed records with the
 * largest values of all (they must not be listed or counted), and some records without a TTFT.
 */
function records(): string {
  const lines: string[] = [];
  for (let i = 0; i < 80; i++) {
    const warmup = i < 5;
    const failed = i % 17 === 3;
    const ttft = i % 9 === 4 ? null : warmup || failed ? 900 + i : 10 * (i % 6);
    const e2e = warmup || failed ? 5000 + i : 100 * (i % 7) + 50;
    const start = BASE_NS + BigInt(i) * 1_000_000n;
    lines.push(
      JSON.stringify({
        metadata: {
          x_request_id: `req-${String(i).padStart(3, "0")}`,
          benchmark_phase: warmup ? "warmup" : "profiling",
          was_cancelled: false,
          request_start_ns: "START",
          request_end_ns: "END",
        },
        metrics: {
          ...(ttft === null ? {} : { time_to_first_token: { value: ttft, unit: "ms" } }),
          request_latency: { value: e2e, unit: "ms" },
          inter_token_latency: { value: (i * 5) % 4, unit: "ms" },
          input_sequence_length: { value: 100 + i, unit: "tokens" },
          output_sequence_length: { value: 20, unit: "tokens" },
        },
        ...(failed ? { error: { type: "Timeout", code: 504, message: "late" } } : {}),
      })
        .replace('"START"', String(start))
        .replace('"END"', String(start + BigInt(e2e) * 1_000_000n)),
    );
  }
  return lines.join("\n") + "\n";
}

const get = (id: string, qs: string) =>
  listRoute(new Request(`http://localhost/api/runs/${id}/aiperf/requests?${qs}`), {
    params: Promise.resolve({ id }),
  });

describe("slowest requests stored at ingest", () => {
  it("answers the latency view's queries exactly as the row query does, ties and warmup included", async () => {
    const res = await upload(uploadRequest([{ name: "profile_export.jsonl", content: records() }]));
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const db = app.store.db;
    const stored = await getChartData(db, id, AIPERF_SLOWEST_CHART);
    expect(stored).toBeDefined();
    const payload = slowestPayloadSchema.parse(JSON.parse(stored!));
    // 80 records − 5 warmup − 4 failed profiling records (3, 20, 37, 54, 71 minus warmup 3).
    expect(payload.total).toBe(71);

    const queries: RequestListQuery[] = [];
    for (const sort of ["ttft", "e2e", "itl"] as const)
      for (const limit of [1, 7, 10, 20]) queries.push({ sort, order: "desc", limit });
    const fromRows = await Promise.all(queries.map((q) => listRequests(db, id, q)));
    for (const body of fromRows)
      for (const r of body.rows) expect(Number(r.requestId!.slice(4))).toBeGreaterThan(4);

    // Without the rows, the route still answers from the payload alone, identically.
    await db.deleteFrom("aiperf_requests").where("run_id", "=", id).execute();
    for (const [i, q] of queries.entries()) {
      const body = requestListSchema.parse(
        await (await get(id, `sort=${q.sort}&order=desc&limit=${q.limit}`)).json(),
      );
      expect(body, `${q.sort} limit ${q.limit}`).toEqual(fromRows[i]);
    }
    // The route's defaults (e2e, desc, 20) come from the payload too.
    expect(requestListSchema.parse(await (await get(id, "")).json())).toEqual(fromRows[7]);
    // Queries the payload does not cover go to the rows (deleted here, so empty).
    const asc = requestListSchema.parse(await (await get(id, "sort=ttft&order=asc&limit=5")).json());
    expect(asc).toEqual({ total: 0, rows: [] });
    const long = requestListSchema.parse(await (await get(id, "sort=e2e&limit=21")).json());
    expect(long.rows).toEqual([]);
  });

  it("lists ties in line order and keeps every tied value at the cut-off", async () => {
    const res = await upload(uploadRequest([{ name: "profile_export.jsonl", content: records() }]));
    const { id } = await res.json();
    const body = requestListSchema.parse(await (await get(id, "sort=ttft&order=desc&limit=20")).json());
    const ttfts = body.rows.map((r) => r.ttftMs!);
    expect(ttfts).toEqual([...ttfts].sort((a, b) => b - a));
    expect(ttfts[0]).toBe(50);
    for (let i = 1; i < body.rows.length; i++)
      if (ttfts[i] === ttfts[i - 1]) expect(body.rows[i].requestId! > body.rows[i - 1].requestId!).toBe(true);
  });
});
