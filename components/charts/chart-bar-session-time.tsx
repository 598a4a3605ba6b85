"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatNumber } from "@/lib/format-number";
import type { AgentSession } from "@/lib/api/agent-sessions";
import { sessionTimeRows } from "@/lib/metrics/agent-session-rows";

const seconds = (v: number) => `${formatNumber(v, v < 10 ? 2 : 1)} s`;

/** Model time against tool time per session (the longest sessions), stacked. */
export function ChartBarSessionTime({
  sessions,
  onOpen,
}: {
  sessions: AgentSession[];
  onOpen?: (id: string) => void;
}) {
  const { rows, total } = sessionTimeRows(sessions);
  return (
    <ChartContainer
      title="Tool time against model time per session"
      description={`Σ request latency (model) and Σ tool durations (tool) of each session${total > rows.length ? `; the ${rows.length} longest of ${total}` : ""}`}
      definition={{
        window: "each session's requests and tool calls",
        requests: "every request of the session; every tool_end row of the session",
        method: "model: Σ total_time_ms; tool: Σ tool duration_ms (else ended − started)",
      }}
      exportName="session-tool-model-time"
      missing="No session has both model time and tool time."
      kind="bar"
      horizontal
      data={rows}
      csv={{ session: "id", "model s": "modelS", "tool s": "toolS" }}
      series={{
        modelS: { label: "model", color: "var(--chart-1)", stack: "t", format: seconds },
        toolS: { label: "tool", color: "var(--chart-3)", stack: "t", format: seconds },
      }}
      x={{ title: "time", unit: "s" }}
      y={{ key: "label", width: 90, everyTick: true }}
      onRowClick={onOpen ? (i) => onOpen(rows[i].id) : undefined}
      height={Math.max(160, 28 * rows.length + 60)}
    />
  );
}
