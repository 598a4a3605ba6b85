/**
 * The slowest lists open their requests: each stored row carries the id the run's request detail
 * (the timeline's drill-down, GET /api/runs/{id}/timeline/requests/{rid}) opens it by, and that
 * id resolves to the same request. A list stored before rows carried ids (chart version 1) is
 * read with every id null and says that a re-ingest makes its rows open; re-ingest gives the ids.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { GET as getTimelineRequest } from "@/app/api/runs/[id]/timeline/requests/[rid]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { requestListSchema, slowestPayloadSchema, SLOWEST_SORTS } from "@/lib/api/aiperf-requests";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { timelineRequestSchema } from "@/lib/api/timeline";
import { getChartText } from "@/lib/store/chart-payloads";
import type { Db } from "@/lib/store/db";
import { getRequestList, slowestCaseRecords } from "../helpers/aiperf-slowest-case";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { fixture, idParams, uploadRun } from "../helpers/test-app";

const detail = (id: string, rid: number) =>
  getTimelineRequest(new Request(`http://localhost/api/runs/${id}/timeline/requests/${rid}`), {
    params: Promise.resolve({ id, rid: String(rid) }),
  });

async function storedPayload(db: Db, id: string) {
  const text = await getChartText(db, id, AIPERF_CHARTS.slowest.key);
  expect(text).toBeDefined();
  return slowestPayloadSchema.parse(JSON.parse(text!));
}

/** Every row with an id opens the request it lists: same x_request_id, E2E, TTFT and start. */
async function expectIdsResolve(
  id: string,
  rows: ReturnType<typeof slowestPayloadSchema.parse>["lists"]["e2e"],
) {
  for (const row of rows) {
    if (row.rid === null) continue;
    const res = await detail(id, row.rid);
    expect(res.status, `rid ${row.rid}`).toBe(200);
    const r = timelineRequestSchema.parse(await res.json());
    expect(r.requestId).toBe(row.requestId);
    expect(r.e2eMs).toBe(row.e2eMs);
    expect(r.ttftMs).toBe(row.ttftMs);
    expect(r.startMs).toBe(row.startS === null ? null : row.startS * 1000);
  }
}

describe.each(TEST_STORES)("slowest lists' request ids on %s", (_name, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("carry the id the request detail opens, which resolves to the row's request", async () => {
    const db = env.app.store.db;
    const id = await uploadRun([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]);
    const payload = await storedPayload(db, id);
    expect(payload.reingestToOpen).toBe(false);
    for (const sort of SLOWEST_SORTS) {
      const rows = payload.lists[sort];
      expect(rows.length).toBeGreaterThan(0);
      // Only the record without a start time (req-050, on no timeline) has no id.
      for (const r of rows) expect(r.rid === null, `${sort} ${r.requestId}`).toBe(r.requestId === "req-050");
      await expectIdsResolve(id, rows);
    }
    expect(payload.lists.e2e[0]).toMatchObject({ requestId: "req-050", rid: null });
    // The route answers the ids as stored.
    const body = requestListSchema.parse(
      await (await getRequestList(id, "sort=e2e&order=desc&limit=10")).json(),
    );
    expect(body.rows).toEqual(payload.lists.e2e.slice(0, 10));
    expect(body.reingestToOpen).toBe(false);
  });

  it("resolve on a real aiperf run, a list asked of the rows carries them too", async () => {
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: fixture("aiperf/qwen-c4__profile_export.jsonl") },
    ]);
    const payload = await storedPayload(env.app.store.db, id);
    for (const sort of SLOWEST_SORTS) {
      expect(payload.lists[sort].every((r) => r.rid !== null)).toBe(true);
      await expectIdsResolve(id, payload.lists[sort]);
    }
    // Past the stored limit the list is read from the rows, with the same ids.
    const long = requestListSchema.parse(await (await getRequestList(id, "sort=e2e&limit=50")).json());
    expect(long.rows.slice(0, payload.lists.e2e.length)).toEqual(payload.lists.e2e);
    expect(long.reingestToOpen).toBe(false);
  });

  it("a list stored before rows carried ids stays listed without ids, says re-ingest, and re-ingest gives them", async () => {
    const db = env.app.store.db;
    const id = await uploadRun([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]);
    const current = await storedPayload(db, id);
    // As version 1 wrote it: no ids, no re-ingest flag, no version column.
    const old: Record<string, unknown> = {
      ...current,
      lists: Object.fromEntries(
        SLOWEST_SORTS.map((k) => [
          k,
          current.lists[k].map((r) => {
            const row: Record<string, unknown> = { ...r };
            delete row.rid;
            return row;
          }),
        ]),
      ),
    };
    delete old.reingestToOpen;
    await db
      .deleteFrom("chart_data")
      .where("run_id", "=", id)
      .where("key", "=", AIPERF_CHARTS.slowest.key)
      .execute();
    await sql`insert into chart_data (run_id, key, data) values (${id}, ${AIPERF_CHARTS.slowest.key}, ${JSON.stringify(old)})`.execute(
      db,
    );
    const body = requestListSchema.parse(
      await (await getRequestList(id, "sort=ttft&order=desc&limit=10")).json(),
    );
    expect(body.reingestToOpen).toBe(true);
    expect(body.rows).toEqual(current.lists.ttft.slice(0, 10).map((r) => ({ ...r, rid: null })));

    expect((await reingest(new Request("http://localhost", { method: "POST" }), idParams(id))).status).toBe(
      200,
    );
    const again = requestListSchema.parse(
      await (await getRequestList(id, "sort=ttft&order=desc&limit=10")).json(),
    );
    expect(again.reingestToOpen).toBe(false);
    expect(again.rows).toEqual(current.lists.ttft.slice(0, 10));
  });

  it("are left out on a run whose timeline is TensorRT-LLM's requests (their ids are theirs)", async () => {
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: fixture("aiperf/qwen-c4__profile_export.jsonl") },
      { name: "perf_metrics.jsonl", path: fixture("trtllm/perf_metrics-disagg-reconstructed.jsonl") },
    ]);
    const payload = await storedPayload(env.app.store.db, id);
    expect(payload.lists.e2e.length).toBeGreaterThan(0);
    for (const sort of SLOWEST_SORTS) expect(payload.lists[sort].every((r) => r.rid === null)).toBe(true);
    expect(payload.reingestToOpen).toBe(false);
  });
});
