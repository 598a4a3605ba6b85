"use client";

import { useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/charts/data-table";
import type { JourneyLane, JourneySummary, RequestJourney } from "@/lib/api/request-journey";
import {
  journeySummaryQueryOptions,
  requestJourneyQueryOptions,
} from "@/lib/api/request-journey-query-options";
import type { Stats } from "@/lib/api/schemas";
import { formatCount, formatMs } from "@/lib/format-number";
import { ticksCovering } from "@/lib/metrics/nice-scale";

const ROLE_COLOUR: Record<JourneyLane["role"], string> = {
  client: "var(--chart-2)",
  frontend: "var(--role-frontend)",
  router: "var(--role-router)",
  prefill: "var(--role-prefill)",
  decode: "var(--role-decode)",
  worker: "var(--role-combined)",
};

const ROLE_TEXT: Record<JourneyLane["role"], string> = {
  client: "client",
  frontend: "frontend",
  router: "router",
  prefill: "prefill",
  decode: "decode",
  worker: "worker",
};

/** What each gap is, as docs/metrics.md §Client to engine defines it. */
const GAPS: Array<{ key: "sendMs" | "ttftMs" | "e2eMs"; name: string; means: string }> = [
  {
    key: "sendMs",
    name: "send gap",
    means: "server received − client sent: network and client-side queueing (two clocks: holds their offset)",
  },
  {
    key: "ttftMs",
    name: "TTFT gap",
    means: "client TTFT − server TTFT: network and client on the first token",
  },
  {
    key: "e2eMs",
    name: "end-to-end gap",
    means: "client end to end − server total time: network and client over the whole request",
  },
];

function Axis({ lo, hi, ticks }: { lo: number; hi: number; ticks: number[] }) {
  const at = (v: number) => `${((v - lo) / (hi - lo)) * 100}%`;
  return (
    <div className="relative h-5 text-[11px] text-muted" aria-hidden>
      {ticks.map((t) => {
        const share = (t - lo) / (hi - lo);
        // The end ticks keep their labels inside the axis (a phone's narrow track would cut them).
        const shift = share < 0.05 ? "" : share > 0.95 ? "-translate-x-full" : "-translate-x-1/2";
        return (
          <span
            key={t}
            className={`absolute top-0 font-mono whitespace-nowrap ${shift}`}
            style={{ left: at(t) }}
          >
            {formatMs(t)}
          </span>
        );
      })}
    </div>
  );
}

function Lane({ lane, lo, hi }: { lane: JourneyLane; lo: number; hi: number }) {
  const at = (v: number) => ((v - lo) / (hi - lo)) * 100;
  const left = at(lane.startMs);
  const width = Math.max(at(lane.endMs) - left, 0.4);
  const what = `${lane.label}: ${formatMs(lane.startMs)} → ${formatMs(lane.endMs)} (${formatMs(lane.endMs - lane.startMs)})${
    lane.firstTokenMs !== null ? `, first token at ${formatMs(lane.firstTokenMs)}` : ""
  }${lane.detail ? `; ${lane.detail}` : ""}${
    lane.ticks.length > 0
      ? `; events: ${lane.ticks.map((t) => `${t.label} at ${formatMs(t.atMs)}`).join(", ")}`
      : ""
  }`;
  return (
    <li
      className="grid grid-cols-1 gap-x-3 gap-y-0.5 sm:grid-cols-[minmax(0,18rem)_1fr] lg:grid-cols-[minmax(0,26rem)_1fr]"
      title={lane.name ? `${what} (${lane.name})` : what}
      data-journey-name={lane.name}
    >
      <span className="truncate text-xs" style={{ paddingLeft: `${lane.depth * 0.75}rem` }}>
        <span
          className="mr-1 inline-block h-2.5 w-2.5 rounded-sm align-middle"
          style={{ background: ROLE_COLOUR[lane.role] }}
          aria-hidden
        />
        <span className="text-muted">{ROLE_TEXT[lane.role]} · </span>
        {lane.label}
      </span>
      <span className="relative block h-4 rounded-sm bg-[color-mix(in_oklab,var(--muted)_12%,transparent)]">
        <span
          className="absolute top-0 h-4 rounded-sm"
          style={{ left: `${left}%`, width: `${width}%`, background: ROLE_COLOUR[lane.role] }}
        />
        {lane.firstTokenMs !== null ? (
          <span
            className="absolute -top-0.5 h-5 w-0.5 bg-[var(--fg)]"
            style={{ left: `${at(lane.firstTokenMs)}%` }}
            aria-hidden
          />
        ) : null}
        {lane.ticks.map((t) => (
          <span
            key={t.label}
            className="absolute -top-0.5 h-5 w-px bg-[var(--fg)] opacity-80"
            style={{ left: `${at(t.atMs)}%` }}
            title={`${t.label} at ${formatMs(t.atMs)}`}
            aria-hidden
          />
        ))}
      </span>
      {lane.ticks.length > 0 ? (
        <span className="text-[11px] leading-4 text-muted sm:col-start-2" data-journey-events aria-hidden>
          {lane.ticks.map((t) => `${t.label} ${formatMs(t.atMs)}`).join(" · ")}
        </span>
      ) : null}
      <span className="sr-only">{what}</span>
    </li>
  );
}

/** One request on one axis: the client's send, first token and end above the server's spans. */
export function RequestJourneyView({ journey }: { journey: RequestJourney }) {
  const lanes = journey.lanes;
  let lo = 0;
  let hi = 0;
  for (const l of lanes) {
    lo = Math.min(lo, l.startMs);
    hi = Math.max(hi, l.endMs);
  }
  if (hi <= lo) hi = lo + 1;
  const ticks = ticksCovering(lo, hi, 5).filter((t) => t >= lo && t <= hi);
  const sources =
    journey.serverSource === "spans"
      ? "Dynamo's spans"
      : journey.serverSource === "trace"
        ? "Dynamo's request trace"
        : journey.serverSource === "trtllm"
          ? "TensorRT-LLM's per-request perf metrics"
          : null;
  return (
    <section className="space-y-2" aria-label="client to engine" data-testid="request-journey">
      <h4 className="text-sm font-semibold">Client to engine</h4>
      <p className="text-xs text-muted">
        Milliseconds from{" "}
        {lanes.some((l) => l.role === "client") ? "the client's send" : "the server's arrival"}
        {sources ? `; the server's view from ${sources}` : ""}. The tick in a bar is its first token
        {lanes.some((l) => l.source === "time-events")
          ? "; a time-events bar runs from its first event to its last, each event a mark"
          : ""}
        .
      </p>
      {lanes.length > 0 ? (
        <div className="space-y-1">
          <div className="grid grid-cols-1 gap-x-3 sm:grid-cols-[minmax(0,18rem)_1fr] lg:grid-cols-[minmax(0,26rem)_1fr]">
            <span className="hidden sm:block" />
            <Axis lo={lo} hi={hi} ticks={ticks} />
          </div>
          <ul className="space-y-1.5" aria-label="lanes">
            {lanes.map((l, i) => (
              <Lane key={i} lane={l} lo={lo} hi={hi} />
            ))}
          </ul>
        </div>
      ) : null}
      <dl
        className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm"
        aria-label="client to server gaps"
      >
        {GAPS.map((g) => (
          <div key={g.key} className="contents">
            <dt className="text-muted" title={g.means}>
              {g.name}
            </dt>
            <dd className="font-mono text-xs leading-5">
              {journey.gaps[g.key] === null ? "not measured" : formatMs(journey.gaps[g.key])}{" "}
              <span className="font-sans text-muted">({g.means})</span>
            </dd>
          </div>
        ))}
      </dl>
      {journey.clockNote ? (
        <p className="rounded border border-warn/50 px-3 py-2 text-xs">{journey.clockNote}</p>
      ) : null}
      {journey.missing.map((m) => (
        <p key={m} className="text-xs text-muted" data-journey-missing>
          {m}
        </p>
      ))}
    </section>
  );
}

/** The journey of one timeline request, fetched; says why when it cannot be loaded. */
export function RequestJourneyPanel({ runId, rid }: { runId: string; rid: number }) {
  const q = useQuery(requestJourneyQueryOptions(runId, rid));
  if (q.isLoading) return <p className="text-sm text-muted">Loading the request from client to engine…</p>;
  if (q.error || !q.data)
    return <p className="text-sm text-muted">The request from client to engine could not be loaded.</p>;
  return <RequestJourneyView journey={q.data} />;
}

const cell = (s: Stats | null, k: "p50" | "p90" | "p99") => (s ? formatMs(s[k]) : "not measured");

/** How many joined requests took their server side from each source, the sources with none left out. */
function joinedSources(by: JourneySummary["joinedBy"]): string {
  const parts: Array<[number, string]> = [
    [by.spans, "Dynamo's spans"],
    [by.trace, "Dynamo's request trace"],
    [by.trtllm, "TensorRT-LLM's per-request perf metrics"],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${formatCount(n)} to ${what}`)
    .join(", ");
}

/** The run's client↔server gap (p50, p90, p99) and which file lacks the shared id. */
export function JourneySummaryView({ s }: { s: JourneySummary }) {
  const rows: Array<[string, Stats | null]> = [
    ["end-to-end gap", s.e2eGapMs],
    ["TTFT gap", s.ttftGapMs],
    ["send gap", s.sendGapMs],
  ];
  return (
    <section
      className="space-y-2 rounded-lg border border-border p-3"
      aria-label="client to server gap"
      data-testid="journey-summary"
    >
      <h3 className="text-sm font-semibold">Client ↔ server gap</h3>
      <p className="text-xs text-muted" data-journey-joined>
        {formatCount(s.joined)} of {formatCount(s.clientRequests)} client requests joined by{" "}
        <span title="aiperf's x_request_id, the X-Request-ID header it sends">
          the client&apos;s request id
        </span>
        {s.joined > 0 ? `: ${joinedSources(s.joinedBy)}` : ""}. Open a request below to see it on one axis.
      </p>
      {s.joined > 0 ? (
        // Stacked on a phone (each gap a block, its percentiles named), so "not measured" in three
        // columns never runs past the card's edge nor scrolls inside it.
        <DataTable
          testId="journey-gap-table"
          caption="client to server gap percentiles"
          stacked
          rows={rows}
          rowKey={([name]) => name}
          columns={[
            { header: "gap", cell: ([name]) => name },
            ...(["p50", "p90", "p99"] as const).map((k) => ({
              header: k,
              num: true,
              className: "font-mono text-xs whitespace-nowrap",
              cell: ([, st]: [string, Stats | null]) => cell(st, k),
            })),
            {
              header: "requests",
              num: true,
              className: "font-mono text-xs",
              cell: ([, st]) => (st ? formatCount(st.count) : "0"),
            },
          ]}
        />
      ) : null}
      {s.notes.map((n) => (
        <p key={n} className="text-xs text-muted" data-journey-note>
          {n}
        </p>
      ))}
    </section>
  );
}

export function JourneySummaryPanel({ runId }: { runId: string }) {
  const q = useQuery(journeySummaryQueryOptions(runId));
  if (q.isLoading || !q.data) return null;
  return <JourneySummaryView s={q.data} />;
}
