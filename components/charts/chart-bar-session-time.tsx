"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { stackEnd } from "@/components/charts/plot-parts";
import { formatNumber } from "@/lib/format-number";
import type { AgentSession } from "@/lib/api/agent-sessions";
import { labelledBandPx, labelRoomPx } from "@/lib/metrics/bar-labels";
import { sessionTimeRows } from "@/lib/metrics/agent-session-rows";

const seconds = (v: number) => `${formatNumber(v, v < 10 ? 2 : 1)} s`;

/** Model time against tool time per session (the longest sessions), stacked, each total written past its end. */
export function ChartBarSessionTime({
  sessions,
  onOpen,
}: {
  sessions: AgentSession[];
  onOpen?: (id: string) => void;
}) {
  const { rows: byTime, total } = sessionTimeRows(sessions);
  const rows = byTime.map((r) => ({ ...r, totalS: r.modelS + r.toolS }));
  return (
    <ChartContainer
      title="Tool time against model time per session"
      description={`Σ request latency (model) and Σ tool durations (tool) of each session, its total at the bar's end${total > rows.length ? `; the ${rows.length} longest of ${total}` : ""}`}
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
        modelS: { label: "model", color: "var(--chart-1)", stack: "t", format: seconds, minLength: true },
        toolS: { label: "tool", color: "var(--chart-3)", stack: "t", format: seconds, minLength: true },
        end: stackEnd("t", "totalS", seconds),
      }}
      // Room right of the longest bar for its total (lib/metrics/bar-labels.ts).
      marginRight={labelRoomPx(rows.map((r) => seconds(r.totalS)))}
      x={{ title: "time", unit: "s" }}
      y={{ key: "label", width: 90, everyTick: true }}
      onRowClick={onOpen ? (i) => onOpen(rows[i].id) : undefined}
      height={Math.max(160, Math.max(28, labelledBandPx(1)) * rows.length + 60)}
    />
  );
}
