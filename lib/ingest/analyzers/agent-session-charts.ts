/**
 * The stored payloads of a run's agent sessions (docs/metrics.md §Agent sessions): the chart
 * payload with the longest few, bounded whatever the run, and every session in pages for
 * GET /api/runs/{id}/agent-sessions, each page handed to the commit as the JSON text it was made
 * as (docs/performance.md §Ingest memory of an aiperf upload).
 */
import { AGENT_SESSION_PAGES, AGENT_SESSIONS_CHART } from "@/lib/api/chart-catalog";
import type { AgentSessionsBuilt } from "@/lib/metrics/agent-sessions";
import { PayloadText } from "@/lib/store/chart-payloads";

export function agentSessionCharts(built: AgentSessionsBuilt): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [AGENT_SESSIONS_CHART.key]: built.payload,
    [AGENT_SESSION_PAGES.index.key]: { pages: built.pages.length, sessions: built.count },
  };
  built.pages.forEach((text, n) => (out[AGENT_SESSION_PAGES.piece(n).key] = new PayloadText(text)));
  return out;
}
