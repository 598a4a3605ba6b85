import { noRequestWithId, requestByIdQuerySchema, requestByIdSchema } from "@/lib/api/request-by-id";
import { runParamsSchema } from "@/lib/api/route-params";
import { jsonError, jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { requestById } from "@/lib/store/request-by-id";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** The position a request's drill-down opens it by, found by the request's own id (`?rid=`). */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: requestByIdQuerySchema, requestRows: true },
  async ({ app, params: { id }, query: { rid } }) => {
    if (!(await getRun(app.store.db, id))) return null;
    const r = await requestById(app.store.db, id, rid);
    if (!r.found) return jsonError(404, "not_found", noRequestWithId(rid, r.noDrilldown));
    return jsonOk(requestByIdSchema, { source: r.source, position: r.position, matches: r.matches });
  },
);
