import { DataTable } from "@/components/charts/data-table";
import { TRTLLM_STEPS } from "@/components/charts/definitions";
import { formatCount, formatMs } from "@/lib/format-number";
import type { RequestDetail } from "@/lib/api/trtllm-charts";
import { NotRecordedText } from "./not-recorded";

type Step = RequestDetail["steps"][number];

const SHOWN = 64;
type Duration = "forwardMs" | "updateMs" | "sampleMs" | "gpuForwardMs" | "gpuSampleMs";
const DURATIONS: Array<[Duration, string]> = [
  ["forwardMs", "forward"],
  ["updateMs", "update"],
  ["sampleMs", "sample"],
  ["gpuForwardMs", "GPU forward"],
  ["gpuSampleMs", "GPU sample"],
];
const cell = (v: number | null) => (v === null ? <NotRecordedText>n/r</NotRecordedText> : formatMs(v));

/** The request's context chunks and generation steps, placed on its timeline when the worker's clock offset is known. */
export function RequestStepsTable({ detail }: { detail: RequestDetail }) {
  if (detail.steps.length === 0)
    return <p className="text-xs text-muted">No step metrics recorded for this request.</p>;
  const origin = detail.arrivalMs ?? 0;
  return (
    <div className="max-h-80 overflow-auto">
      <DataTable
        className="w-full text-xs"
        testId="request-steps"
        definition={{
          ...TRTLLM_STEPS,
          requests:
            "this request: context chunks from its prefill record, generation steps from its decode record",
        }}
        rows={detail.steps.slice(0, SHOWN)}
        rowKey={(_, i) => String(i)}
        columns={[
          { header: "kind", cell: (s) => s.kind },
          { header: "iter", num: true, cell: (s) => s.iter ?? "—" },
          {
            header: "starts (after arrival)",
            num: true,
            cell: (s) =>
              s.startMs === null ? (
                <NotRecordedText>clock offset unknown</NotRecordedText>
              ) : (
                formatMs(s.startMs - origin)
              ),
          },
          ...DURATIONS.map(([key, header]) => ({ header, num: true, cell: (s: Step) => cell(s[key]) })),
        ]}
      />
      {detail.stepCount > SHOWN ? (
        <p className="mt-1 text-xs text-muted">
          First {formatCount(SHOWN)} of {formatCount(detail.stepCount)} steps shown.
        </p>
      ) : null}
    </div>
  );
}
