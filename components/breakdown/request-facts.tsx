import { infoLabel } from "@/components/run/run-info";
import { formatBytes, formatMs, formatNumber, formatRate } from "@/lib/format-number";
import type { RequestDetail } from "@/lib/api/trtllm-charts";
import { NotRecordedText } from "./not-recorded";

const fact = (v: string | null) => (v === null ? <NotRecordedText /> : v);

/** Ids, servers, every timestamp and the KV numbers of one request. */
export function RequestFacts({ detail }: { detail: RequestDetail }) {
  const kv = detail.kv;
  const items: Array<[string, string | null]> = [
    ["request id", detail.requestId],
    ["ctx request id", detail.ctxRequestId],
    ["disagg request id", detail.disaggRequestId],
    ["ctx server / worker", detail.ctxServer ?? detail.ctxWorker],
    ["gen server / worker", detail.genServer ?? detail.genWorker],
    ["TTFT", detail.ttftMs === null ? null : formatMs(detail.ttftMs)],
    ["end to end", detail.e2eMs === null ? null : formatMs(detail.e2eMs)],
    [
      "KV blocks reused / missed",
      kv.reusedBlocks === null ? null : `${kv.reusedBlocks} / ${kv.missedBlocks}`,
    ],
    ["KV hit rate", kv.hitRate === null ? null : formatRate(kv.hitRate)],
    ["KV transfer", kv.transferBytes === null ? null : formatBytes(kv.transferBytes)],
    ["KV transfer time", kv.transferMs === null ? null : formatMs(kv.transferMs)],
    ["KV bandwidth", kv.bandwidthGBps === null ? null : `${formatNumber(kv.bandwidthGBps, 3)} GB/s`],
    [
      "draft tokens accepted",
      detail.speculative
        ? `${detail.speculative.acceptedDraftTokens} / ${detail.speculative.draftTokens}`
        : null,
    ],
  ];
  const origin = detail.arrivalMs ?? 0;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
        {items.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-muted">{k}</dt>
            <dd className="num">{fact(v)}</dd>
          </div>
        ))}
      </dl>
      <table className="table-base text-xs">
        <thead>
          <tr>
            <th>timestamp</th>
            <th className="num">ms after arrival</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(detail.times).map(([k, v]) => (
            <tr key={k}>
              <td title={k}>{infoLabel(k)}</td>
              <td className="num">{v === null ? <NotRecordedText /> : formatMs(v - origin)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
