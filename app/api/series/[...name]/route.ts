import { z } from "zod";
import { seriesDetailSchema, seriesNameSchema, seriesQuerySchema } from "@/lib/api/regression-schemas";
import { seriesDetail } from "@/lib/runs/series";
import { jsonError, jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The name's parts as Next.js hands a catch-all segment over, joined back with "/". */
const paramsSchema = z.object({
  name: z
    .array(z.string())
    .transform((parts) => parts.join("/"))
    .pipe(seriesNameSchema),
});

/**
 * GET /api/series/{name}?stat=p50&window=10&thresholds=… → the series' runs in order, their
 * headline metrics, noise bands and verdicts against the runs before them.
 */
export const GET = route(
  { auth: "read", listsRuns: true, params: paramsSchema, query: seriesQuerySchema, resource: "series" },
  async ({ app, params, query }) => {
    try {
      const body = await seriesDetail(app.store.db, params.name, query);
      return body && jsonOk(seriesDetailSchema, body, { headers: { "Cache-Control": "no-cache" } });
    } catch (err) {
      if (err instanceof Error && /threshold|unknown metric/.test(err.message))
        return jsonError(400, "bad_request", err.message);
      throw err;
    }
  },
);
