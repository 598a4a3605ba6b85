"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatCount, formatNumber } from "@/lib/format-number";
import type { AgentSession } from "@/lib/api/agent-sessions";
import { sessionTurnRows, turnSpan } from "@/lib/metrics/agent-session-rows";
import { labelSide, ReferenceMark } from "./reference-marks";

/** One session's cached share of each turn's prompt, with the turn where the cache stopped hitting. */
export function ChartLineSessionCached({
  session,
  source,
  turnAxis,
}: {
  session: AgentSession;
  source: string;
  turnAxis: string;
}) {
  const rows = sessionTurnRows(session);
  const stop = session.cacheStop !== null && session.cacheStop !== "held" ? session.cacheStop : null;
  return (
    <ChartContainer
      title="Cached share of the prompt by turn"
      description="% of each turn's input tokens the server reported served from cache"
      definition={{
        window: "the session's turns",
        requests: "successful requests of the session that carry cached tokens",
        method: `cached ÷ input tokens (${source})`,
      }}
      exportName="session-cached-share"
      missing={
        rows.length === 1
          ? "One turn: the cached share by turn needs two."
          : "No successful turn of this session carries cached tokens."
      }
      kind="line"
      data={rows}
      csv={{
        turn: "turn",
        "cached %": "cachedPct",
        "cached tokens": "cachedTokens",
        "input tokens": "inputTokens",
      }}
      series={{ cachedPct: { label: "served from cache", color: "var(--chart-5)", dots: true } }}
      x={{ key: "turn", title: turnAxis, numeric: true, integers: true }}
      y={{ title: "prompt tokens", unit: "%", domain: [0, 100], ticks: [0, 25, 50, 75, 100] }}
      tooltip={{
        label: (t) => `turn ${String(t)}`,
        value: (v, _k, row) => [
          `${formatNumber(v, 1)}% (${formatCount(row.cachedTokens)} of ${formatCount(row.inputTokens)})`,
          "served from cache",
        ],
      }}
      legend={false}
    >
      {stop ? (
        <ReferenceMark x={stop.turn} label="cache stopped" side={labelSide(stop.turn, turnSpan(rows))} />
      ) : null}
    </ChartContainer>
  );
}
