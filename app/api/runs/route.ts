import { listQuerySchema, runListSchema, uploadResponseSchema } from "@/lib/api/schemas";
import { uploadRun } from "@/lib/ingest/upload-run";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { listRuns } from "@/lib/store/run-list";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = route({ auth: "read", listsRuns: true, query: listQuerySchema }, async ({ app, query }) =>
  jsonOk(runListSchema, await listRuns(app.store.db, query)),
);

/**
 * Multipart upload, streamed: files are analysed while they arrive (no body schema, so the body
 * is unread). Form fields: name, labels, series, commit, branch. Files in several run folders make
 * one run each and a sweep of them.
 */
export const POST = route({ auth: "write" }, async ({ req, app }) => {
  const created = await uploadRun(app, req);
  const location = created.sweep?.url ?? created.url;
  return jsonOk(uploadResponseSchema, created, { status: 201, headers: { Location: location } });
});
