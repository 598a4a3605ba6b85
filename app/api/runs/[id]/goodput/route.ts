import { runParamsSchema } from "@/lib/api/route-params";
import { goodputQuerySchema, goodputSchema } from "@/lib/api/slo";
import { runGoodput } from "@/lib/runs/run-goodput";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Goodput under `?slo=ttft:p99:200,tpot:req:20,e2e:p90:5000` (docs/metrics.md §Goodput). */
// Goodput reads every request row: none while they are being rewritten or after a failure.
export const GET = route(
  {
    auth: "read",
    params: runParamsSchema,
    query: goodputQuerySchema,
    heavy: true,
    requestRows: { drilldown: false },
  },
  async ({ app, params: { id }, query }) => {
    const goodput = await runGoodput(app.store, id, query.slo);
    return goodput && jsonOk(goodputSchema, goodput, { headers: { "Cache-Control": "no-cache" } });
  },
);
