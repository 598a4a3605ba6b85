import { listQuerySchema, runListSchema, uploadResponseSchema } from "@/lib/api/schemas";
import { createRunFromUpload } from "@/lib/ingest/create-run";
import { LiveIngest } from "@/lib/ingest/live-ingest";
import { receiveUpload } from "@/lib/ingest/upload";
import { getAppContext } from "@/lib/server/app-context";
import { checkWriteAuth } from "@/lib/server/auth";
import { handle } from "@/lib/server/handle";
import { jsonError, jsonOk } from "@/lib/server/http";
import { listRuns } from "@/lib/store/run-list";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = handle(async (req: Request) => {
  const app = await getAppContext();
  if (app.config.privateMode)
    return jsonError(404, "not_found", "the run list is private; open a run by its link");
  const parsed = listQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return jsonError(400, "bad_query", "invalid list query", parsed.error.issues);
  return jsonOk(runListSchema, await listRuns(app.store.db, parsed.data));
});

export const POST = handle(async (req: Request) => {
  const app = await getAppContext();
  const denied = checkWriteAuth(req, app.config);
  if (denied) return denied;
  // Files are analysed while they arrive; a refused or broken upload takes its run with it.
  const live = new LiveIngest(app);
  let upload;
  try {
    upload = await receiveUpload(req, app.blobs, app.config, live);
  } catch (err) {
    await live.abandon();
    throw err;
  }
  const created = await createRunFromUpload(app, upload, live);
  return jsonOk(uploadResponseSchema, created, { status: 201, headers: { Location: created.url } });
});
