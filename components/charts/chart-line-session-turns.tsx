"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatCount, formatMs } from "@/lib/format-number";
import type { AgentSession } from "@/lib/api/agent-sessions";
import { sessionTurnRows, turnSpan } from "@/lib/metrics/agent-session-rows";
import { niceTicks } from "@/lib/metrics/nice-scale";
import { labelSide, ReferenceMark } from "./reference-marks";

const countTick = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 0 });

/**
 * One session's turns: TTFT (left axis) against the prompt's input tokens (right axis), so a TTFT
 * that grows with the prompt shows as two lines rising together and a cache miss as TTFT jumping
 * where the prompt did not. The turn where the cache stopped hitting is marked.
 */
export function ChartLineSessionTurns({
  session,
  turnLabel,
  turnAxis,
}: {
  session: AgentSession;
  turnLabel: string;
  turnAxis: string;
}) {
  const rows = sessionTurnRows(session);
  const ttftMax = rows.reduce((m, r) => Math.max(m, r.ttftMs ?? 0), 0);
  const inMax = rows.reduce((m, r) => Math.max(m, r.inputTokens ?? 0), 0);
  const stop = session.cacheStop !== null && session.cacheStop !== "held" ? session.cacheStop : null;
  return (
    <ChartContainer
      title="TTFT against prompt growth"
      description="Each turn's time to first token beside its prompt's input tokens"
      definition={{
        window: "the session's turns",
        requests: "every request of the session (warm-up excluded)",
        method: `TTFT and input tokens as the files record them; turn: ${turnLabel}`,
      }}
      exportName="session-ttft-prompt"
      missing={
        rows.length === 1
          ? `One turn: TTFT ${rows[0].ttftMs === null ? "not recorded" : formatMs(rows[0].ttftMs)} at ${rows[0].inputTokens === null ? "an unrecorded number of" : formatCount(rows[0].inputTokens)} input tokens; no growth to draw.`
          : "No turn of this session has a TTFT or an input token count."
      }
      kind="line"
      data={rows}
      csv={{
        turn: "turn",
        "TTFT ms": "ttftMs",
        "input tokens": "inputTokens",
        "cached tokens": "cachedTokens",
      }}
      series={{
        ttftMs: { label: "TTFT", color: "var(--chart-4)", axis: "ms", dots: true, format: formatMs },
        inputTokens: {
          label: "input tokens",
          color: "var(--chart-1)",
          axis: "tok",
          dots: true,
          dashed: true,
          format: (v) => `${formatCount(v)} tokens`,
        },
      }}
      x={{ key: "turn", title: turnAxis, numeric: true, integers: true }}
      y={[
        { id: "ms", title: "TTFT", unit: "ms", format: countTick, ticks: niceTicks(ttftMax) },
        {
          id: "tok",
          title: "input",
          unit: "tokens",
          right: true,
          format: countTick,
          ticks: niceTicks(inMax),
        },
      ]}
      tooltip={{ label: (t) => `turn ${String(t)}` }}
    >
      {stop ? (
        <ReferenceMark
          x={stop.turn}
          label="cache stopped"
          yAxisId="ms"
          side={labelSide(stop.turn, turnSpan(rows))}
        />
      ) : null}
    </ChartContainer>
  );
}
