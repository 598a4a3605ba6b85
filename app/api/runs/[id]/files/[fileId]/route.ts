import { Readable } from "node:stream";
import { fileParamsSchema } from "@/lib/api/route-params";
import { jsonError } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { getFile } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** The original bytes of one uploaded file, streamed from the blob store. */
export const GET = route(
  { auth: "read", params: fileParamsSchema, resource: "file" },
  async ({ app, params: { id, fileId } }) => {
    const file = await getFile(app.store.db, id, fileId);
    if (!file) return null;
    if (!(await app.blobs.has(file.sha256)))
      return jsonError(404, "file_missing", "the stored bytes of this file are missing from the blob store");
    const stream = await app.blobs.open(file.sha256);
    const base = (file.name.split("/").pop() ?? "file").replace(/[^\w.\-]+/g, "_");
    return new Response(Readable.toWeb(stream) as ReadableStream, {
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Disposition": `attachment; filename="${base}"`,
        "Content-Length": String(file.bytes),
        "Cache-Control": "private, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      },
    });
  },
);
