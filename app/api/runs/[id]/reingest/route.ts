import { runParamsSchema } from "@/lib/api/route-params";
import { runSummarySchema } from "@/lib/api/schemas";
import { ingestRun } from "@/lib/ingest/ingest-run";
import { claimForIngest } from "@/lib/store/interrupted-ingest";
import { readRunSummary } from "@/lib/runs/read-run";
import { jsonError, jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** Recomputes every row, chart and summary block from the run's stored raw files. */
export const POST = route({ auth: "write", params: runParamsSchema }, async ({ app, params: { id } }) => {
  if (!(await getRun(app.store.db, id))) return null;
  // Two ingests of one run would clear each other's rows; an interrupted one is `failed` by now.
  if (!(await claimForIngest(app.store.db, id)))
    return jsonError(409, "ingest_in_progress", "this run is being ingested; try again when it is done");
  await ingestRun(app, id);
  const summary = await readRunSummary(app.store.db, id);
  return summary && jsonOk(runSummarySchema, summary);
});
