import { Readable } from "node:stream";
import { getAppContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/handle";
import { jsonError, notFound } from "@/lib/server/http";
import { isValidId } from "@/lib/store/ids";
import { getFile } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** The original bytes of one uploaded file, streamed from the blob store. */
export const GET = handle(
  async (_req: Request, { params }: { params: Promise<{ id: string; fileId: string }> }) => {
    const { id, fileId } = await params;
    if (!isValidId(id) || !isValidId(fileId)) return notFound("file");
    const app = await getAppContext();
    const file = await getFile(app.store.db, id, fileId);
    if (!file) return notFound("file");
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
