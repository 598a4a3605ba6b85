import { createHash } from "node:crypto";
import { storedChartVersion } from "@/lib/api/chart-version";
import { chartParamsSchema, chartQuerySchema } from "@/lib/api/route-params";
import { drilldownBuildingError } from "@/lib/server/drilldown-guard";
import { IMMUTABLE_CACHE } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { getChartData, getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/**
 * A chart payload precomputed at ingest, served as stored (already ≤ 2,000 points per series).
 * Asked with the run's current chart version (`?v=`, lib/api/chart-version.ts) it is immutable;
 * without it, or with a stale one, it is revalidated by ETag (re-ingest rewrites it in place).
 */
export const GET = route(
  { auth: "read", params: chartParamsSchema, resource: "chart", query: chartQuerySchema },
  async ({ req, app, params: { id, key }, query: { v } }) => {
    const data = await getChartData(app.store.db, id, key);
    // A run being (re-)ingested has no charts until its commit: that is "being built", not "none".
    if (data === undefined)
      return drilldownBuildingError(app.store.db, id, { drilldown: false, failed: false });
    // The run after the payload: a re-ingest committing in between makes the version stale, never
    // the payload older than the version it is cached under.
    const run = v === undefined ? undefined : await getRun(app.store.db, id);
    const immutable = run?.status === "ready" && v === storedChartVersion(run);
    const etag = `"${createHash("sha1").update(data).digest("base64url")}"`;
    const headers = {
      ETag: etag,
      "Cache-Control": immutable ? IMMUTABLE_CACHE : "no-cache",
      "Content-Type": "application/json",
    };
    if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return new Response(data, { headers });
  },
);
