"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { useId, useState } from "react";
import { ChartBarSessionTime } from "@/components/charts/chart-bar-session-time";
import { ChartLineSessionCached } from "@/components/charts/chart-line-session-cached";
import { ChartLineSessionTurns } from "@/components/charts/chart-line-session-turns";
import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import type { RunViewProps } from "@/components/run/run-view-props";
import { runSearchParams } from "@/components/run/search-params";
import type { AgentSession, AgentSessionsPayload } from "@/lib/api/agent-sessions";
import { agentSessionPageQueryOptions } from "@/lib/api/agent-sessions-query-options";
import { AGENT_SESSIONS_CHART } from "@/lib/api/chart-catalog";
import { hasAgentSessions } from "@/lib/api/run-views";
import { formatCount, formatMs, formatNumber, plural } from "@/lib/format-number";
import { sessionTotals, sessionTree, shortId, type AgentSessionNode } from "@/lib/metrics/agent-session-rows";
import { ManifestEmptyView } from "./empty-view";
import { Fact } from "./fact";

const pct = (v: number | null) => (v === null ? "—" : `${formatNumber(v * 100, 1)}%`);
const ms = (v: number | null) => (v === null ? "not recorded" : formatMs(v));

/** What the cache stop means, said beside every figure of it (docs/metrics.md §Agent sessions). */
const CACHE_STOP_RULE =
  "the first turn whose cached prompt tokens fell below the previous turn's, although the history only grew";

function turnLabel(p: AgentSessionsPayload): string {
  return p.source === "aiperf-records"
    ? "aiperf's turn_index"
    : "the request's place in its session by request_received_ms (Dynamo writes no turn index)";
}

/** The x axis title of a session's turns: what the turn number counts. */
function turnAxis(p: AgentSessionsPayload): string {
  return p.source === "aiperf-records" ? "turn (aiperf turn_index)" : "turn (0 = first)";
}

/** Which id grouped the records into sessions, and the reused ids split by conversation. */
function sessionIdsText(d: AgentSessionsPayload): string {
  const ids = d.sessionIds;
  if (ids.by === "agent_context.session_id") return "grouped by the trace's agent_context.session_id.";
  const base = "grouped by aiperf's x_correlation_id (conversation_id where a record has none)";
  if (ids.splitCount === 0) return `${base}.`;
  const named = ids.splitByConversation.join(", ");
  const more = ids.splitCount > ids.splitByConversation.length ? ", …" : "";
  return `${base}; ${plural(ids.splitCount, "x_correlation_id spans", "x_correlation_ids span")} several conversations with a turn index repeated (aiperf reused the id: ${named}${more}), so ${ids.splitCount === 1 ? "its" : "their"} records are grouped by conversation_id instead, each session named x_correlation_id/conversation_id.`;
}

function cacheStopText(s: AgentSession, p: AgentSessionsPayload): string {
  if (p.absent.cached !== null) return "not recorded";
  if (s.cacheStop === null) return "fewer than two turns with cached tokens";
  if (s.cacheStop === "held") return "never: the cached prefix never shrank";
  const c = s.cacheStop;
  return `turn ${c.turn}: ${formatCount(c.cachedTokens)} cached < ${formatCount(c.previousCachedTokens)} at turn ${c.previousTurn}`;
}

/** Agentic runs: the session tree, each session's turns, cache and tool time (docs/metrics.md §Agent sessions). */
export function SessionsView({ run }: RunViewProps) {
  const has = hasAgentSessions(run);
  const q = useRunChart(run.id, AGENT_SESSIONS_CHART, has);
  const [open, setOpen] = useQueryState("session", runSearchParams.session);
  if (!has) return <ManifestEmptyView id="sessions" title="No agent sessions in this run" />;
  const d = q.data;
  return (
    <div className="space-y-4">
      <ChartStatus loading={q.isLoading} error={q.error} what="agent sessions" />
      {d ? <SessionsBody runId={run.id} d={d} open={open} setOpen={(id) => void setOpen(id)} /> : null}
    </div>
  );
}

function SessionsBody({
  runId,
  d,
  open,
  setOpen,
}: {
  runId: string;
  d: AgentSessionsPayload;
  open: string | null;
  setOpen: (id: string) => void;
}) {
  const totals = sessionTotals(d);
  const { roots, orphans } = sessionTree(d.sessions);
  // A session opened from the pages of every session, which the payload does not carry.
  const [picked, setPicked] = useState<AgentSession | null>(null);
  const selected =
    d.sessions.find((s) => s.id === open) ??
    (picked !== null && picked.id === open ? picked : null) ??
    roots[0]?.session ??
    null;
  const source = d.source === "aiperf-records" ? "aiperf records" : "Dynamo request trace";
  return (
    <>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="sessions-facts">
        <Fact
          label="sessions"
          value={`${formatCount(totals.sessions)} (${formatCount(totals.roots)} root, ${formatCount(totals.subAgents)} sub-agent)`}
        />
        <Fact label="turns" value={formatCount(totals.turns)} />
        <Fact label="model time" value={ms(totals.modelTimeMs)} />
        <Fact label="tool time" value={d.absent.tools !== null ? "not recorded" : ms(totals.toolTimeMs)} />
        <Fact label="hit rate" value={d.absent.cached !== null ? "not recorded" : pct(totals.hitRate)} />
        {d.absent.cached === null ? (
          <Fact
            label="cache stopped"
            value={`in ${plural(totals.cacheStops, "session", "sessions")}, held in ${formatCount(totals.cacheHeld)}`}
          />
        ) : null}
        <Fact label="from" value={`${source}: ${d.files.join(", ")}`} />
      </dl>
      {selected ? <SessionDetail s={selected} d={d} onOpen={setOpen} /> : null}
      <section aria-labelledby="session-tree-title" className="rounded-lg border border-border">
        <h2 id="session-tree-title" className="border-b border-border px-3 py-2 text-sm font-medium">
          Session tree
        </h2>
        <SessionTree roots={roots} d={d} selected={selected?.id ?? null} onOpen={setOpen} />
      </section>
      {d.absent.tools === null ? <ChartBarSessionTime sessions={d.sessions} onOpen={setOpen} /> : null}
      <ul className="space-y-0.5 text-xs text-muted" data-testid="sessions-absent">
        <li data-testid="sessions-ids">Sessions: {sessionIdsText(d)}</li>
        {d.absent.parent ? <li data-testid="sessions-absent-parent">Parents: {d.absent.parent}.</li> : null}
        {d.absent.cached ? <li data-testid="sessions-absent-cached">Cache: {d.absent.cached}.</li> : null}
        {d.absent.tools ? <li data-testid="sessions-absent-tools">Tool time: {d.absent.tools}.</li> : null}
        {d.omitted > 0 ? (
          <li data-testid="sessions-omitted">
            {plural(d.omitted, "more session", "more sessions")} (fewer turns) are not in the tree or the
            charts: every session is listed a page at a time below.
          </li>
        ) : null}
        {d.withoutSession > 0 ? (
          <li>{plural(d.withoutSession, "request names", "requests name")} no session and is not counted.</li>
        ) : null}
        {orphans > 0 ? (
          <li>
            {plural(orphans, "session names a parent", "sessions name a parent")} not in the files: shown as a
            root.
          </li>
        ) : null}
      </ul>
      {d.omitted > 0 ? (
        <AllSessions
          runId={runId}
          more={d.omitted}
          selected={selected?.id ?? null}
          onOpen={(s) => {
            setPicked(s);
            setOpen(s.id);
          }}
        />
      ) : null}
      <p className="text-xs text-muted">
        Hit rate: Σ cached ÷ Σ input tokens of the session&apos;s successful turns. Cache stopped:{" "}
        {CACHE_STOP_RULE}. Model time: Σ of the requests&apos; latency. Turn: {turnLabel(d)}.
      </p>
    </>
  );
}

function SessionTree({
  roots,
  d,
  selected,
  onOpen,
}: {
  roots: AgentSessionNode[];
  d: AgentSessionsPayload;
  selected: string | null;
  onOpen: (id: string) => void;
}) {
  return (
    <ul
      aria-label="Agent sessions and their sub-agents"
      className="divide-y divide-border"
      data-testid="session-tree"
    >
      {roots.map((n) => (
        <TreeItem key={n.session.id} n={n} d={d} selected={selected} onOpen={onOpen} />
      ))}
    </ul>
  );
}

function TreeItem({
  n,
  d,
  selected,
  onOpen,
}: {
  n: AgentSessionNode;
  d: AgentSessionsPayload;
  selected: string | null;
  onOpen: (id: string) => void;
}) {
  const [expanded, setExpanded] = useState(true);
  const groupId = useId();
  const s = n.session;
  const isOpen = s.id === selected;
  return (
    <li data-testid="session-node" data-session={s.id}>
      <div
        className={`flex items-start gap-2 px-3 py-1.5 text-sm ${isOpen ? "bg-accent/10" : ""}`}
        style={{ paddingLeft: `${0.75 + n.level * 1.25}rem` }}
      >
        {n.children.length > 0 ? (
          <button
            type="button"
            className="w-5 shrink-0 text-muted hover:text-fg"
            aria-expanded={expanded}
            aria-controls={groupId}
            aria-label={`${expanded ? "Collapse" : "Expand"} ${plural(n.children.length, "sub-agent", "sub-agents")} of ${s.id}`}
            onClick={() => setExpanded((e) => !e)}
          >
            {expanded ? "▾" : "▸"}
          </button>
        ) : (
          <span className="w-5 shrink-0" aria-hidden="true" />
        )}
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-4 gap-y-0.5">
          <span className="flex items-baseline gap-2">
            <button
              type="button"
              className="font-mono text-xs underline-offset-2 hover:underline"
              aria-pressed={isOpen}
              title={s.id}
              onClick={() => onOpen(s.id)}
            >
              {shortId(s.id)}
            </button>
            {n.level > 0 ? <span className="text-xs text-muted">sub-agent</span> : null}
          </span>
          <span>{plural(s.turns.length, "turn", "turns")}</span>
          <span>
            <span className="text-muted">model </span>
            {ms(s.modelTimeMs)}
          </span>
          {/* Not recorded for the run: said once above the tree, not on every row. */}
          {d.absent.tools === null ? (
            <span>
              <span className="text-muted">tool </span>
              {ms(s.toolTimeMs)}
            </span>
          ) : null}
          {d.absent.cached === null ? (
            <span>
              <span className="text-muted">hit </span>
              {pct(s.hitRate)}
            </span>
          ) : null}
          {s.cacheStop !== null && s.cacheStop !== "held" ? (
            <span className="text-xs">cache stopped at turn {s.cacheStop.turn}</span>
          ) : null}
        </div>
      </div>
      {n.children.length > 0 && expanded ? (
        <ul
          id={groupId}
          aria-label={`Sub-agents of ${s.id}`}
          className="divide-y divide-border border-t border-border"
        >
          {n.children.map((c) => (
            <TreeItem key={c.session.id} n={c} d={d} selected={selected} onOpen={onOpen} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function SessionDetail({
  s,
  d,
  onOpen,
}: {
  s: AgentSession;
  d: AgentSessionsPayload;
  onOpen: (id: string) => void;
}) {
  const children = d.sessions.filter((c) => c.parentId === s.id).length;
  const parent = s.parentId !== null ? d.sessions.find((p) => p.id === s.parentId) : undefined;
  return (
    <section aria-labelledby="session-detail-title" className="space-y-3" data-testid="session-detail">
      <h2 id="session-detail-title" className="text-sm font-medium">
        Session <span className="break-all font-mono text-xs">{s.id}</span>
      </h2>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartLineSessionTurns session={s} turnLabel={turnLabel(d)} turnAxis={turnAxis(d)} />
        {d.absent.cached === null ? (
          <ChartLineSessionCached
            session={s}
            turnAxis={turnAxis(d)}
            source={
              d.source === "aiperf-records" ? "usage_prompt_cache_read_tokens" : "request.cached_tokens"
            }
          />
        ) : null}
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="session-detail-facts">
        <Fact label="turns" value={formatCount(s.turns.length)} />
        <Fact label="model time" value={ms(s.modelTimeMs)} />
        <Fact
          label="tool time"
          value={
            d.absent.tools !== null
              ? "not recorded"
              : `${ms(s.toolTimeMs)} in ${plural(s.toolCalls ?? 0, "call", "calls")}`
          }
        />
        <Fact label="hit rate" value={d.absent.cached !== null ? "not recorded" : pct(s.hitRate)} />
        <Fact label="cache stopped" value={cacheStopText(s, d)} />
        {s.depth !== null ? <Fact label="agent depth" value={String(s.depth)} /> : null}
        {children > 0 ? <Fact label="sub-agents" value={formatCount(children)} /> : null}
      </dl>
      {s.parentId !== null ? (
        <p className="text-xs">
          Spawned by{" "}
          {parent ? (
            <button type="button" className="font-mono underline" onClick={() => onOpen(parent.id)}>
              {shortId(parent.id)}
            </button>
          ) : (
            <span className="font-mono">{s.parentId} (not in the files)</span>
          )}
        </p>
      ) : null}
    </section>
  );
}

/**
 * Every session of the run, a page at a time (GET /api/runs/{id}/agent-sessions): the payload
 * carries the longest few, so the others are reached here. Fetched once asked for.
 */
function AllSessions({
  runId,
  more,
  selected,
  onOpen,
}: {
  runId: string;
  more: number;
  selected: string | null;
  onOpen: (s: AgentSession) => void;
}) {
  const [page, setPage] = useState<number | null>(null);
  const q = useQuery({ ...agentSessionPageQueryOptions(runId, page ?? 0), enabled: page !== null });
  const p = q.data;
  return (
    <section
      aria-labelledby="all-sessions-title"
      className="rounded-lg border border-border"
      data-testid="all-sessions"
    >
      <div className="flex flex-wrap items-center gap-3 border-b border-border px-3 py-2 text-sm">
        <h2 id="all-sessions-title" className="font-medium">
          Every session
        </h2>
        {page === null ? (
          <button type="button" className="underline underline-offset-2" onClick={() => setPage(0)}>
            Show all sessions ({plural(more, "more session", "more sessions")} than the tree)
          </button>
        ) : p ? (
          <span className="flex items-center gap-2">
            <button
              type="button"
              className="underline underline-offset-2 disabled:no-underline disabled:opacity-50"
              disabled={page === 0}
              onClick={() => setPage(page - 1)}
            >
              Previous
            </button>
            <span data-testid="all-sessions-page">
              Page {p.page + 1} of {p.pages} ({formatCount(p.total)} sessions)
            </span>
            <button
              type="button"
              className="underline underline-offset-2 disabled:no-underline disabled:opacity-50"
              disabled={page + 1 >= p.pages}
              onClick={() => setPage(page + 1)}
            >
              Next
            </button>
          </span>
        ) : null}
      </div>
      {page !== null ? <ChartStatus loading={q.isLoading} error={q.error} what="sessions" /> : null}
      {p ? (
        <ul className="divide-y divide-border" aria-label="Every agent session, this page">
          {p.sessions.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-baseline gap-x-4 px-3 py-1 text-sm"
              data-session={s.id}
            >
              <button
                type="button"
                className="font-mono text-xs underline-offset-2 hover:underline"
                aria-pressed={s.id === selected}
                title={s.id}
                onClick={() => onOpen(s)}
              >
                {shortId(s.id)}
              </button>
              <span>{plural(s.turns.length, "turn", "turns")}</span>
              <span>
                <span className="text-muted">model </span>
                {ms(s.modelTimeMs)}
              </span>
              {s.parentId !== null ? (
                <span className="text-xs text-muted">sub-agent of {shortId(s.parentId)}</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
