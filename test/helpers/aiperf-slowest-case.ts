import { expect } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as listRoute } from "@/app/api/runs/[id]/aiperf/requests/route";
import { requestListSchema, slowestPayloadSchema, type RequestListQuery } from "@/lib/api/aiperf-requests";
import { listRequests } from "@/lib/store/aiperf-requests";
import type { Db } from "@/lib/store/db";
import { getChartText } from "@/lib/store/chart-payloads";
import { uploadRequest } from "./test-app";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

const BASE_NS = 1_762_551_940_000_000_000n;

/**
 * 80 records whose values repeat (ties at every cut-off), warmup and failed records with the
 * largest values of all (they must not be listed or counted), some records without a TTFT and
 * one without a start time (its row cannot be found by its start: that list is read another way).
 */
export function slowestCaseRecords(): string {
  const lines: string[] = [];
  for (let i = 0; i < 80; i++) {
    const warmup = i < 5;
    const failed = i % 17 === 3;
    const ttft = i % 9 === 4 ? null : warmup || failed ? 900 + i : 10 * (i % 6);
    // Record 50 has no start time and the largest end-to-end latency of the measured ones.
    const e2e = warmup || failed ? 5000 + i : i === 50 ? 4000 : 100 * (i % 7) + 50;
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
        .replace('"START"', i === 50 ? "null" : String(start))
        .replace('"END"', String(start + BigInt(e2e) * 1_000_000n)),
    );
  }
  return lines.join("\n") + "\n";
}

export const getRequestList = (id: string, qs: string) =>
  listRoute(new Request(`http://localhost/api/runs/${id}/aiperf/requests?${qs}`), {
    params: Promise.resolve({ id }),
  });

/**
 * Uploads the records, then asks the requests route the latency view's queries: from the stored
 * payload alone (the rows deleted first) it must answer exactly what the row query answered.
 */
export async function expectStoredSlowestMatchRows(db: Db): Promise<void> {
  const res = await upload(uploadRequest([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]));
  expect(res.status).toBe(201);
  const { id } = await res.json();
  const stored = await getChartText(db, id, AIPERF_CHARTS.slowest.key);
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
  expect(fromRows[4].rows[0]).toMatchObject({ requestId: "req-050", e2eMs: 4000, startS: null });

  // Without the rows (the run's request file), the route still answers from the payload alone, identically.
  await db.deleteFrom("aiperf_requests").where("run_id", "=", id).execute();
  await db.deleteFrom("run_column_files").where("run_id", "=", id).execute();
  for (const [i, q] of queries.entries()) {
    const body = requestListSchema.parse(
      await (await getRequestList(id, `sort=${q.sort}&order=desc&limit=${q.limit}`)).json(),
    );
    expect(body, `${q.sort} limit ${q.limit}`).toEqual(fromRows[i]);
  }
  // The route's defaults (e2e, desc, 20) come from the payload too.
  expect(requestListSchema.parse(await (await getRequestList(id, "")).json())).toEqual(fromRows[7]);
  // Queries the payload does not cover go to the rows (deleted here, so empty).
  const asc = requestListSchema.parse(await (await getRequestList(id, "sort=ttft&order=asc&limit=5")).json());
  expect(asc).toEqual({ total: 0, rows: [], reingestToOpen: false });
  const long = requestListSchema.parse(await (await getRequestList(id, "sort=e2e&limit=21")).json());
  expect(long.rows).toEqual([]);
}
