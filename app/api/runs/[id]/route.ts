import { runParamsSchema } from "@/lib/api/route-params";
import { patchRunSchema, runSummarySchema } from "@/lib/api/schemas";
import { deleteRunAndBlobs } from "@/lib/runs/delete-run";
import { readRunSummary } from "@/lib/runs/read-run";
import { jsonError, jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { patchRunFacts } from "@/lib/store/run-facts";
import { drilldownPending, getRun, updateRunMeta } from "@/lib/store/runs-repo";
import { setRunSeries } from "@/lib/store/series-repo";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "read", params: runParamsSchema }, async ({ app, params: { id } }) => {
  const summary = await readRunSummary(app.store.db, id);
  return summary && jsonOk(runSummarySchema, summary, { headers: { "Cache-Control": "no-cache" } });
});

export const PATCH = route(
  { auth: "write", params: runParamsSchema, body: patchRunSchema },
  async ({ app, params: { id }, body }) => {
    if (!(await getRun(app.store.db, id))) return null;
    const labels = body.labels ? [...new Set(body.labels)] : undefined;
    await updateRunMeta(app.store.db, id, { name: body.name, labels });
    await setRunSeries(app.store.db, id, {
      series: body.series,
      commit: body.commit,
      branch: body.branch,
      order: body.order,
    });
    if (body.facts) await patchRunFacts(app.store.db, id, body.facts);
    const summary = await readRunSummary(app.store.db, id);
    return summary && jsonOk(runSummarySchema, summary);
  },
);

export const DELETE = route({ auth: "write", params: runParamsSchema }, async ({ app, params: { id } }) => {
  const run = await getRun(app.store.db, id);
  if (!run) return null;
  // Deleting under a live ingest would leave its later rows orphaned; an interrupted one is `failed` by now.
  if (run.status === "ingesting" || drilldownPending(run))
    return jsonError(409, "ingest_in_progress", "this run is being ingested; delete it when that is done");
  await deleteRunAndBlobs(app, id);
  return new Response(null, { status: 204 });
});
