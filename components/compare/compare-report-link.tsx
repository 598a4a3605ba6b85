import { compareSearch, type CompareParams } from "@/lib/api/compare-query-options";

/**
 * The comparison as one self-contained HTML file (delta table and compare charts, readable
 * offline), for the runs, baseline, statistic and noise choice on screen. A plain link: the
 * server names the file.
 */
export function CompareReportLink({ params }: { params: CompareParams }) {
  return (
    <a
      className="btn-ghost py-1.5 text-sm"
      href={`/api/compare/report.html?${compareSearch(params)}`}
      download
      data-testid="export-compare-report"
      title="One HTML file with the delta table and the compare charts, readable offline"
    >
      Report
    </a>
  );
}
