import { createHash } from "node:crypto";
import { getAppContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/handle";
import { notFound } from "@/lib/server/http";
import { isValidId } from "@/lib/store/ids";
import { getChartData } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** A chart payload precomputed at ingest, served as stored (already ≤ 2,000 points per series). */
export const GET = handle(
  async (req: Request, { params }: { params: Promise<{ id: string; key: string }> }) => {
    const { id, key } = await params;
    if (!isValidId(id) || !/^[\w.:-]{1,100}$/.test(key)) return notFound("chart");
    const app = await getAppContext();
    const data = await getChartData(app.store.db, id, key);
    if (data === undefined) return notFound("chart");
    const etag = `"${createHash("sha1").update(data).digest("base64url")}"`;
    const headers = { ETag: etag, "Cache-Control": "no-cache", "Content-Type": "application/json" };
    if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return new Response(data, { headers });
  },
);
