import { compareQuerySchema, compareResponseSchema } from "@/lib/api/compare-schemas";
import { loadComparison } from "@/lib/runs/compare-runs";
import { jsonError, jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** GET /api/compare?runs=a,b[,…]&baseline=a&stat=p50 → summaries, deltas, collector mismatches. */
export const GET = route({ auth: "read", query: compareQuerySchema }, async ({ app, query }) => {
  const body = await loadComparison(app.store.db, query);
  if (body.runs.length === 0)
    return jsonError(404, "not_found", "none of the runs was found", { missing: body.missing });
  return jsonOk(compareResponseSchema, body, { headers: { "Cache-Control": "no-cache" } });
});
