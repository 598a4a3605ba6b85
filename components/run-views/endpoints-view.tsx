"use client";

import { downloadCsv } from "@/components/charts/export";
import type { RunViewProps } from "@/components/run/run-views";
import { ENDPOINT_COLUMNS } from "@/components/server-metrics/endpoint-table-columns";
import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import { formatCount, formatRate } from "@/lib/format-number";
import { SM_ENDPOINTS_CHART, smEndpointsPayloadSchema } from "@/lib/api/server-metrics-charts";
import { EmptyView } from "./empty-view";

export function EndpointsView({ run }: RunViewProps) {
  const q = useRunChart(run.id, run.serverMetrics ? SM_ENDPOINTS_CHART : null, smEndpointsPayloadSchema);
  if (run.endpoints.length === 0) {
    return (
      <EmptyView title="No endpoints in this run">
        Upload server metrics or TensorRT-LLM perf metrics.
      </EmptyView>
    );
  }
  const details = new Map((q.data?.rows ?? []).map((r) => [r.endpoint, r]));
  const rows = run.endpoints.map((e) => {
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
  const columns = ENDPOINT_COLUMNS.filter((c) =>
    rows.some((r) => r.values[c.key] !== null && r.values[c.key] !== undefined),
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
        <h3 className="text-sm font-semibold">Endpoints ({rows.length})</h3>
        <button
          type="button"
          className="btn-ghost text-xs"
          onClick={() => downloadCsv(csv(), "endpoints.csv")}
        >
          CSV
        </button>
      </div>
      <div className="overflow-x-auto">
        <table className="table-base" data-testid="endpoints-table">
          <thead>
            <tr>
              <th>endpoint</th>
              {columns.map((c) => (
                <th key={c.key}>{c.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.endpoint}>
                <td>{r.endpoint}</td>
                {columns.map((c) => (
                  <td key={c.key} className={c.text ? "text-xs" : "num"}>
                    {c.key === "role" ? (
                      <span className="inline-flex items-center gap-1">
                        <span
                          className="inline-block h-2 w-2 rounded-sm"
                          style={{ background: `var(--role-${String(r.values.role)})` }}
                        />
                        {String(r.values.role)}
                      </span>
                    ) : (
                      c.format(r.values[c.key] ?? null)
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {q.data && q.data.roles.length > 1 ? (
        <table className="table-base" data-testid="role-subtotals">
          <thead>
            <tr>
              <th>role</th>
              <th>endpoints</th>
              <th>hit rate</th>
              <th>prompt tokens</th>
              <th>generation tokens</th>
              <th>KV capacity</th>
              <th>usage mean</th>
            </tr>
          </thead>
          <tbody>
            {q.data.roles.map((r) => (
              <tr key={r.role}>
                <td>{r.role}</td>
                <td className="num">{r.endpoints}</td>
                <td className="num">{formatRate(r.hitRate)}</td>
                <td className="num">{formatCount(r.promptTokens)}</td>
                <td className="num">{formatCount(r.generationTokens)}</td>
                <td className="num">{formatCount(r.kvCapacityTokens)}</td>
                <td className="num">{formatRate(r.kvUsageAvg)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
