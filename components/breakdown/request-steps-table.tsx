import { formatMs } from "@/lib/format-number";
import type { RequestDetail } from "@/lib/api/trtllm-charts";
import { NotRecordedText } from "./not-recorded";

const SHOWN = 64;
const cell = (v: number | null) => (v === null ? <NotRecordedText>n/r</NotRecordedText> : formatMs(v));

/** The request's context chunks and generation steps, placed on its timeline when the worker's clock offset is known. */
export function RequestStepsTable({ detail }: { detail: RequestDetail }) {
  if (detail.steps.length === 0)
    return <p className="text-xs text-muted">No step metrics recorded for this request.</p>;
  const origin = detail.arrivalMs ?? 0;
  return (
    <div className="max-h-80 overflow-auto">
      <table className="table-base w-full text-xs">
        <thead>
          <tr>
            <th>kind</th>
            <th className="num">iter</th>
            <th className="num">starts (after arrival)</th>
            <th className="num">forward</th>
            <th className="num">update</th>
            <th className="num">sample</th>
            <th className="num">GPU forward</th>
            <th className="num">GPU sample</th>
          </tr>
        </thead>
        <tbody>
          {detail.steps.slice(0, SHOWN).map((s, i) => (
            <tr key={i}>
              <td>{s.kind}</td>
              <td className="num">{s.iter ?? "—"}</td>
              <td className="num">
                {s.startMs === null ? (
                  <NotRecordedText>clock offset unknown</NotRecordedText>
                ) : (
                  formatMs(s.startMs - origin)
                )}
              </td>
              <td className="num">{cell(s.forwardMs)}</td>
              <td className="num">{cell(s.updateMs)}</td>
              <td className="num">{cell(s.sampleMs)}</td>
              <td className="num">{cell(s.gpuForwardMs)}</td>
              <td className="num">{cell(s.gpuSampleMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {detail.stepCount > SHOWN ? (
        <p className="mt-1 text-xs text-muted">
          First {SHOWN} of {detail.stepCount} steps shown.
        </p>
      ) : null}
    </div>
  );
}
