/**
 * A run stored as a Parquet request file and the same run stored as `aiperf_requests` rows (as
 * runs ingested before the file existed are) answer every reader alike: request lists, goodput
 * and the trace export, on both stores.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as goodput } from "@/app/api/runs/[id]/goodput/route";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import { storeRunAsRows } from "../helpers/aiperf-request-rows";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { fixture, idParams, uploadRun } from "../helpers/test-app";

const QUERIES = [
  "sort=ttft&order=desc&limit=20",
  "sort=e2e&order=asc&limit=7",
  "sort=itl&order=desc&limit=50",
  "sort=start&order=asc&limit=30",
  "sort=start&order=desc&limit=5",
];

describe.each(TEST_STORES)("a run's request file and its rows agree on %s", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

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
    expect(await storeRunAsRows(env.app.store.db, id)).toBe(200);
    const fromRows = await answers(id);
    expect(fromRows).toEqual(fromFile);
  });
});
