import type { RunSummary } from "@/lib/api/schemas";

/**
 * Downloads of the run: its requests as a trace for Perfetto or chrome://tracing (only when the
 * run has per-request records), and the offline HTML report. Plain links: the server names the files.
 */
export function ExportLinks({ run }: { run: RunSummary }) {
  const traceable = run.timeBreakdown !== null || run.files.some((f) => f.kind === "aiperf-records");
  const base = `/api/runs/${encodeURIComponent(run.id)}`;
  return (
    <>
      {traceable ? (
        <a
          className="btn-ghost py-1.5 text-sm"
          href={`${base}/trace.json`}
          download
          data-testid="export-trace"
          title="Every request as a track, for ui.perfetto.dev or chrome://tracing"
        >
          Trace
        </a>
      ) : null}
      <a
        className="btn-ghost py-1.5 text-sm"
        href={`${base}/report.html`}
        download
        data-testid="export-report"
        title="One HTML file with the summary and every chart, readable offline"
      >
        Report
      </a>
    </>
  );
}
