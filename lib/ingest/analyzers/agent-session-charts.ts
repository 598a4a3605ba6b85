/**
 * The stored payloads of a run's agent sessions (docs/metrics.md §Agent sessions): the chart
 * payload with the longest few, bounded whatever the run, and every session in pages for
 * GET /api/runs/{id}/agent-sessions.
 */
import { AGENT_SESSION_PAGES, AGENT_SESSIONS_CHART } from "@/lib/api/chart-catalog";
import { sessionPages, type AgentSessionsBuilt } from "@/lib/metrics/agent-sessions";

export function agentSessionCharts(built: AgentSessionsBuilt): Record<string, unknown> {
  const pages = sessionPages(built.all);
  const out: Record<string, unknown> = {
    [AGENT_SESSIONS_CHART.key]: built.payload,
    [AGENT_SESSION_PAGES.index.key]: { pages: pages.length, sessions: built.all.length },
  };
  pages.forEach((sessions, n) => (out[AGENT_SESSION_PAGES.piece(n).key] = { sessions }));
  return out;
}
