import { Fragment } from "react";
import type { ComparabilityReason } from "@/lib/api/comparability-schema";
import type { CompareResponse } from "@/lib/api/compare-schemas";

/**
 * "Is this A/B fair?" (docs/metrics.md §Comparable runs): the doctor's verdict on each compared
 * run against the baseline, each reason with both sides and its evidence. A run not comparable
 * loses its better/worse colours and verdicts until the user accepts its blocking differences
 * by name (the URL's `allowDifferent`).
 */
export function ComparabilityPanel({
  data,
  onAccept,
}: {
  data: CompareResponse;
  /** The accepted differences as the URL writes them ("" none) */
  onAccept: (accepted: string) => void;
}) {
  const c = data.comparability;
  if (!c || c.runs.length === 0) return null;
  const name = (id: string) => data.runs.find((r) => r.id === id)?.name ?? id;
  const base = name(data.baseline);
  const worst = c.runs.some((r) => r.verdict === "not comparable")
    ? "not comparable"
    : c.runs.some((r) => r.verdict === "comparable with caveats")
      ? "comparable with caveats"
      : "comparable";
  const blocking = [
    ...new Set(c.runs.flatMap((r) => r.reasons.filter((x) => x.severity === "blocking").map((x) => x.name))),
  ];
  const unaccepted = c.runs.flatMap((r) =>
    r.reasons.filter((x) => x.severity === "blocking" && !x.accepted).map((x) => x.name),
  );
  const tone =
    worst === "not comparable"
      ? "border-danger"
      : worst === "comparable with caveats"
        ? "border-warn"
        : "border-border";
  return (
    <section
      role={worst === "not comparable" ? "alert" : undefined}
      aria-labelledby="comparability-heading"
      data-testid="comparability"
      data-verdict={worst}
      data-accepted={c.accepted}
      className={`min-w-0 rounded-lg border bg-card p-3 text-sm ${tone}`}
    >
      <h2 id="comparability-heading" className="font-medium">
        Is this comparison fair? <VerdictText verdict={worst} />
      </h2>
      <ul className="mt-2 space-y-3">
        {c.runs.map((r) => (
          <li
            key={r.runId}
            data-testid={`comparability-${r.runId}`}
            data-verdict={r.verdict}
            className="min-w-0"
          >
            <p>
              <span className="font-medium">{name(r.runId)}</span> against {base} (baseline):{" "}
              <VerdictText verdict={r.verdict} />
              {r.reasons.length === 0 ? (
                <span className="text-muted">
                  {" "}
                  — no difference in workload, system or measurement that both runs&apos; files state.
                </span>
              ) : null}
            </p>
            {r.reasons.length > 0 ? <ReasonList reasons={r.reasons} /> : null}
          </li>
        ))}
      </ul>
      {blocking.length > 0 ? (
        <p className="mt-2 text-xs text-muted">
          {unaccepted.length > 0
            ? "A blocking difference is what the deltas measure, not the change under test: no better/worse and no verdicts. "
            : "Blocking differences accepted: verdicts given because you said the difference is the point. "}
          <button
            type="button"
            className="btn-ghost ml-1"
            data-testid="comparability-accept"
            onClick={() => onAccept(unaccepted.length > 0 ? blocking.join(",") : "")}
          >
            {unaccepted.length > 0
              ? `Accept ${blocking.join(", ")}: give verdicts`
              : "Withhold verdicts again"}
          </button>
        </p>
      ) : null}
    </section>
  );
}

function VerdictText({ verdict }: { verdict: string }) {
  const cls =
    verdict === "not comparable"
      ? "text-danger"
      : verdict === "comparable with caveats"
        ? "text-warn"
        : "text-ok";
  return <strong className={cls}>{verdict}</strong>;
}

const GROUP: Record<ComparabilityReason["group"], string> = {
  workload: "Workload",
  system: "System",
  measurement: "Measurement",
};

function ReasonList({ reasons }: { reasons: ComparabilityReason[] }) {
  return (
    <ul className="mt-1 space-y-1 pl-1">
      {reasons.map((x) => (
        <li
          key={x.name}
          data-reason={x.name}
          data-severity={x.accepted ? "accepted" : x.severity}
          className="min-w-0 break-words"
        >
          <span
            className={`mr-1 inline-block rounded border px-1 text-xs ${
              x.accepted
                ? "border-border text-muted"
                : x.severity === "blocking"
                  ? "border-danger text-danger"
                  : "border-warn text-warn"
            }`}
          >
            {x.accepted ? "accepted" : x.severity === "blocking" ? "blocks" : "caveat"}
          </span>
          <span className="text-muted">{GROUP[x.group]} · </span>
          {x.label}: <FlagsKept text={x.a} /> →{" "}
          <strong>
            <FlagsKept text={x.b} />
          </strong>
          <span className="block pl-1 text-xs text-muted">
            <FlagsKept text={x.evidence} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Text whose command-line flags ("--publish-events-and-metrics") break across lines only after a
 * hyphen between two of their words: on a phone the line broke after the leading "--", which
 * read as a dash, or mid-word. Each word with its hyphen is kept whole, a break allowed after it.
 */
function FlagsKept({ text }: { text: string }) {
  const parts = text.split(/(--[A-Za-z0-9][\w-]*)/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 0 ? (
          part
        ) : (
          <span key={i} data-flag="">
            {(part.match(/^--[^-]+-?|[^-]+-?/g) ?? [part]).map((word, j, words) => (
              <Fragment key={j}>
                <span className="whitespace-nowrap">{word}</span>
                {j < words.length - 1 ? <wbr /> : null}
              </Fragment>
            ))}
          </span>
        ),
      )}
    </>
  );
}
