/**
 * "Summary ready" before "drill-down ready" (docs/http-api.md): an upload answers once the
 * summary is stored, while the aiperf request rows are re-anchored and the slowest-request lists
 * read back from them in the background. Meanwhile the run is listed with its final summary, says
 * its drill-down is not ready, its drill-down routes answer 409, and it cannot be deleted or
 * re-ingested; then the drill-down lands
 * whole, with the same numbers an upload that waits for it gets.
 */
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { DELETE as deleteRun, GET as getRun } from "@/app/api/runs/[id]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { GET as listRoute } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as timelineRoute } from "@/app/api/runs/[id]/timeline/route";
import { failInterruptedIngests } from "@/lib/store/interrupted-ingest";
import { getChartText } from "@/lib/store/chart-payloads";
import { slowestCaseRecords } from "../helpers/aiperf-slowest-case";
import { gateIngests } from "../helpers/hold-ingests";
import { waitUntil } from "../helpers/wait.mjs";
import { idParams, uploadRequest, useTestApp } from "../helpers/test-app";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

async function runOf(id: string) {
  return (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
}

async function firstByStart(id: string) {
  const res = await listRoute(
    new Request(`http://localhost/api/runs/${id}/aiperf/requests?sort=start&order=asc&limit=1`),
    idParams(id),
  );
  return (await res.json()).rows[0];
}

/** What must not depend on when the drill-down is built: the summary blocks and the lists. */
async function stored(id: string) {
  const run = (await runOf(id)) as Record<string, unknown> & { files: Array<Record<string, unknown>> };
  // Ids, names and times differ between two uploads of one file; nothing else may.
  const blocks: Record<string, unknown> = { ...run };
  for (const k of ["id", "name", "createdAt", "summaryReadyAt", "drilldownReadyAt", "ingestedAt"])
    delete blocks[k];
  blocks.files = run.files.map((f) => ({ ...f, id: null }));
  return { blocks, first: await firstByStart(id) };
}

describe("an upload whose drill-down is built after it answers", () => {
  it("answers with the summary ready, then the drill-down lands whole", async () => {
    const { app, cleanup } = await useTestApp({ RUNLENS_DRILLDOWN: "background" });
    // The drill-down waits until the checks on the run between its summary and it are done.
    const drilldown = gateIngests("beforeDrilldown");
    try {
      const res = await upload(
        uploadRequest([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]),
      );
      expect(res.status).toBe(201);
      const answer = await res.json();
      expect(answer.status).toBe("ready");
      expect(Date.parse(answer.summaryReadyAt)).not.toBeNaN();
      expect(answer.drilldownReadyAt).toBeNull();
      const id = answer.id as string;

      const building = await runOf(id);
      expect(building.status).toBe("ready");
      expect(building.requests.count).toBeGreaterThan(0);
      expect(building.summaryReadyAt).toBe(answer.summaryReadyAt);
      expect(building.drilldownReadyAt).toBeNull();
      expect(await getChartText(app.store.db, id, AIPERF_CHARTS.slowest.key)).toBeUndefined();
      // The ingest still owns the run: no delete, no second ingest, and its heartbeat beats.
      const del = await deleteRun(new Request("http://localhost/x", { method: "DELETE" }), idParams(id));
      expect(del.status).toBe(409);
      const again = await reingest(new Request("http://localhost/x", { method: "POST" }), idParams(id));
      expect(again.status).toBe(409);
      expect(await failInterruptedIngests(app.store.db, app.config.ingestStaleMs)).toBe(0);
      // Drill-down routes answer nothing partial meanwhile.
      const list = await listRoute(
        new Request(`http://localhost/api/runs/${id}/aiperf/requests?sort=ttft`),
        idParams(id),
      );
      expect(list.status).toBe(409);
      expect((await list.json()).error.code).toBe("drilldown_building");
      const timeline = await timelineRoute(
        new Request(`http://localhost/api/runs/${id}/timeline`),
        idParams(id),
      );
      expect(timeline.status).toBe(409);

      drilldown.release();
      const run = await waitUntil(`run ${id}'s drill-down`, async () => {
        const r = await runOf(id);
        return r.drilldownReadyAt !== null && r;
      });
      expect(run.status).toBe("ready");
      expect(Date.parse(run.drilldownReadyAt)).toBeGreaterThanOrEqual(Date.parse(run.summaryReadyAt));
      expect(await getChartText(app.store.db, id, AIPERF_CHARTS.slowest.key)).toBeDefined();
      const background = await stored(id);

      // The same file through an upload that waits for its drill-down stores the same.
      process.env.RUNLENS_DRILLDOWN = "inline";
      const { resetAppContext } = await import("@/lib/server/app-context");
      await resetAppContext();
      const inline = await (
        await upload(uploadRequest([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]))
      ).json();
      expect(inline.drilldownReadyAt).not.toBeNull();
      expect(await stored(inline.id)).toEqual(background);
    } finally {
      drilldown.release();
      await cleanup();
    }
  });
});
