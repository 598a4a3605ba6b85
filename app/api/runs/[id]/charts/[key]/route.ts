import { createHash } from "node:crypto";
import { chartByKey } from "@/lib/api/chart-catalog";
import { CHART_NOT_SERVED, RECOMPUTE_NEEDED } from "@/lib/api/chart-upgrade";
import { storedChartVersion } from "@/lib/api/chart-version";
import { chartParamsSchema, chartQuerySchema } from "@/lib/api/route-params";
import { drilldownBuildingError } from "@/lib/server/drilldown-guard";
import { IMMUTABLE_CACHE, jsonError } from "@/lib/server/http";
import { readRunChart } from "@/lib/runs/column-charts";
import { route } from "@/lib/server/route";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/**
 * A chart payload precomputed at ingest, served as stored (already ≤ 2,000 points per series),
 * or, when it was stored at an older version of its chart, upgraded to the current shape; one
 * that cannot be is `409 recompute_needed` with what it lacks (docs/http-api.md). A chart of an
 * aiperf run's per-request columns that is not stored at its current versions is computed from
 * the run's request file and stored (lib/runs/column-charts.ts).
 * Asked with the run's current chart version (`?v=`, lib/api/chart-version.ts) it is immutable;
 * without it, or with a stale one, it is revalidated by ETag (re-ingest rewrites it in place).
 * Per-request data stored for a server-side reader (`served: false` in the chart catalog: a run's
 * Dynamo spans and request-trace rows, tens of MB on a large run) is never served whole: `404
 * chart_not_served`, before anything is read.
 */
export const GET = route(
  { auth: "read", params: chartParamsSchema, resource: "chart", query: chartQuerySchema },
  async ({ req, app, params: { id, key }, query: { v } }) => {
    if (chartByKey(key)?.served === false)
      return jsonError(
        404,
        CHART_NOT_SERVED,
        `${key} is per-request data read by the request journey: GET /api/runs/${id}/journey, or /api/runs/${id}/timeline/requests/{rid}/journey for one request.`,
      );
    const read = await readRunChart(app.store.db, id, key);
    // A run being (re-)ingested has no charts until its commit: that is "being built", not "none".
    if (read === undefined)
      return drilldownBuildingError(app.store.db, id, { drilldown: false, failed: false });
    if ("recompute" in read)
      return jsonError(
        409,
        RECOMPUTE_NEEDED,
        `This chart was ${read.recompute} (POST /api/runs/${id}/reingest).`,
      );
    const data = read.text;
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
