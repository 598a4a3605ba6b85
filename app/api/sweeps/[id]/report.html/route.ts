import { sweepReportQuerySchema } from "@/lib/api/sweep-report";
import { sweepIdParamsSchema } from "@/lib/api/sweeps";
import { sweepReport } from "@/lib/runs/report/sweep-report";
import { htmlAttachment } from "@/lib/server/download";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * GET /api/sweeps/{id}/report.html?stat=p90&basis=total&slo=ttft:p99:200 → one self-contained
 * HTML file: the sweep's facts, its Pareto charts and points at that statistic, and its goodput.
 */
export const GET = route(
  {
    auth: "read",
    params: sweepIdParamsSchema,
    resource: "sweep",
    query: sweepReportQuerySchema,
    heavy: true,
  },
  async ({ app, params: { id }, query }) => {
    const report = await sweepReport(app, id, query);
    return report && htmlAttachment(report.html, report.name, "sweep-report.html");
  },
);
