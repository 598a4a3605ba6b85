import { gateQuerySchema } from "@/lib/api/regression-schemas";
import { uploadRun } from "@/lib/ingest/upload-run";
import { GateInputError, gateMarkdown, gateOptions, gateRun } from "@/lib/runs/gate";
import { gateResponse } from "@/lib/server/gate-response";
import { jsonError } from "@/lib/server/http";
import { mayNameOtherRuns, publicOrigin } from "@/lib/server/public-origin";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * POST /api/gate?series=S&commit=SHA&baseline=last&failOn=ttft.p99>5%&format=markdown with the
 * run's files as a multipart body: uploads the run into the series, then answers its gate, as
 * `runlens upload --series … --fail-on …` does.
 */
export const POST = route({ auth: "write", query: gateQuerySchema }, async ({ req, app, query }) => {
  try {
    // Rules are checked before the body is read: a typo must not store a run.
    gateOptions(query.failOn, query.thresholds);
  } catch (err) {
    return jsonError(400, "bad_request", (err as Error).message);
  }
  const created = await uploadRun(app, req, {
    series: query.series,
    commit: query.commit,
    branch: query.branch,
    order: query.order,
  });
  const origin = publicOrigin(req, app.config);
  if (created.status !== "ready") {
    const result = {
      outcome: "unjudged" as const,
      exitCode: 2 as const,
      reasons: ["the run was stored but failed to ingest"],
      runUrl: `${origin}${created.url}`,
      compareUrl: null,
      judgement: null,
    };
    return gateResponse({ ...result, markdown: gateMarkdown(result, null) }, query.format);
  }
  try {
    const result = await gateRun(app.store.db, created.id, {
      ...query,
      origin,
      nameBaseline: mayNameOtherRuns(req, app.config),
    });
    return result && gateResponse(result, query.format);
  } catch (err) {
    if (err instanceof GateInputError) return jsonError(400, "bad_request", err.message);
    throw err;
  }
});
