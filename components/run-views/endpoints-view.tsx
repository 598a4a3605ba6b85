"use client";

import { DataTable } from "@/components/charts/data-table";
import { downloadCsv, exportFileName } from "@/components/charts/export";
import type { RunViewProps } from "@/components/run/run-view-props";
import { ENDPOINT_COLUMNS } from "@/components/server-metrics/endpoint-table-columns";
import { WindowNote } from "@/components/server-metrics/window-note";
import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import { formatCount, formatRate, plural } from "@/lib/format-number";
import { SM_ENDPOINTS_CHART, smEndpointsPayloadSchema } from "@/lib/api/server-metrics-charts";
import { EmptyView } from "./empty-view";

interface Row {
  endpoint: string;
  values: Record<string, unknown>;
}

export function EndpointsView({ run }: RunViewProps) {
  const q = useRunChart(run.id, run.serverMetrics ? SM_ENDPOINTS_CHART : null, smEndpointsPayloadSchema);
  if (run.endpoints.length === 0) {
    return (
      <EmptyView title="No endpoints in this run">
        Upload server metrics or TensorRT-LLM perf metrics.
      </EmptyView>
    );
  }
  // With a prefill side, a decode endpoint's counters show the KV prefill sent, not cache hits.
  const disagg =
    run.endpoints.some((e) => e.role === "prefill") && run.endpoints.some((e) => e.role === "decode");
  const details = new Map((q.data?.rows ?? []).map((r) => [r.endpoint, r]));
  const rows: Row[] = run.endpoints.map((e) => {
    const d = details.get(e.endpoint);
    const values: Record<string, unknown> = {
      ...(d ?? {}),
      role: e.role,
      requestLevelHitRate: e.kvCacheHitRate,
    };
    if (!d)
      Object.assign(values, {
        hitRate: e.cacheHitRate,
        promptTokens: e.promptTokens,
        kvCapacityTokens: e.kvCapacityTokens,
      });
    return { endpoint: e.endpoint, values };
  });
  // A column only when some endpoint has it; pools only when one endpoint has several (one pool is its capacity).
  const columns = ENDPOINT_COLUMNS.filter((c) =>
    c.key === "kvPoolTokens"
      ? rows.some((r) => Array.isArray(r.values.kvPoolTokens) && r.values.kvPoolTokens.length > 1)
      : rows.some((r) => r.values[c.key] !== null && r.values[c.key] !== undefined),
  );
  const csv = () =>
    rows.map((r) => ({
      endpoint: r.endpoint,
      ...Object.fromEntries(
        columns.map((c) => [
          c.label,
          Array.isArray(r.values[c.key])
            ? String(r.values[c.key])
            : (r.values[c.key] as number | string | null),
        ]),
      ),
    }));
  return (
    <div className="space-y-4">
      <ChartStatus loading={q.isLoading} error={q.error} what="server-metrics endpoint details" />
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold" data-testid="endpoints-heading">
          {plural(rows.length, "endpoint")}
          {roleCounts(rows)}
        </h3>
        <button
          type="button"
          className="btn-ghost text-xs"
          onClick={() => downloadCsv(csv(), exportFileName(run.name, "endpoints", "csv"))}
        >
          CSV
        </button>
      </div>
      <div className="overflow-x-auto">
        <DataTable
          testId="endpoints-table"
          rows={rows}
          rowKey={(r) => r.endpoint}
          columns={[
            { header: "endpoint", cell: (r) => r.endpoint },
            ...columns.map((c) => ({
              header: c.label,
              className: c.text ? "text-xs" : "num",
              cell: (r: Row) =>
                c.key === "role" ? (
                  <RoleName role={String(r.values.role)} />
                ) : c.key === "hitRate" && disagg && r.values.role === "decode" ? (
                  DECODE_NA
                ) : (
                  c.format(r.values[c.key] ?? null)
                ),
            })),
          ]}
        />
      </div>
      <p className="text-xs text-muted" data-testid="endpoints-dash-note">
        — : that endpoint&apos;s exports do not carry the series (not exported), never a 0.
      </p>
      <p className="text-xs text-muted" data-testid="endpoints-definition">
        Hit rates and token totals: counter deltas over each endpoint&apos;s window (all traffic the server
        saw, any client; &quot;from&quot; names the counters). Usage and running/waiting: gauge samples over
        the window. KV capacity: configuration, not a window. Bandwidth: bytes / transfer time where the
        engine counts it, else bytes / window. Perf-metrics hit rate: block reuse of the requests in the
        perf-metrics files.
      </p>
      {q.data ? <WindowNote rows={q.data.rows} /> : null}
      {q.data && q.data.roles.length > 1 ? (
        <DataTable
          testId="role-subtotals"
          rows={q.data.roles}
          rowKey={(r) => r.role}
          columns={[
            { header: "role", cell: (r) => r.role },
            { header: "endpoints", num: true, cell: (r) => r.endpoints },
            {
              header: "hit rate",
              num: true,
              cell: (r) => (disagg && r.role === "decode" ? DECODE_NA : formatRate(r.hitRate)),
            },
            { header: "prompt tokens", num: true, cell: (r) => formatCount(r.promptTokens) },
            { header: "generation tokens", num: true, cell: (r) => formatCount(r.generationTokens) },
            { header: "KV capacity (tokens)", num: true, cell: (r) => formatCount(r.kvCapacityTokens) },
            { header: "usage mean", num: true, cell: (r) => formatRate(r.kvUsageAvg) },
          ]}
        />
      ) : null}
    </div>
  );
}

/**
 * How many of each role, so the count reads against the run header's (which counts scraped
 * server-metrics endpoints only, not frontends or perf-metrics workers): ": 1 prefill, 3 decode".
 */
const DECODE_NA = "n/a (decode)";

function roleCounts(rows: readonly Row[]): string {
  const by = new Map<string, number>();
  for (const r of rows) by.set(String(r.values.role), (by.get(String(r.values.role)) ?? 0) + 1);
  if (by.size < 2) return "";
  return `: ${[...by].map(([role, n]) => `${formatCount(n)} ${role}`).join(", ")}`;
}

function RoleName({ role }: { role: string }) {
  return (
    <span className="inline-flex items-center gap-1">
      <span className="inline-block h-2 w-2 rounded-sm" style={{ background: `var(--role-${role})` }} />
      {role}
    </span>
  );
}
