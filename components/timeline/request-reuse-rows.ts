import type { TimelineRequest } from "@/lib/api/timeline";
import { formatCount } from "@/lib/format-number";

const tokens = (v: number) => `${formatCount(Math.round(v))} tokens`;

/**
 * The request detail's conversation, turn and reuse lines (docs/metrics.md §Turns): none for a
 * record without a turn. The possible reuse says which count the Turns view and the reuse stack
 * use for this request, and gives the other beside it when both are known.
 */
export function requestReuseRows(r: TimelineRequest): Array<[string, string]> {
  if (r.turnIndex === null) return [];
  const p = r.possibleReuse;
  const rows: Array<[string, string]> = [
    ["conversation", r.conversationId ?? "not recorded"],
    ["turn", String(r.turnIndex)],
    [
      "cached prompt tokens",
      r.cachedTokens === null ? "not recorded (the response carried no usage)" : tokens(r.cachedTokens),
    ],
  ];
  if (p.source === "inputs" && p.inputs !== null) {
    rows.push(["possible reuse", `${tokens(p.inputs)}, estimated from inputs.json (what the charts count)`]);
    rows.push([
      "records' count",
      p.records === null
        ? "not known (the previous turn was not read before this one)"
        : `${tokens(p.records)} (previous turn's prompt and answer)`,
    ]);
    if (p.inputsNonText)
      rows.push([
        "not counted",
        "this turn's payload has image, audio or video parts, whose tokens inputs.json does not give",
      ]);
  } else if (p.source === "records" && p.records !== null) {
    rows.push([
      "possible reuse",
      `${tokens(p.records)}, previous turn's prompt and answer (from the records)`,
    ]);
  } else {
    rows.push([
      "possible reuse",
      "not known (the previous turn was not read before this one, or no prompt length)",
    ]);
  }
  return rows;
}
