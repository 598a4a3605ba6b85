import { patchRunSchema, runSummarySchema } from "@/lib/api/schemas";
import { deleteRunAndBlobs } from "@/lib/runs/delete-run";
import { readRunSummary } from "@/lib/runs/read-run";
import { getAppContext } from "@/lib/server/app-context";
import { checkWriteAuth } from "@/lib/server/auth";
import { handle } from "@/lib/server/handle";
import { jsonError, jsonOk, notFound } from "@/lib/server/http";
import { readJsonBody } from "@/lib/server/read-json-body";
import { isValidId } from "@/lib/store/ids";
import { getRun, updateRunMeta } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (_req: Request, { params }: Ctx) => {
  const { id } = await params;
  if (!isValidId(id)) return notFound();
  const app = await getAppContext();
  const summary = await readRunSummary(app.store.db, id);
  if (!summary) return notFound();
  return jsonOk(runSummarySchema, summary, { headers: { "Cache-Control": "no-cache" } });
});

export const PATCH = handle(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  const app = await getAppContext();
  const denied = checkWriteAuth(req, app.config);
  if (denied) return denied;
  if (!isValidId(id) || !(await getRun(app.store.db, id))) return notFound();
  const body = await readJsonBody(req);
  const parsed = patchRunSchema.safeParse(body);
  if (!parsed.success)
    return jsonError(400, "bad_request", "expected JSON {name?, labels?}", parsed.error.issues);
  const labels = parsed.data.labels ? [...new Set(parsed.data.labels)] : undefined;
  await updateRunMeta(app.store.db, id, { name: parsed.data.name, labels });
  const summary = await readRunSummary(app.store.db, id);
  return summary ? jsonOk(runSummarySchema, summary) : notFound();
});

export const DELETE = handle(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  const app = await getAppContext();
  const denied = checkWriteAuth(req, app.config);
  if (denied) return denied;
  const run = isValidId(id) ? await getRun(app.store.db, id) : undefined;
  if (!run) return notFound();
  // Deleting under a live ingest would leave its later rows orphaned; an interrupted one is `failed` by now.
  if (run.status === "ingesting")
    return jsonError(409, "ingest_in_progress", "this run is being ingested; delete it when that is done");
  await deleteRunAndBlobs(app, id);
  return new Response(null, { status: 204 });
});
