import { goodputQuerySchema } from "@/lib/api/slo";
import { sweepGoodputSchema } from "@/lib/api/sweep-goodput";
import { sweepIdParamsSchema } from "@/lib/api/sweeps";
import { sweepGoodput } from "@/lib/runs/sweep-goodput";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** `?slo=ttft:p99:200,tpot:req:20`: every run's goodput and the highest load meeting every SLO. */
export const GET = route(
  { auth: "read", params: sweepIdParamsSchema, resource: "sweep", query: goodputQuerySchema },
  async ({ app, params: { id }, query }) => {
    const result = await sweepGoodput(app, id, query.slo);
    return result && jsonOk(sweepGoodputSchema, result);
  },
);
