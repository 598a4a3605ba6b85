import { listQuerySchema, runListSchema, uploadResponseSchema } from "@/lib/api/schemas";
import { createRunsFromUpload } from "@/lib/ingest/create-runs";
import { SweepIngest } from "@/lib/ingest/sweep-ingest";
import { receiveUpload } from "@/lib/ingest/upload";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { listRuns } from "@/lib/store/run-list";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = route({ auth: "read", listsRuns: true, query: listQuerySchema }, async ({ app, query }) =>
  jsonOk(runListSchema, await listRuns(app.store.db, query)),
);

/**
 * Multipart upload, streamed: files are analysed while they arrive (no body schema, so the body is
 * unread). Files in several run folders make one run each and a sweep of them.
 */
export const POST = route({ auth: "write" }, async ({ req, app }) => {
  // A refused or broken upload takes its runs with it.
  const live = new SweepIngest(app);
  let upload;
  try {
    upload = await receiveUpload(req, app.blobs, app.config, live);
  } catch (err) {
    await live.abandon();
    throw err;
  }
  const created = await createRunsFromUpload(app, upload, live);
  const location = created.sweep?.url ?? created.url;
  return jsonOk(uploadResponseSchema, created, { status: 201, headers: { Location: location } });
});
