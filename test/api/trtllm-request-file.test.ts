/**
 * TensorRT-LLM's per-request rows are the run's Parquet file (lib/store/columnar/trtllm-request-file.ts):
 * an upload writes no `trtllm_requests` row, and every reader of the requests (the sample, a
 * request's detail, look-ups by id, goodput, the trace export, the timeline's rows, the client↔server
 * join's pages, the per-request values verdicts resample, the request count) answers the same from
 * the file as from the same run stored as rows (as runs ingested before the file are), on both
 * stores.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as goodput } from "@/app/api/runs/[id]/goodput/route";
import { GET as requestById } from "@/app/api/runs/[id]/requests/by-id/route";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import { GET as requestDetail } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { GET as sampleRequests } from "@/app/api/runs/[id]/trtllm/requests/route";
import { rebuildRowRuns, runsStoredAsRows } from "@/lib/ingest/rebuild-row-runs";
import { trtllmRequestFileOptions } from "@/lib/store/columnar/trtllm-request-file";
import { trtllmGoodputPages } from "@/lib/store/goodput-rows";
import { requestValuesByRun } from "@/lib/store/series-repo";
import { eachTrtllmTimelineRow } from "@/lib/store/timeline-rows";
import { trtllmRequestCount, trtllmTracePages } from "@/lib/store/trace-rows";
import {
  requestRow,
  requestRowBySharedId,
  sampleRequestRows,
  sharedIdPages,
} from "@/lib/store/trtllm-requests";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRun, waitForDrilldown } from "../helpers/test-app";
import {
  storedTrtllmRows,
  storeTrtllmRequestsAsRows,
  trtllmRequestsStoredAs,
} from "../helpers/trtllm-request-rows";

const N = 300;
const SPILL_BYTES = 64 * 1024;
const { spillBytes } = trtllmRequestFileOptions;
const url = (id: string, rest: string) => new Request(`http://localhost/api/runs/${id}/${rest}`);

describe.each(TEST_STORES)("TensorRT-LLM requests as the run's file on %s", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  const text = async (res: Response, status = 200) => {
    const body = await res.text();
    expect(res.status, body).toBe(status);
    return body;
  };

  /** Every reader's answer for the run, as text. */
  const answers = async (id: string, ids: string[]) => {
    const db = env.app.store.db;
    const out: Record<string, unknown> = {};
    for (const sort of ["arrival", "ttft", "e2e"])
      for (const order of ["asc", "desc"]) {
        out[`sample ${sort} ${order}`] = await text(
          await sampleRequests(url(id, `trtllm/requests?sort=${sort}&order=${order}&limit=40`), idParams(id)),
        );
        out[`sample rows ${sort} ${order}`] = await sampleRequestRows(
          db,
          id,
          sort as "ttft",
          order as "asc",
          N,
        );
      }
    out["sample all"] = await text(await sampleRequests(url(id, "trtllm/requests"), idParams(id)));
    for (const idx of [0, 1, 17, 150, N - 1]) {
      out[`detail ${idx}`] = await text(
        await requestDetail(url(id, `trtllm/requests/${idx}`), {
          params: Promise.resolve({ id, idx: String(idx) }),
        }),
      );
      out[`row ${idx}`] = await requestRow(db, id, idx);
    }
    out["detail past the end"] = await text(
      await requestDetail(url(id, `trtllm/requests/${N}`), {
        params: Promise.resolve({ id, idx: String(N) }),
      }),
      404,
    );
    out["row past the end"] = await requestRow(db, id, N);
    for (const rid of [...ids, "no-such-request"]) {
      const res = await requestById(url(id, `requests/by-id?rid=${encodeURIComponent(rid)}`), idParams(id));
      out[`by id ${rid}`] = [res.status, await res.text()];
      out[`shared id ${rid}`] = await requestRowBySharedId(db, id, rid);
    }
    out.goodput = await text(
      await goodput(url(id, "goodput?slo=ttft:req:80,tpot:req:10,e2e:p90:900"), idParams(id)),
    );
    out.trace = await text(await getTrace(url(id, "trace.json"), idParams(id)));
    out.count = await trtllmRequestCount(db, id);
    const pages = async <T>(gen: AsyncIterable<T[]>) => {
      const all: T[][] = [];
      for await (const p of gen) all.push(p);
      return all;
    };
    out["goodput pages"] = await pages(trtllmGoodputPages(db, id, 64));
    out["shared id pages"] = await pages(sharedIdPages(db, id, 100));
    out["trace pages"] = await pages(trtllmTracePages(db, id, N, 45, { page: 7 }));
    const timeline: unknown[] = [];
    await eachTrtllmTimelineRow(db, id, (r) => timeline.push(r));
    // In idx order from the file and from SQLite's key; PostgreSQL's rows come in no set order
    // (the timeline places bars by their start).
    out.timeline = timeline.sort((a, b) => (a as number[])[0] - (b as number[])[0]);
    // Read from the requests: the values stored with the run are put aside.
    await db.deleteFrom("run_metric_values").where("run_id", "=", id).execute();
    for (const field of ["server_ttft", "server_e2e"] as const)
      out[field] = (await requestValuesByRun(db, [id], field)).map((v) => [...v]);
    return out;
  };

  it("writes no row, and every reader answers the same from the file as from rows", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-file-"));
    let id: string;
    try {
      const run = generateTrtllmRun({
        dir,
        mode: "disaggregated",
        requests: N,
        seed: 28,
        stepsPerRequest: 3,
        dropServerFirstTokenRate: 0.1,
        noTransferStampsRate: 0.1,
      });
      // Staged text moved to a segment every 64 kB: the file is written from many segments.
      trtllmRequestFileOptions.spillBytes = SPILL_BYTES;
      id = await uploadRun(run.files.map((f: string) => ({ name: path.basename(f), path: f })));
    } finally {
      trtllmRequestFileOptions.spillBytes = spillBytes;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await waitForDrilldown(id);
    const db = env.app.store.db;
    expect(await trtllmRequestsStoredAs(db, id)).toEqual({ rows: 0, fileRows: N });
    const stored = await storedTrtllmRows(db, id);
    expect(stored.map((r) => r.idx)).toEqual([...Array(N).keys()]);
    // What DuckDB held staged stayed within the budget and one row, whatever the run's size.
    const rowChars = (r: (typeof stored)[number]) =>
      Object.values(r).reduce((n: number, v) => n + (typeof v === "string" ? v.length : 0), 0) - id.length;
    const longest = Math.max(...stored.map(rowChars));
    const all = stored.reduce((n, r) => n + rowChars(r), 0);
    expect(all).toBeGreaterThan(4 * SPILL_BYTES);
    expect(trtllmRequestFileOptions.peakCharsHeld).toBeLessThan(SPILL_BYTES + longest);
    expect(trtllmRequestFileOptions.peakRowsHeld).toBeLessThan(N / 4);
    // Each id kind of a few requests, as look-ups by id find them.
    const ids = [0, 5, 299].flatMap((i) =>
      [stored[i].disagg_request_id, stored[i].request_id, stored[i].ctx_request_id].filter(
        (v): v is string => v !== null,
      ),
    );
    expect(ids.length).toBeGreaterThanOrEqual(6);

    const fromFile = await answers(id, ids);
    // The run as an older Runlens stored it: its rows in trtllm_requests, no request file.
    expect(await storeTrtllmRequestsAsRows(db, id)).toBe(N);
    expect(await trtllmRequestsStoredAs(db, id)).toEqual({ rows: N, fileRows: null });
    expect(await storedTrtllmRows(db, id)).toEqual(stored);
    expect(await runsStoredAsRows(db)).toEqual([id]);
    const fromRows = await answers(id, ids);
    for (const k of Object.keys(fromFile)) expect(fromRows[k], k).toEqual(fromFile[k]);
    expect(Object.keys(fromRows)).toEqual(Object.keys(fromFile));

    // The background rebuild makes it a run with the file again, its rows gone, the same answers.
    expect(await rebuildRowRuns(env.app)).toEqual({ rebuilt: [id], failed: [], skipped: [] });
    expect(await trtllmRequestsStoredAs(db, id)).toEqual({ rows: 0, fileRows: N });
    expect(await runsStoredAsRows(db)).toEqual([]);
    const rebuilt = await answers(id, ids);
    for (const k of Object.keys(fromFile)) expect(rebuilt[k], k).toEqual(fromFile[k]);
  }, 240_000);
});
