import { runParamsSchema } from "@/lib/api/route-params";
import { timelinePayloadSchema, timelineQuerySchema } from "@/lib/api/timeline";
import { jsonOk, notFound } from "@/lib/server/http";
import { drilldownBuildingError } from "@/lib/server/drilldown-guard";
import { route } from "@/lib/server/route";
import { timelinePayload } from "@/lib/runs/run-timeline";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** The requests overlapping `from`…`to` (ms from the run's first request) on lanes; a labelled sample above `limit`. */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: timelineQuerySchema },
  async ({ app, params: { id }, query }) => {
    if (!(await getRun(app.store.db, id))) return null;
    const building = await drilldownBuildingError(app.store.db, id);
    if (building) return building;
    const payload = await timelinePayload(app.store.db, id, query);
    if (!payload) return notFound("per-request records");
    return jsonOk(timelinePayloadSchema, payload);
  },
);
