import { compareQuerySchema } from "@/lib/api/compare-schemas";
import { compareReport } from "@/lib/runs/report/compare-report";
import { htmlAttachment } from "@/lib/server/download";
import { jsonError } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** GET /api/compare/report.html?runs=a,b[,…]&baseline=a&stat=p50 → the comparison as one self-contained HTML file. */
export const GET = route({ auth: "read", query: compareQuerySchema }, async ({ app, query }) => {
  const report = await compareReport(app.store.db, query);
  if (report === null) return jsonError(404, "not_found", "none of the runs was found");
  return htmlAttachment(report.html, report.name, "compare-report.html");
});
