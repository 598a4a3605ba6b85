/**
 * The stored payloads of a run's agent sessions (docs/metrics.md §Agent sessions): the chart
 * payload with the longest few, bounded whatever the run, and every session in pages for
 * GET /api/runs/{id}/agent-sessions, each page handed to the commit as the JSON text it was made
 * as, packed (docs/performance.md §Agent-session pages made as text).
 */
import { AGENT_SESSION_PAGES, AGENT_SESSIONS_CHART } from "@/lib/api/chart-catalog";
import type { AgentSessionsBuilt } from "@/lib/metrics/agent-sessions";
import { PayloadText } from "@/lib/store/chart-payloads";

/** A page's JSON text, kept packed until the commit stores it (`PayloadText`). */
export const packedPage = (text: string): PayloadText => new PayloadText(text);

export function agentSessionCharts(built: AgentSessionsBuilt<string | PayloadText>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [AGENT_SESSIONS_CHART.key]: built.payload,
    [AGENT_SESSION_PAGES.index.key]: { pages: built.pages.length, sessions: built.count },
  };
  built.pages.forEach(
    (page, n) =>
      (out[AGENT_SESSION_PAGES.piece(n).key] = page instanceof PayloadText ? page : packedPage(page)),
  );
  return out;
}
