"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { useState } from "react";
import { runSearchParams } from "@/components/run/search-params";
import { runGoodputQueryOptions } from "@/lib/api/query-options";
import {
  describeSlo,
  formatSlos,
  parseSlos,
  SLO_METRIC_LABELS,
  SLO_METRICS,
  SLO_MODES,
  type Goodput,
  type Slo,
  type SloMetric,
} from "@/lib/api/slo";
import { formatCount, formatMs, formatNumber, formatRate } from "@/lib/format-number";

type Draft = Record<SloMetric, { mode: Slo["mode"] | "off"; ms: string }>;

function draftOf(slos: readonly Slo[]): Draft {
  const d = Object.fromEntries(SLO_METRICS.map((m) => [m, { mode: "off", ms: "" }])) as Draft;
  for (const s of slos) d[s.metric] = { mode: s.mode, ms: String(s.thresholdMs) };
  return d;
}

/** The SLOs a draft states, or why it cannot be applied. */
function slosOf(d: Draft): Slo[] | string {
  const out: Slo[] = [];
  for (const metric of SLO_METRICS) {
    const { mode, ms } = d[metric];
    if (mode === "off") continue;
    const thresholdMs = Number(ms.replace(/,/g, ""));
    if (!Number.isFinite(thresholdMs) || thresholdMs <= 0)
      return `${SLO_METRIC_LABELS[metric]}: a threshold in ms`;
    out.push({ metric, mode, thresholdMs });
  }
  return out;
}

/** SLO thresholds (in the URL, so a shared link carries them) and the run's goodput under them. */
export function GoodputPanel({ runId }: { runId: string }) {
  const [slo, setSlo] = useQueryState("slo", runSearchParams.slo);
  const slos = parseSlos(slo) ?? [];
  const [draft, setDraft] = useState(() => draftOf(slos));
  const [invalid, setInvalid] = useState<string | null>(null);
  const apply = () => {
    const next = slosOf(draft);
    if (typeof next === "string") return setInvalid(next);
    setInvalid(null);
    void setSlo(next.length ? formatSlos(next) : null);
  };
  return (
    <section
      className="space-y-2 rounded-lg border border-border bg-card p-3"
      aria-labelledby="goodput-heading"
    >
      <h2 id="goodput-heading" className="text-sm font-medium">
        Goodput under SLOs
      </h2>
      <form
        className="flex flex-wrap items-end gap-3 text-xs"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
        data-testid="slo-form"
      >
        {SLO_METRICS.map((m) => (
          <fieldset key={m} className="flex items-end gap-1">
            <label className="flex flex-col gap-0.5">
              <span className="text-muted">{SLO_METRIC_LABELS[m]}</span>
              <select
                className="input py-0.5 text-xs"
                aria-label={`${SLO_METRIC_LABELS[m]} SLO`}
                value={draft[m].mode}
                onChange={(e) =>
                  setDraft({ ...draft, [m]: { ...draft[m], mode: e.target.value as Slo["mode"] } })
                }
              >
                <option value="off">no SLO</option>
                {SLO_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {mode === "req" ? "per request" : `at ${mode}`}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-0.5">
              <span className="text-muted">≤ ms</span>
              <input
                className="input w-20 py-0.5 text-xs"
                inputMode="decimal"
                aria-label={`${SLO_METRIC_LABELS[m]} threshold (ms)`}
                value={draft[m].ms}
                disabled={draft[m].mode === "off"}
                onChange={(e) => setDraft({ ...draft, [m]: { ...draft[m], ms: e.target.value } })}
              />
            </label>
          </fieldset>
        ))}
        <button type="submit" className="btn-ghost py-0.5 text-xs">
          Apply SLOs
        </button>
        {invalid ? <span className="text-danger">{invalid}</span> : null}
      </form>
      {slos.length === 0 ? (
        <p className="text-xs text-muted">
          Set a TTFT, TPOT or E2E threshold to count the requests that meet it.
        </p>
      ) : (
        <GoodputResult runId={runId} slo={formatSlos(slos)} />
      )}
    </section>
  );
}

function GoodputResult({ runId, slo }: { runId: string; slo: string }) {
  const q = useQuery(runGoodputQueryOptions(runId, slo));
  if (q.isPending) return <p className="text-xs text-muted">Counting requests…</p>;
  if (q.isError) return <p className="text-xs text-danger">{q.error.message}</p>;
  const g: Goodput = q.data;
  if (g.requests === 0) return <p className="text-xs text-muted">{g.note}</p>;
  const value = (v: Goodput["goodputReqPerS"], unit: string) =>
    v.value !== null ? `${formatNumber(v.value, 3)} ${unit}` : (v.reason ?? "");
  return (
    <div className="space-y-1 text-xs" data-testid="goodput-result">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
        <div>
          <div className="text-muted">Requests meeting every SLO</div>
          <div className="text-lg font-semibold tabular-nums" data-testid="goodput-share">
            {formatRate(g.share)}
          </div>
          <div className="text-muted">
            {formatCount(g.meeting)} of {formatCount(g.requests)} requests
          </div>
        </div>
        <div>
          <div className="text-muted">Goodput</div>
          <div className="text-lg font-semibold tabular-nums">{value(g.goodputReqPerS, "req/s")}</div>
        </div>
        <div>
          <div className="text-muted">Good output tokens</div>
          <div className="text-lg font-semibold tabular-nums">{value(g.goodputTokPerS, "tok/s")}</div>
        </div>
      </div>
      <ul className="space-y-0.5">
        {g.checks.map((c) => (
          <li key={c.slo.metric}>
            <span className={c.met ? "text-ok" : "text-danger"}>{c.met ? "met" : "missed"}</span> ·{" "}
            {describeSlo(c.slo)}
            {c.slo.mode === "req"
              ? ` · ${formatCount(c.missed)} request${c.missed === 1 ? "" : "s"} miss it (no value counts as a miss)`
              : ` · observed ${formatMs(c.observedMs)}`}
          </li>
        ))}
      </ul>
      <p className="text-muted">
        From {g.source}, every request of the profiling phase; failed requests meet no SLO.
        {g.note ? ` ${g.note}.` : ""}
      </p>
    </div>
  );
}
