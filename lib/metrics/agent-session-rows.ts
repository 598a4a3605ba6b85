/**
 * Rows of the Sessions view (docs/metrics.md §Agent sessions), pure mappers over the agent
 * sessions payload: the session tree, a session's turns, tool time against model time, totals.
 */
import type { AgentSession, AgentSessionsPayload } from "@/lib/api/agent-sessions";

/** A session with its sub-agent sessions, for the tree. */
export interface AgentSessionNode {
  session: AgentSession;
  children: AgentSessionNode[];
  /** Depth in the tree as drawn (0 for a root) */
  level: number;
}

/**
 * The session tree: roots are sessions with no parent or whose parent is not among the sessions
 * (counted in `orphans`); children in the order the payload lists them.
 */
export function sessionTree(sessions: AgentSession[]): { roots: AgentSessionNode[]; orphans: number } {
  const nodes = new Map<string, AgentSessionNode>();
  for (const s of sessions) nodes.set(s.id, { session: s, children: [], level: 0 });
  const roots: AgentSessionNode[] = [];
  let orphans = 0;
  for (const s of sessions) {
    const node = nodes.get(s.id)!;
    const parent = s.parentId !== null && s.parentId !== s.id ? nodes.get(s.parentId) : undefined;
    if (parent) parent.children.push(node);
    else {
      if (s.parentId !== null) orphans++;
      roots.push(node);
    }
  }
  const seen = new Set<AgentSessionNode>();
  const level = (n: AgentSessionNode, l: number) => {
    if (seen.has(n)) return;
    seen.add(n);
    n.level = l;
    for (const c of n.children) level(c, l + 1);
  };
  for (const r of roots) level(r, 0);
  // A parent cycle (a writer's slip) has no root: its sessions are shown as roots.
  for (const n of nodes.values())
    if (!seen.has(n)) {
      const parent = nodes.get(n.session.parentId!);
      if (parent) parent.children = parent.children.filter((c) => c !== n);
      roots.push(n);
      level(n, 0);
    }
  return { roots, orphans };
}

/** One row per turn of a session: TTFT, the prompt's input tokens and the cached share (%). */
export function sessionTurnRows(s: AgentSession) {
  return s.turns.map((t) => ({
    turn: t.turn,
    ttftMs: t.ttftMs,
    inputTokens: t.inputTokens,
    cachedTokens: t.cachedTokens,
    cachedPct:
      !t.failed && t.cachedTokens !== null && t.inputTokens !== null && t.inputTokens > 0
        ? (Math.min(t.cachedTokens, t.inputTokens) / t.inputTokens) * 100
        : null,
  }));
}

/** The first and last turn of a session's rows (turns in order): the span its turn axis draws. */
export function turnSpan(rows: ReadonlyArray<{ turn: number }>): [number, number] {
  return rows.length === 0 ? [0, 0] : [rows[0].turn, rows[rows.length - 1].turn];
}

/** Sessions drawn in the tool-against-model chart: the longest by model plus tool time. */
export const TIME_ROWS = 20;

/**
 * Model time against tool time per session, in seconds, the longest first (at most TIME_ROWS).
 * Only sessions where both are known: a session whose tool time is not recorded is not drawn.
 */
export function sessionTimeRows(sessions: AgentSession[], max = TIME_ROWS) {
  const rows = sessions
    .filter((s) => s.modelTimeMs !== null && s.toolTimeMs !== null)
    .map((s) => ({
      id: s.id,
      label: shortId(s.id),
      modelS: s.modelTimeMs! / 1000,
      toolS: s.toolTimeMs! / 1000,
      toolShare: s.modelTimeMs! + s.toolTimeMs! > 0 ? s.toolTimeMs! / (s.modelTimeMs! + s.toolTimeMs!) : null,
    }))
    .sort((a, b) => b.modelS + b.toolS - (a.modelS + a.toolS));
  return { rows: rows.slice(0, max), total: rows.length };
}

/**
 * A session id short enough for a row label: long hex ids keep their first 8 characters. A
 * session named `<x_correlation_id>/<conversation_id>` shortens each half, so the conversations
 * of one reused correlation id read apart (both read "xxxxxxxx…" before).
 */
export function shortId(id: string): string {
  const slash = id.lastIndexOf("/");
  if (slash > 0 && slash < id.length - 1 && id.length > 14)
    return `${shortPart(id.slice(0, slash))}/${shortPart(id.slice(slash + 1))}`;
  return shortPart(id);
}

const shortPart = (id: string) => (id.length > 14 ? `${id.slice(0, 8)}…` : id);

/** The run's totals over every session, as stored with the payload (the omitted ones included). */
export function sessionTotals(p: AgentSessionsPayload) {
  const t = p.totals;
  return {
    sessions: t.sessions,
    roots: t.roots,
    subAgents: t.sessions - t.roots,
    turns: t.turns,
    modelTimeMs: t.modelTimeMs,
    toolTimeMs: t.toolTimeMs,
    toolCalls: t.toolCalls,
    hitRate: t.inputTokens > 0 ? t.cachedTokens / t.inputTokens : null,
    cacheStops: t.cacheStops,
    cacheHeld: t.cacheHeld,
  };
}
