"use client";

import { openFactEditor } from "@/components/run/run-facts";
import { GPU_COUNT_UNKNOWN, type DerivedValue } from "@/lib/api/derived-throughput";
import type { RunSummary } from "@/lib/api/schemas";
import { figureDigits, formatFixed, formatNumber } from "@/lib/format-number";
import { perUserStatLabel } from "@/lib/metrics/derived-throughput";

const DEFINITIONS = {
  output: "output tokens per second ÷ GPUs",
  total: "(input + output) tokens per second ÷ GPUs",
  requests: "successful requests per second ÷ GPUs",
  perUser: "per request 1000 ÷ TPOT ms, as aiperf's output_token_throughput_per_user",
};

function Figure({
  label,
  v,
  unit,
  definition,
}: {
  label: string;
  v: DerivedValue;
  unit: string;
  definition: string;
}) {
  const unknownGpus = v.reason === GPU_COUNT_UNKNOWN;
  return (
    <div
      className="rounded-lg border border-border bg-card p-3"
      title={definition}
      data-testid="derived-tile"
    >
      <div className="text-xs text-muted">{label}</div>
      {v.value !== null ? (
        <div className="text-lg font-semibold tabular-nums">
          {formatNumber(v.value, Math.abs(v.value) < 1 ? 3 : 2)}{" "}
          <span className="text-xs font-normal text-muted">{unit}</span>
        </div>
      ) : unknownGpus ? (
        <button
          type="button"
          className="text-sm text-accent underline"
          onClick={() => openFactEditor("gpuCount")}
        >
          {GPU_COUNT_UNKNOWN}
        </button>
      ) : (
        <div className="text-sm text-muted">{v.reason}</div>
      )}
    </div>
  );
}

/** Per-GPU and per-user throughput with the GPU count's source beside it (docs/metrics.md §Derived throughput). */
export function DerivedThroughputSection({ run }: { run: RunSummary }) {
  const d = run.derived;
  if (d.source === null) return null;
  const perUser = d.tokPerUser;
  const spread = (["p50", "p90", "p99"] as const)
    .filter((s) => perUser[s].value !== null)
    // The tails of a higher-is-better rate are its slow ones: p99 reads the worst 1% (p1).
    // One precision for the tile, its value's (figureDigits): "55.10 · 54.00 · 51.30", was "55.1 · 54 · 51.3".
    .map((s) => `${perUserStatLabel(s)} ${formatFixed(perUser[s].value, figureDigits("tok/s/user") ?? 2)}`)
    .join(" · ");
  return (
    <section className="space-y-2" aria-labelledby="derived-heading" data-testid="derived-throughput">
      <div className="flex flex-wrap items-baseline gap-x-3 text-sm">
        <h2 id="derived-heading" className="font-medium">
          Per GPU and per user
        </h2>
        <span className="text-xs text-muted" data-testid="derived-gpus">
          {d.gpuCount !== null ? (
            <>
              {formatNumber(d.gpuCount, 0)} GPU{d.gpuCount === 1 ? "" : "s"} ·{" "}
              {d.gpuCountSource === "edited" ? "set by hand" : `from ${d.gpuCountSource}`}{" "}
              <button type="button" className="underline" onClick={() => openFactEditor("gpuCount")}>
                correct it
              </button>
            </>
          ) : (
            <button
              type="button"
              className="text-accent underline"
              onClick={() => openFactEditor("gpuCount")}
            >
              {GPU_COUNT_UNKNOWN}
            </button>
          )}
          {" · "}throughput from {d.source}
        </span>
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Figure
          label="Output tok/s per GPU"
          v={d.outputTokPerSPerGpu}
          unit="tok/s/GPU"
          definition={DEFINITIONS.output}
        />
        <Figure
          label="Total tok/s per GPU"
          v={d.totalTokPerSPerGpu}
          unit="tok/s/GPU"
          definition={DEFINITIONS.total}
        />
        <Figure
          label="Requests/s per GPU"
          v={d.requestsPerSPerGpu}
          unit="req/s/GPU"
          definition={DEFINITIONS.requests}
        />
        <div>
          <Figure
            label="Tok/s per user (mean)"
            v={perUser.mean}
            unit="tok/s/user"
            definition={DEFINITIONS.perUser}
          />
          {spread ? <div className="mt-1 text-xs text-muted">{spread}</div> : null}
        </div>
      </div>
      {d.note ? (
        <p className="text-xs text-muted" role="note">
          {d.note.charAt(0).toUpperCase() + d.note.slice(1)}.
        </p>
      ) : null}
    </section>
  );
}
