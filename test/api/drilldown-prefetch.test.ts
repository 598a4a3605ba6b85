/**
 * A run whose drill-down is still being built (docs/http-api.md): the run list says so with
 * `summaryReadyAt` / `drilldownReadyAt`, and the run page's server render puts no drill-down
 * route (the Timeline view's window) with it until the drill-down is ready, while the
 * view's first chart, stored with the summary, is prefetched as always.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { runListSchema, runSummarySchema, type RunSummary } from "@/lib/api/schemas";
import { GET as timelineRoute } from "@/app/api/runs/[id]/timeline/route";
import { decodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
import { timelineQueryOptions } from "@/lib/api/timeline-query-options";
import { prefetchRunView } from "@/lib/runs/prefetch-first-chart";
import { forgetTimelines } from "@/lib/runs/run-timeline";
import { slowestCaseRecords } from "../helpers/aiperf-slowest-case";
import { gateIngests } from "../helpers/hold-ingests";
import { waitUntil } from "../helpers/wait.mjs";
import { idParams, uploadRequest, useTestApp } from "../helpers/test-app";

async function runOf(id: string): Promise<RunSummary> {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

async function listed(id: string) {
  const res = await listRuns(new Request("http://localhost/api/runs"));
  return runListSchema.parse(await res.json()).runs.find((r) => r.id === id);
}

const WINDOW = { from: null, to: null, lanes: null };

/** Timelines read or being read (lib/runs/run-timeline.ts keeps them on globalThis). */
const keptTimelines = () =>
  (globalThis as { [k: symbol]: Map<string, unknown> | undefined })[Symbol.for("runlens.requestTimelines")]
    ?.size ?? 0;

describe("a run between its summary and its drill-down", () => {
  it("is listed with its readiness, and its page prefetches no drill-down route meanwhile", async () => {
    const { app, cleanup } = await useTestApp({ RUNLENS_DRILLDOWN: "background" });
    // The drill-down waits until the checks on the run between its summary and it are done.
    const drilldown = gateIngests("beforeDrilldown");
    try {
      const answer = await (
        await upload(uploadRequest([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]))
      ).json();
      const id = answer.id as string;
      const building = await runOf(id);
      expect(building.drilldownReadyAt).toBeNull();
      expect(await listed(id)).toMatchObject({
        status: "ready",
        summaryReadyAt: answer.summaryReadyAt,
        drilldownReadyAt: null,
      });

      forgetTimelines();
      const early = new QueryClient();
      expect(await prefetchRunView(early, app.store.db, building, "timeline", WINDOW)).toBeNull();
      expect(early.getQueryData(timelineQueryOptions(id, WINDOW).queryKey)).toBeUndefined();
      // Nor is a read of the rows started, while the drill-down is rewriting them.
      expect(keptTimelines()).toBe(0);
      // The first chart of a view is a summary payload: there already.
      const latency = new QueryClient();
      await prefetchRunView(latency, app.store.db, building, "latency", WINDOW);
      expect(latency.getQueryCache().getAll()).toHaveLength(1);

      drilldown.release();
      const run = await waitUntil(`run ${id}'s drill-down`, async () => {
        const r = await runOf(id);
        return r.drilldownReadyAt !== null && r;
      });
      expect(run.drilldownReadyAt).not.toBeNull();
      expect((await listed(id))?.drilldownReadyAt).toBe(run.drilldownReadyAt);
      const ready = new QueryClient();
      // The window goes with the page as its route's JSON text (components/timeline/timeline-seed.tsx).
      const seed = await prefetchRunView(ready, app.store.db, run, "timeline", WINDOW);
      expect(seed).toMatchObject({ runId: id, window: WINDOW });
      const res = await timelineRoute(new Request(`http://localhost/api/runs/${id}/timeline`), idParams(id));
      expect(seed!.json).toBe(await res.text());
      expect(decodeTimeline(timelineWireSchema.parse(JSON.parse(seed!.json))).inWindow).toBeGreaterThan(0);

      // The server's warm-up (bin/warm-routes.mjs) sends the stored first window, and where none
      // is stored (a run stored before it) sends nothing and starts no read of the run's timeline.
      forgetTimelines();
      const warm = await prefetchRunView(new QueryClient(), app.store.db, run, "timeline", WINDOW, {
        warmUp: true,
      });
      expect(warm?.json).toBe(seed!.json);
      await app.store.db
        .updateTable("run_timeline_columns")
        .set({ first_window: null })
        .where("run_id", "=", id)
        .execute();
      expect(
        await prefetchRunView(new QueryClient(), app.store.db, run, "timeline", WINDOW, { warmUp: true }),
      ).toBeNull();
      expect(keptTimelines()).toBe(0);
      // A visitor's page then cuts it from the columns, as for such a run.
      expect((await prefetchRunView(new QueryClient(), app.store.db, run, "timeline", WINDOW))?.json).toBe(
        seed!.json,
      );
    } finally {
      drilldown.release();
      await cleanup();
    }
  });
});
