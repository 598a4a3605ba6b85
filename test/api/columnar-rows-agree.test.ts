/**
 * A run stored as a Parquet request file and the same run stored as `aiperf_requests` rows (as
 * runs ingested before the file existed are) answer every reader alike: request lists, goodput
 * and the trace export, on both stores.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as goodput } from "@/app/api/runs/[id]/goodput/route";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import type { AppContext } from "@/lib/server/app-context";
import { BatchInserter } from "@/lib/store/batch-insert";
import { AIPERF_REQUEST_COLUMNS } from "@/lib/store/tables/aiperf";
import { storedAiperfRows } from "../helpers/aiperf-request-rows";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { fixture, idParams, uploadRun, useTestApp } from "../helpers/test-app";

const stores: Array<[string, string | undefined]> = [["SQLite", undefined]];
if (PG_URL) stores.push(["PostgreSQL", PG_URL]);

const QUERIES = [
  "sort=ttft&order=desc&limit=20",
  "sort=e2e&order=asc&limit=7",
  "sort=itl&order=desc&limit=50",
  "sort=start&order=asc&limit=30",
  "sort=start&order=desc&limit=5",
];

describe.each(stores)("a run's request file and its rows agree on %s", (_store, pgUrl) => {
  let app: AppContext;
  let cleanup: (() => Promise<void>) | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const schema = pgUrl ? await freshSchema(pgUrl) : undefined;
    drop = schema?.drop;
    ({ app, cleanup } = await useTestApp({ DATABASE_URL: schema?.url }));
  });
  afterAll(async () => {
    await cleanup?.();
    await drop?.();
  });

  const answers = async (id: string) => {
    const get = async (res: Response) => {
      expect(res.status).toBe(200);
      return res.text();
    };
    const out: string[] = [];
    for (const q of QUERIES)
      out.push(
        await get(
          await listRequests(
            new Request(`http://localhost/api/runs/${id}/aiperf/requests?${q}`),
            idParams(id),
          ),
        ),
      );
    out.push(
      await get(
        await goodput(
          new Request(`http://localhost/api/runs/${id}/goodput?slo=ttft:req:80,tpot:req:10`),
          idParams(id),
        ),
      ),
    );
    out.push(
      await get(await getTrace(new Request(`http://localhost/api/runs/${id}/trace.json`), idParams(id))),
    );
    return out;
  };

  it("answers the same from the file and from rows", async () => {
    const files = ["profile_export.jsonl", "profile_export_aiperf.json"];
    const id = await uploadRun(
      files.map((f) => ({ name: `c4/${f}`, path: path.join(fixture("aiperf-real-c4"), f) })),
    );
    const fromFile = await answers(id);
    // The run as an older Runlens stored it: its rows in aiperf_requests, no request file.
    const db = app.store.db;
    const rows = await storedAiperfRows(db, id);
    expect(rows).toHaveLength(200);
    const inserter = new BatchInserter(db, "aiperf_requests", AIPERF_REQUEST_COLUMNS);
    for (const r of rows) if (inserter.push(r)) await inserter.flush();
    await inserter.flush();
    await db.deleteFrom("run_column_files").where("run_id", "=", id).execute();
    const fromRows = await answers(id);
    expect(fromRows).toEqual(fromFile);
  });
});
