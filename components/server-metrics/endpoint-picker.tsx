"use client";

import type { EndpointRole } from "@/lib/api/schemas";
import type { SmEndpointsPayload } from "@/lib/api/server-metrics-charts";
import { RoleLegend } from "./role-legend";
import { useEndpointChoice } from "./use-sm-chart";

/** All / one role / one endpoint: drives every time-series chart of the server-metrics views. */
export function EndpointPicker({ payload }: { payload: SmEndpointsPayload }) {
  const [choice, setChoice] = useEndpointChoice();
  if (payload.groups.length === 0) return null;
  const value = payload.groups.some((g) => g.id === choice) ? choice : "all";
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-muted">Time series for</span>
      <select
        className="input"
        data-testid="endpoint-picker"
        value={value}
        onChange={(e) => void setChoice(e.target.value === "all" ? null : e.target.value)}
      >
        {payload.groups.map((g) => (
          <option key={g.id} value={g.id}>
            {g.id.startsWith("role:") || g.id === "all"
              ? g.label
              : `${g.label} (${payload.rows.find((r) => r.endpoint === g.id)?.role ?? ""})`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The row above a server-metrics view's charts: which roles the bars colour, and the picker. */
export function EndpointChoiceRow({
  payload,
  roles,
}: {
  payload: SmEndpointsPayload;
  roles: EndpointRole[];
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <RoleLegend roles={roles} />
      <EndpointPicker payload={payload} />
    </div>
  );
}
