/**
 * aiperf records stored as the run's Parquet file and read through DuckDB, on both stores: the
 * real aiperf 0.6.0 run in aiperf-real-c4, uploaded through the route. DuckDB's TTFT over the
 * file must be aiperf's own (profile_export_aiperf.json, written by aiperf's metric summary:
 * numpy mean and linear-interpolated percentiles over the successful profiling requests), and
 * the file must be readable again from the blob store once the local cache is gone.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { aiperfRequestsSource } from "@/lib/store/columnar/aiperf-request-file";
import { queryRows } from "@/lib/store/columnar/engine";
import type { AppContext } from "@/lib/server/app-context";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { fixture, idParams, uploadRun, useTestApp } from "../helpers/test-app";

const SHARED = "/work/shared/fixtures/aiperf-real-c4";
const DIR = fs.existsSync(path.join(SHARED, "profile_export.jsonl")) ? SHARED : fixture("aiperf-real-c4");
const aiperf = JSON.parse(fs.readFileSync(path.join(DIR, "profile_export_aiperf.json"), "utf8")) as {
  time_to_first_token: { avg: number; p50: number; p90: number; p99: number };
  request_count: { avg: number };
};

const stores: Array<[string, string | undefined]> = [["SQLite", undefined]];
if (PG_URL) stores.push(["PostgreSQL", PG_URL]);

describe.each(stores)("aiperf records as a Parquet file on %s", (_store, pgUrl) => {
  let app: AppContext;
  let dataDir: string;
  let cleanup: (() => Promise<void>) | undefined;
  let drop: (() => Promise<void>) | undefined;
  let id: string;
  beforeAll(async () => {
    const schema = pgUrl ? await freshSchema(pgUrl) : undefined;
    drop = schema?.drop;
    ({ app, dataDir, cleanup } = await useTestApp({ DATABASE_URL: schema?.url }));
    id = await uploadRun(
      ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
        name,
        path: path.join(DIR, name),
      })),
    );
  });
  afterAll(async () => {
    await cleanup?.();
    await drop?.();
  });

  it("stores every record in one file and no request rows", async () => {
    const files = await app.store.db
      .selectFrom("run_column_files")
      .selectAll()
      .where("name", "=", "aiperf-requests")
      .execute();
    expect(files).toEqual([expect.objectContaining({ run_id: id, name: "aiperf-requests" })]);
    expect(Number(files[0].rows)).toBe(200);
    // Beside it, the run's timeline columns (lib/store/columnar/timeline-file.ts).
    const all = await app.store.db.selectFrom("run_column_files").select("name").execute();
    expect(all.map((f) => f.name).sort()).toEqual(["aiperf-requests", "timeline"]);
    const rows = await app.store.db.selectFrom("aiperf_requests").select("run_id").execute();
    expect(rows).toEqual([]);
  });

  it("gives aiperf's own TTFT mean, p50, p90 and p99 from DuckDB over the file", async () => {
    const src = (await aiperfRequestsSource(app.store.db, id))!;
    const measured = `select ttft_ms as x from ${src}
      where phase = 'profiling' and ok = 1 and ttft_ms is not null and isfinite(ttft_ms)`;
    const [s] = await queryRows<{ n: number; mean: number }>(
      `select count(*)::integer as n, avg(x) as mean from (${measured})`,
    );
    // numpy's linear percentile (docs/metrics.md §Statistics) in SQL: rank q/100 × (n − 1),
    // lo + (hi − lo) × frac. DuckDB's quantile_cont interpolates otherwise and is one ulp off
    // aiperf's p99 here.
    const q = await queryRows<{ v: number }>(
      `with s as (select x, row_number() over (order by x) - 1 as i, count(*) over () as n from (${measured})),
        r as (select t.q, t.q::double / 100 * (n - 1)::double as rank
          from (select distinct n from s), unnest([50, 90, 99]) as t(q))
      select lo.x + (hi.x - lo.x) * (r.rank - floor(r.rank)) as v
        from r join s lo on lo.i = floor(r.rank) join s hi on hi.i = ceil(r.rank) order by r.q`,
    );
    const want = aiperf.time_to_first_token;
    const got = q.map((r) => r.v);
    expect(s.n).toBe(aiperf.request_count.avg);
    // aiperf takes its percentiles over nanoseconds and divides after; the records carry
    // milliseconds, so the last bits of a value between two records may differ (p99 here:
    // 90.83710244999999 against 90.83710245).
    expect(s.mean).toBeCloseTo(want.avg, 11);
    [want.p50, want.p90, want.p99].forEach((v, i) => expect(got[i]).toBeCloseTo(v, 11));
    // The summary the page shows (lib/metrics over the parsed records) is DuckDB's to the last bit.
    const run = await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
    const t = run.requests.ttftMs;
    expect([t.p50, t.p90, t.p99]).toEqual(got);
    // A sum's last bits depend on its order (numpy sums pairwise, DuckDB in parallel parts).
    expect(t.mean).toBeCloseTo(s.mean, 12);
  });

  it("reads the file back from the blob store once its cache file is gone", async () => {
    const ask = async () =>
      (
        await listRequests(
          new Request(`http://localhost/api/runs/${id}/aiperf/requests?sort=ttft&order=asc&limit=3`),
          idParams(id),
        )
      ).json();
    const before = await ask();
    expect(before.total).toBe(aiperf.request_count.avg);
    const cache = path.join(dataDir, "columnar-cache");
    const { sha256 } = await app.store.db
      .selectFrom("run_column_files")
      .select("sha256")
      .where("run_id", "=", id)
      .where("name", "=", "aiperf-requests")
      .executeTakeFirstOrThrow();
    const cached = `${sha256}.parquet`;
    expect(fs.readdirSync(cache)).toContain(cached);
    fs.rmSync(path.join(cache, cached));
    expect(await ask()).toEqual(before);
    expect(fs.existsSync(path.join(cache, cached))).toBe(true);
  });
});
