"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { useCallback, useEffect, useRef, useState } from "react";
import { ToggleGroup } from "@/components/breakdown/breakdown-controls";
import { requestDetailQueryOptions } from "@/components/breakdown/query-options";
import { RequestWaterfall } from "@/components/breakdown/request-waterfall";
import type { RunViewProps } from "@/components/run/run-view-props";
import { runSearchParams } from "@/components/run/search-params";
import { RequestLinkNotice } from "@/components/run/request-link-notice";
import { useRequestLink } from "@/components/run/use-request-link";
import { AiperfRequestPanel } from "@/components/timeline/aiperf-request-panel";
import { JourneySummaryPanel, RequestJourneyPanel } from "@/components/timeline/request-journey";
import { timelineQueryOptions, timelineRequestQueryOptions } from "@/lib/api/timeline-query-options";
import { TimelineCanvas } from "@/components/timeline/timeline-canvas";
import { TimelineContext } from "@/components/timeline/timeline-context";
import { clampWindow, zoomWindow, type ViewWindow } from "@/components/timeline/timeline-layout";
import { TimelineMoment } from "@/components/timeline/timeline-moment";
import { useRevealOnOpen } from "@/components/timeline/opened-request";
import { hasTimelineData } from "@/lib/api/run-views";
import type { TimelineLanes, TimelinePayload } from "@/lib/api/timeline";
import { formatCount, formatMs, plural } from "@/lib/format-number";
import { DrilldownNotice } from "@/components/run/drilldown-notice";
import { drilldownBuilding } from "@/lib/api/drilldown";
import { trtllmRequestOwnId } from "@/lib/metrics/trtllm-request-name";
import { RecordsSampleLine } from "@/components/aiperf/records-sample";
import { ManifestEmptyView } from "./empty-view";

const LANE_TEXT: Record<TimelineLanes, string> = {
  worker: "worker",
  "ctx-worker": "context worker",
  conversation: "conversation",
  file: "file",
  none: "in-flight slots",
};

/** A gesture's last window reaches the URL (and the server) this long after it stops. */
const SETTLE_MS = 200;

function Legend({ p }: { p: TimelinePayload }) {
  const used = new Set(p.parts.seg);
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="segments">
      {p.segments.map((s, i) =>
        used.has(i) ? (
          <li key={s.name} className="inline-flex items-center gap-1" title={s.label}>
            <span className="inline-block h-3 w-3 rounded-sm" style={{ background: s.colour }} aria-hidden />
            {s.label}
          </li>
        ) : null,
      )}
    </ul>
  );
}

/**
 * Every request of the run on one time axis (docs/metrics.md §Request timeline), with the
 * server's state beside it. The window lives in the URL (`tfrom`, `tto`); a gesture redraws the
 * bars already fetched at once and asks the server for the new window once it settles.
 */
export function TimelineView({ run }: RunViewProps) {
  const has = hasTimelineData(run);
  const building = drilldownBuilding(run);
  // Dynamo's spans or request trace, or TensorRT-LLM's per-request perf metrics, beside aiperf's
  // records: each request from client to engine.
  const journey =
    run.files.some((f) => f.kind === "aiperf-records") &&
    (run.info.dynamoSpanRequests != null ||
      run.info.dynamoTraceRequests != null ||
      run.timeBreakdown !== null);
  const [tfrom, setTfrom] = useQueryState("tfrom", runSearchParams.tfrom);
  const [tto, setTto] = useQueryState("tto", runSearchParams.tto);
  const [lanes, setLanes] = useQueryState("lanes", runSearchParams.lanes);
  const link = useRequestLink(run.id);
  const req = link.position;
  const q = useQuery({
    ...timelineQueryOptions(run.id, { from: tfrom, to: tto, lanes }),
    enabled: has && !building,
    placeholderData: keepPreviousData,
  });
  const p = q.data;
  const bounds: ViewWindow | null = p ? { from: p.run.startMs, to: p.run.endMs } : null;
  const [view, setView] = useState<ViewWindow | null>(null);
  const [cursorMs, setCursorMs] = useState<number | null>(null);
  // The window drawn: the gesture's while one runs, else the URL's (or the whole run).
  const shown: ViewWindow | null =
    view ?? (p ? { from: tfrom ?? p.window.fromMs, to: tto ?? p.window.toMs } : null);
  const settle = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onView = useCallback(
    (v: ViewWindow) => {
      setView(v);
      if (settle.current) clearTimeout(settle.current);
      settle.current = setTimeout(() => {
        const round = (x: number) => Math.round(x * 1000) / 1000;
        void setTfrom(round(v.from));
        void setTto(round(v.to));
        // The URL is the window again; the last bars stay drawn in it until the new ones are in.
        setView(null);
      }, SETTLE_MS);
    },
    [setTfrom, setTto],
  );
  useEffect(() => () => void (settle.current && clearTimeout(settle.current)), []);
  // An opened request's detail sits below the charts, its top brought into view.
  const detail = useRevealOnOpen(req, "start");
  const client = useQueryClient();
  const { open: openLink } = link;
  const open = useCallback(
    (bar: number) => {
      if (!p) return;
      const id = p.bars.id[bar];
      // A bar carries its position only: its own id is read from its detail, fetched at the click.
      openLink(
        id,
        p.source === "trtllm"
          ? async () => trtllmRequestOwnId(await client.fetchQuery(requestDetailQueryOptions(run.id, id)))
          : async () => (await client.fetchQuery(timelineRequestQueryOptions(run.id, id))).requestId,
      );
    },
    [client, p, run.id, openLink],
  );

  if (!has) return <ManifestEmptyView id="timeline" title="No per-request records in this run" />;
  if (building) return <DrilldownNotice what="The request timeline and each request's detail" />;
  if (q.error)
    return <p className="text-sm text-muted">The timeline could not be loaded: {q.error.message}</p>;
  if (!p || !shown || !bounds) return <p className="text-sm text-muted">Loading requests…</p>;
  const zoom = (factor: number) => onView(zoomWindow(shown, factor, (shown.from + shown.to) / 2, bounds));
  const pan = (share: number) => {
    const d = (shown.to - shown.from) * share;
    onView(clampWindow({ from: shown.from + d, to: shown.to + d }, bounds));
  };
  const whole = () => {
    if (settle.current) clearTimeout(settle.current);
    setView(null);
    void setTfrom(null);
    void setTto(null);
  };
  const sample = run.requests?.recordsSample ?? null;
  return (
    <div className="space-y-4">
      <RecordsSampleLine requests={run.requests} />
      {journey ? <JourneySummaryPanel runId={run.id} /> : null}
      <p className="text-sm text-muted" data-timeline-summary>
        {formatCount(p.inWindow)} of{" "}
        {sample
          ? // The records hold a sample: "the run's 10 requests" would contradict the run's 64.
            `the ${plural(p.run.requests, "request")} in the records (a sample of the run's ${formatCount(sample.described)})`
          : `the run's ${plural(p.run.requests, "request")}`}{" "}
        {p.inWindow === 1 ? "overlaps" : "overlap"} {formatMs(p.window.fromMs)} – {formatMs(p.window.toMs)}
        {p.lanesBy !== "none" ? `, on ${plural(p.lanes.length, `${LANE_TEXT[p.lanesBy]} lane`)}` : ""}.
        {p.source === "aiperf"
          ? " Profiling requests only: the warm-up is left out, as in the statistics."
          : ""}{" "}
        {q.isPlaceholderData || view ? "Loading the new window…" : ""}
      </p>
      {p.sampleNote ? (
        <p className="rounded border border-warn/50 px-3 py-2 text-sm" data-timeline-sample>
          {p.sampleNote}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex items-center gap-1" role="group" aria-label="time window">
          <button type="button" className="btn-ghost" onClick={() => zoom(0.5)} aria-label="zoom in">
            Zoom in
          </button>
          <button type="button" className="btn-ghost" onClick={() => zoom(2)} aria-label="zoom out">
            Zoom out
          </button>
          <button type="button" className="btn-ghost" onClick={() => pan(-0.25)} aria-label="pan left">
            ←
          </button>
          <button type="button" className="btn-ghost" onClick={() => pan(0.25)} aria-label="pan right">
            →
          </button>
          <button type="button" className="btn-ghost" onClick={whole}>
            Whole run
          </button>
        </div>
        {p.laneChoices.length > 1 ? (
          <ToggleGroup
            label="lanes by"
            options={p.laneChoices.map((id) => ({ id, text: LANE_TEXT[id] }))}
            value={p.lanesBy}
            onChange={(l) => void setLanes(l)}
          />
        ) : null}
      </div>
      <Legend p={p} />
      <TimelineCanvas
        payload={p}
        view={shown}
        bounds={bounds}
        onView={onView}
        onOpen={open}
        selectedId={req}
        cursorMs={cursorMs}
        onCursor={setCursorMs}
        label={`Request timeline: ${plural(p.bars.id.length, "request")} drawn`}
      />
      <TimelineContext
        run={run}
        originEpochMs={p.originEpochMs}
        source={p.source}
        view={shown}
        cursorMs={cursorMs}
      />
      <TimelineMoment payload={p} cursorMs={cursorMs} />
      <RequestLinkNotice link={link} />
      {req !== null ? (
        <div ref={detail} tabIndex={-1} data-testid="timeline-request-detail" className="scroll-mt-4">
          {p.source === "trtllm" ? (
            <>
              <RequestWaterfall runId={run.id} idx={req} onClose={link.close} />
              {journey ? (
                <div className="mt-4">
                  <RequestJourneyPanel runId={run.id} rid={req} />
                </div>
              ) : null}
            </>
          ) : (
            <AiperfRequestPanel runId={run.id} rid={req} onClose={link.close}>
              {journey ? <RequestJourneyPanel runId={run.id} rid={req} /> : null}
            </AiperfRequestPanel>
          )}
        </div>
      ) : null}
    </div>
  );
}
