import { timelineRequestParamsSchema } from "@/lib/api/route-params";
import { requestJourneySchema } from "@/lib/api/request-journey";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { timelineRequestJourney } from "@/lib/runs/request-journey";

export const dynamic = "force-dynamic";

/** One aiperf request of the timeline with its Dynamo spans and trace row on one axis; 404 without them. */
export const GET = route(
  { auth: "read", params: timelineRequestParamsSchema, resource: "request", requestRows: true },
  async ({ app, params }) => {
    const j = await timelineRequestJourney(app.store.db, params.id, params.rid);
    return j ? jsonOk(requestJourneySchema, j) : null;
  },
);
