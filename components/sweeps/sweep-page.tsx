"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { ChartTransitionScope, useChartTransition } from "@/components/charts/chart-pending";
import { perUserStatLabel } from "@/lib/metrics/derived-throughput";
import { ChartScatterSweepPareto, type OverlaidSweep } from "@/components/charts/chart-scatter-sweep-pareto";
import { paletteColor } from "@/components/charts/chart-theme";
import { ChartSourceProvider } from "@/components/charts/export-context";
import { CopyLinkButton } from "@/components/run/copy-link-button";
import { TokenPrompt } from "@/components/run/token-prompt";
import { sweepQueryOptions, sweepRunPointQueryOptions } from "@/lib/api/sweep-query-options";
import { MAX_OVERLAID_SWEEPS, type Sweep } from "@/lib/api/sweeps";
import {
  chartAxes,
  loadLabel,
  singleRunPoint,
  SWEEP_CHARTS,
  sweepSeries,
  type SweepChartId,
} from "@/lib/metrics/sweep-chart-rows";
import { FrontierReading } from "./frontier-reading";
import { OverlayPicker } from "./overlay-picker";
import { SweepControls } from "./sweep-controls";
import { SweepGoodput } from "./sweep-goodput";
import { SweepReportLink } from "./sweep-report-link";
import { SweepHeader } from "./sweep-header";
import { sweepSearchParams } from "./search-params";
import { SweepTable } from "./sweep-table";
import { usePatchSweep } from "./use-sweep-mutations";

const CHART_IDS = Object.keys(SWEEP_CHARTS) as SweepChartId[];

/** A sweep's Pareto charts, its points and, overlaid, up to seven more sweeps and one run: all URL state. */
export function SweepPage({ id }: { id: string }) {
  // A statistic or axis change marks the charts out of date until they are drawn again.
  return (
    <ChartTransitionScope>
      <SweepBody id={id} />
    </ChartTransitionScope>
  );
}

function SweepBody({ id }: { id: string }) {
  const [state, setQueryState] = useQueryStates(sweepSearchParams);
  const [, startTransition] = useChartTransition();
  const setState = (p: Parameters<typeof setQueryState>[0]) => startTransition(() => void setQueryState(p));
  // A checkbox shows its new state at once: set inside a transition, React would hold the box at
  // its old value until the charts are drawn again, and a click would seem to do nothing.
  const setNow = (p: Parameters<typeof setQueryState>[0]) => void setQueryState(p);
  const { stat, basis, logx, logy, read, at, run } = state;
  const others = state.with.filter((w) => w !== id).slice(0, MAX_OVERLAID_SWEEPS - 1);
  const main = useQuery(sweepQueryOptions(id));
  const overlays = useQueries({ queries: others.map((o) => sweepQueryOptions(o)) });
  const marked = useQuery({ ...sweepRunPointQueryOptions(run), enabled: run !== "" });
  const patch = usePatchSweep(id);

  if (main.isPending) return <p className="text-sm text-muted">Loading the sweep…</p>;
  if (main.isError) return <p className="text-sm text-danger">{main.error.message}</p>;
  const sweep = main.data;
  const loaded: Sweep[] = [sweep, ...overlays.flatMap((q) => (q.data ? [q.data] : []))];
  const overlaid = (chart: SweepChartId): OverlaidSweep[] => {
    const { x, y } = chartAxes(chart, basis);
    return loaded.map((s, i) => ({
      name: s.name,
      color: paletteColor(i),
      series: sweepSeries(s, stat, x, y),
    }));
  };
  const markedPoint = (chart: SweepChartId) => {
    if (!marked.data) return null;
    const { x, y } = chartAxes(chart, basis);
    const p = marked.data.points[stat];
    const xv = p[x.key];
    const yv = p[y.key];
    if (xv === null || yv === null) return null;
    return {
      ...singleRunPoint(xv, yv, loadLabel(marked.data), marked.data.id, marked.data.name),
      name: `${marked.data.name} (run)`,
    };
  };
  const readChart: SweepChartId = read === "latency" ? "latency" : "interactivity";
  const readAxes = chartAxes(readChart, basis);

  return (
    <ChartSourceProvider source={{ name: loaded.map((s) => s.name).join(" vs "), filePrefix: sweep.name }}>
      <div className="space-y-4">
        <div className="flex flex-wrap items-start gap-3">
          <SweepHeader sweep={sweep} patch={patch} />
          <CopyLinkButton />
          <SweepReportLink
            id={id}
            stat={stat}
            basis={basis}
            slo={state.slo}
            logx={logx}
            logy={logy}
            glogx={state.glogx}
          />
        </div>
        <SweepControls
          stat={stat}
          basis={basis}
          logx={logx}
          logy={logy}
          onChange={(p) => ("logx" in p || "logy" in p ? setNow(p) : setState(p))}
        />
        <OverlayPicker
          id={id}
          overlaid={loaded}
          markedRun={marked.data ?? null}
          markedError={marked.isError ? marked.error.message : null}
          onOverlay={(ids) => void setState({ with: ids })}
          onMark={(r) => void setState({ run: r })}
        />
        <div className="grid gap-4 lg:grid-cols-2">
          {CHART_IDS.map((chart) => {
            const { x, y } = chartAxes(chart, basis);
            const series = overlaid(chart);
            const unplotted = series[0].series.unplotted;
            return (
              <ChartScatterSweepPareto
                key={chart}
                id={chart}
                title={SWEEP_CHARTS[chart].title}
                description={`${x.perStat || y.perStat ? `${stat} per run${x.key === "tokPerSPerUser" && stat !== perUserStatLabel(stat) ? ` (interactivity: its ${perUserStatLabel(stat)}, the slow tail)` : ""}; ` : ""}each point is a run, labelled by its load (a label with no free place beside its point hangs from a line, or is left out: hover the point); repeated runs of one load are one point at their median, their min–max drawn as bars; the step is the Pareto frontier${unplotted.length ? ` · not drawn: ${unplotted.map((u) => `${u.runName} (${u.reason})`).join("; ")}` : ""}`}
                x={x}
                y={y}
                sweeps={series}
                marked={markedPoint(chart)}
                logX={logx}
                logY={logy}
                missing={`No run of this sweep has both ${x.title.toLowerCase()} and ${y.title.toLowerCase()}: ${unplotted[0]?.reason ?? "the sweep has no runs"}.`}
              />
            );
          })}
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span>Compare at equal</span>
          <select
            className="input py-1"
            aria-label="Compare at equal"
            value={read}
            onChange={(e) => void setState({ read: e.target.value as typeof read, at: null })}
          >
            <option value="interactivity">interactivity (tok/s/user)</option>
            <option value="latency">end-to-end latency (ms)</option>
          </select>
        </div>
        <FrontierReading
          sweeps={overlaid(readChart)}
          x={readAxes.x}
          y={readAxes.y}
          at={at}
          onAt={(v) => void setState({ at: v })}
        />
        <SweepGoodput
          sweeps={loaded}
          slo={state.slo}
          onSlo={(slo) => void setState({ slo: slo || null })}
          logX={state.glogx}
          onLogX={(glogx) => setNow({ glogx })}
        />
        {patch.needsToken ? <TokenPrompt onSaved={() => patch.reset()} /> : null}
        <SweepTable sweep={sweep} stat={stat} onRemove={(runId) => patch.mutate({ removeRunIds: [runId] })} />
      </div>
    </ChartSourceProvider>
  );
}
