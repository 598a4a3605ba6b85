import type { RunSummary } from "@/lib/api/schemas";

/** One download of the run, named by the server. */
function ExportLink({
  href,
  testId,
  title,
  label,
}: {
  href: string;
  testId: string;
  title: string;
  label: string;
}) {
  return (
    <a className="btn-ghost py-1.5 text-sm" href={href} download data-testid={testId} title={title}>
      {label}
    </a>
  );
}

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
        <ExportLink
          href={`${base}/trace.json`}
          testId="export-trace"
          title="Every request as a track, for ui.perfetto.dev or chrome://tracing"
          label="Trace"
        />
      ) : null}
      <ExportLink
        href={`${base}/report.html`}
        testId="export-report"
        title="One HTML file with the summary and every chart, readable offline"
        label="Report"
      />
    </>
  );
}
