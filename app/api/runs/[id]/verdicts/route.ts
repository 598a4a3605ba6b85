import { verdictsQuerySchema } from "@/lib/api/regression-schemas";
import { runParamsSchema } from "@/lib/api/route-params";
import { GateInputError, gateRun } from "@/lib/runs/gate";
import { gateResponse } from "@/lib/server/gate-response";
import { jsonError } from "@/lib/server/http";
import { mayNameOtherRuns, publicOrigin } from "@/lib/server/public-origin";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/{id}/verdicts?baseline=last|last:N|RUN_ID&failOn=…&thresholds=…&seed=…&format=json|markdown
 * → every metric's verdict against the baseline and the gate's outcome.
 */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: verdictsQuerySchema },
  async ({ req, app, params: { id }, query }) => {
    try {
      const result = await gateRun(app.store.db, id, {
        ...query,
        origin: publicOrigin(req, app.config),
        nameBaseline: mayNameOtherRuns(req, app.config),
      });
      return result && gateResponse(result, query.format);
    } catch (err) {
      if (err instanceof GateInputError) return jsonError(400, "bad_request", err.message);
      throw err;
    }
  },
);
