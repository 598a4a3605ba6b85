import { runParamsSchema } from "@/lib/api/route-params";
import { runReport } from "@/lib/runs/report/run-report";
import { htmlAttachment } from "@/lib/server/download";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** GET /api/runs/{id}/report.html → one self-contained HTML file: summary, facts, every view's charts. */
export const GET = route(
  { auth: "read", params: runParamsSchema, heavy: true },
  async ({ app, params: { id } }) => {
    const report = await runReport(app.store.db, id);
    return report && htmlAttachment(report.html, report.name, "report.html");
  },
);
