import type { SweepStat } from "@/lib/api/sweeps";

/**
 * The sweep's offline report at the page's statistic, basis, SLO and log axes: one HTML file with its
 * charts and tables, readable with no network. A plain link: the server names the file.
 */
export function SweepReportLink({
  id,
  stat,
  basis,
  slo,
  logx,
  logy,
  glogx,
}: {
  id: string;
  stat: SweepStat;
  basis: "output" | "total";
  slo: string;
  logx: boolean;
  logy: boolean;
  glogx: boolean;
}) {
  const q = new URLSearchParams({ stat, basis });
  if (slo) q.set("slo", slo);
  for (const [k, on] of Object.entries({ logx, logy, glogx })) if (on) q.set(k, "true");
  return (
    <a
      className="btn-ghost py-1.5 text-sm"
      href={`/api/sweeps/${encodeURIComponent(id)}/report.html?${q}`}
      download
      data-testid="export-sweep-report"
      title="One HTML file with this sweep's charts and tables at this statistic and SLO, readable offline"
    >
      Report
    </a>
  );
}
