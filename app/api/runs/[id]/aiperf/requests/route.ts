import { requestListQuerySchema, requestListSchema } from "@/lib/api/aiperf-requests";
import { runParamsSchema } from "@/lib/api/route-params";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { slowestRequests } from "@/lib/store/aiperf-requests";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** The run's aiperf requests ordered by TTFT, end-to-end latency, ITL or start (≤ 200 rows). */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: requestListQuerySchema, requestRows: true },
  async ({ app, params: { id }, query }) => {
    if (!(await getRun(app.store.db, id))) return null;
    return jsonOk(requestListSchema, await slowestRequests(app.store.db, id, query));
  },
);
