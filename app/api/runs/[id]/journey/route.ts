import { runParamsSchema } from "@/lib/api/route-params";
import { journeySummarySchema } from "@/lib/api/request-journey";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { runJourneySummary } from "@/lib/runs/request-journey";

export const dynamic = "force-dynamic";

/** The run's client↔server gap (docs/metrics.md §Client to engine); 404 without Dynamo spans or trace. */
export const GET = route(
  { auth: "read", params: runParamsSchema, resource: "run" },
  async ({ app, params }) => {
    const s = await runJourneySummary(app.store.db, params.id);
    return s ? jsonOk(journeySummarySchema, s) : null;
  },
);
