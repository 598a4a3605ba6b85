import { compareQuerySchema, compareResponseSchema } from "@/lib/api/compare-schemas";
import { loadComparison } from "@/lib/runs/compare-runs";
import { getAppContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/handle";
import { jsonError, jsonOk } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/compare?runs=a,b[,…]&baseline=a&stat=p50 → summaries, deltas, collector mismatches. */
export const GET = handle(async (req: Request) => {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const parsed = compareQuerySchema.safeParse(params);
  if (!parsed.success)
    return jsonError(
      400,
      "bad_request",
      "expected runs=ID1,ID2 (1 to 8 run ids), optional baseline and stat",
      parsed.error.issues,
    );
  const app = await getAppContext();
  const body = await loadComparison(app.store.db, parsed.data);
  if (body.runs.length === 0)
    return jsonError(404, "not_found", "none of the runs was found", { missing: body.missing });
  return jsonOk(compareResponseSchema, body, { headers: { "Cache-Control": "no-cache" } });
});
