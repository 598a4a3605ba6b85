import { runSummarySchema } from "@/lib/api/schemas";
import { ingestRun } from "@/lib/ingest/ingest-run";
import { claimForIngest } from "@/lib/store/interrupted-ingest";
import { readRunSummary } from "@/lib/runs/read-run";
import { getAppContext } from "@/lib/server/app-context";
import { checkWriteAuth } from "@/lib/server/auth";
import { handle } from "@/lib/server/handle";
import { jsonError, jsonOk, notFound } from "@/lib/server/http";
import { isValidId } from "@/lib/store/ids";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** Recomputes every row, chart and summary block from the run's stored raw files. */
export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const app = await getAppContext();
  const denied = checkWriteAuth(req, app.config);
  if (denied) return denied;
  const run = isValidId(id) ? await getRun(app.store.db, id) : undefined;
  if (!run) return notFound();
  // Two ingests of one run would clear each other's rows; an interrupted one is `failed` by now.
  if (!(await claimForIngest(app.store.db, id)))
    return jsonError(409, "ingest_in_progress", "this run is being ingested; try again when it is done");
  await ingestRun(app, id);
  const summary = await readRunSummary(app.store.db, id);
  return summary ? jsonOk(runSummarySchema, summary) : notFound();
});
