/**
 * Every agent session of a run, a page at a time (docs/metrics.md §Agent sessions): the chart
 * payload carries the longest few, bounded whatever the run; the rest are read here from the
 * pages stored beside it at ingest.
 */
import {
  agentSessionPageSchema,
  agentSessionPagesIndexSchema,
  agentSessionsPayloadSchema,
  type AgentSessionPageWire,
} from "@/lib/api/agent-sessions";
import { AGENT_SESSION_PAGES, AGENT_SESSIONS_CHART } from "@/lib/api/chart-catalog";
import { getChartText } from "@/lib/store/chart-payloads";
import type { Db } from "@/lib/store/db";

/**
 * Page `page` of the run's sessions; null when the run has no sessions or no such page. A run
 * stored before the pages has one, the payload's sessions (`complete: false`).
 */
export async function agentSessionPage(
  db: Db,
  runId: string,
  page: number,
): Promise<AgentSessionPageWire | null> {
  const indexText = await getChartText(db, runId, AGENT_SESSION_PAGES.index.key);
  if (indexText !== undefined) {
    const index = agentSessionPagesIndexSchema.parse(JSON.parse(indexText));
    if (page >= index.pages) return null;
    const text = await getChartText(db, runId, AGENT_SESSION_PAGES.piece(page).key);
    if (text === undefined) return null;
    const { sessions } = agentSessionPageSchema.parse(JSON.parse(text));
    return { page, pages: index.pages, total: index.sessions, sessions, complete: true };
  }
  if (page > 0) return null;
  const text = await getChartText(db, runId, AGENT_SESSIONS_CHART.key);
  if (text === undefined) return null;
  const { sessions } = agentSessionsPayloadSchema.parse(JSON.parse(text));
  return { page: 0, pages: 1, total: sessions.length, sessions, complete: false };
}
