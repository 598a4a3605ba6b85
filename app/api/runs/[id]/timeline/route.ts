import { runParamsSchema } from "@/lib/api/route-params";
import { timelineWireSchema, timelineQuerySchema } from "@/lib/api/timeline";
import { notFound } from "@/lib/server/http";
import { parseInSteps } from "@/lib/server/parse-in-steps";
import { drilldownBuildingError } from "@/lib/server/drilldown-guard";
import { route } from "@/lib/server/route";
import { timelinePayloadText } from "@/lib/runs/run-timeline";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** The requests overlapping `from`…`to` (ms from the run's first request) on lanes; a labelled sample above `limit`. */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: timelineQuerySchema, requestRows: true },
  async ({ app, params: { id }, query }) => {
    if (!(await getRun(app.store.db, id))) return null;
    const text = await timelinePayloadText(app.store.db, id, query);
    // A re-ingest that claimed the run after the requestRows check has cleared its rows: say so, not 404.
    if (text === null)
      return (await drilldownBuildingError(app.store.db, id)) ?? notFound("per-request records");
    // The window's JSON as it was written (a stored first window is sent as stored); checked
    // against its schema outside production, as every answer is (lib/server/http.ts), in steps:
    // a window of 20,000 bars checked in one piece held the server for about 100 ms.
    if (process.env.NODE_ENV !== "production") await parseInSteps(timelineWireSchema, text);
    return new Response(text, { headers: { "content-type": "application/json" } });
  },
);
