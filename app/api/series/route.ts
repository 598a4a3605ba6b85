import { seriesListSchema } from "@/lib/api/regression-schemas";
import { seriesList } from "@/lib/runs/series";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** GET /api/series → every series name with its run count and first and last upload. */
export const GET = route({ auth: "read", listsRuns: true }, async ({ app }) =>
  jsonOk(seriesListSchema, await seriesList(app.store.db), { headers: { "Cache-Control": "no-cache" } }),
);
