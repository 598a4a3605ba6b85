import { runSummarySchema } from "@/lib/api/schemas";
import { ingestRun } from "@/lib/ingest/ingest-run";
import { readRunSummary } from "@/lib/runs/read-run";
import { getAppContext } from "@/lib/server/app-context";
import { checkWriteAuth } from "@/lib/server/auth";
import { handle } from "@/lib/server/handle";
import { jsonOk, notFound } from "@/lib/server/http";
import { isValidId } from "@/lib/store/ids";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** Recomputes every row, chart and summary block from the run's stored raw files. */
export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const app = await getAppContext();
  const denied = checkWriteAuth(req, app.config);
  if (denied) return denied;
  if (!isValidId(id) || !(await getRun(app.store.db, id))) return notFound();
  await ingestRun(app, id);
  const summary = await readRunSummary(app.store.db, id);
  return summary ? jsonOk(runSummarySchema, summary) : notFound();
});
