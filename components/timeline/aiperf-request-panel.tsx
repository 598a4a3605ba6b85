"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { formatCount, formatMs } from "@/lib/format-number";
import { timelineRequestQueryOptions } from "@/lib/api/timeline-query-options";
import { RequestDetailFrame } from "@/components/request-detail/request-detail-frame";
import { requestReuseRows } from "./request-reuse-rows";

/**
 * The drill-down of one aiperf record of the timeline: its exact x_request_id, where it is, its
 * latencies, and on a multi-turn run its turn and reuse.
 */
export function AiperfRequestPanel({
  runId,
  rid,
  onClose,
  children,
}: {
  runId: string;
  rid: number;
  onClose: () => void;
  /** More of the request below its record (its server side, where the run has it) */
  children?: ReactNode;
}) {
  const q = useQuery(timelineRequestQueryOptions(runId, rid));
  const r = q.data;
  const rows: Array<[string, string]> = r
    ? [
        ["Request ID (sent as x_request_id)", r.requestId ?? "not recorded"],
        ["record", `${r.file ?? "?"}, line ${r.line}`],
        [
          "outcome",
          r.ok ? "succeeded" : r.cancelled ? "cancelled" : `failed${r.errorType ? ` (${r.errorType})` : ""}`,
        ],
        [
          "start",
          r.startMs === null ? "not recorded" : `${formatMs(r.startMs)} after the run's first request`,
        ],
        ["TTFT", r.ttftMs === null ? "not recorded" : formatMs(r.ttftMs)],
        ["end to end", r.e2eMs === null ? "not recorded" : formatMs(r.e2eMs)],
        ["inter-token latency", r.itlMs === null ? "not recorded" : formatMs(r.itlMs)],
        ["input tokens", r.inputTokens === null ? "not recorded" : formatCount(r.inputTokens)],
        ["output tokens", r.outputTokens === null ? "not recorded" : formatCount(r.outputTokens)],
        ...requestReuseRows(r),
      ]
    : [];
  return (
    <RequestDetailFrame label="request detail" loading={q.isLoading} failed={!!q.error} onClose={onClose}>
      {r ? (
        // A phone stacks each value under its name: beside a column of names, values broke every few letters.
        <dl className="grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-[max-content_1fr] sm:gap-y-1">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-muted">{k}</dt>
              <dd className="mb-2 font-mono text-xs leading-5 [overflow-wrap:anywhere] sm:mb-0">{v}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {r ? children : null}
    </RequestDetailFrame>
  );
}
