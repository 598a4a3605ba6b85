import type { SeriesConfig } from "./plot-types";

/**
 * The parts of a reuse stack, named and coloured alike on every reuse chart (by turn, over time,
 * across compared runs), so a colour means one source wherever the reader meets it.
 */
export const REUSE_PARTS = {
  gpu: { label: "served from GPU cache", color: "var(--chart-5)" },
  // Per-request usage does not say which tier served the cached tokens: the GPU colour, any tier.
  cached: { label: "served from cache", color: "var(--chart-5)" },
  external: { label: "served from host / external tier", color: "var(--chart-3)" },
  recomputed: { label: "reusable, recomputed", color: "var(--chart-7)" },
  fresh: { label: "new to the conversation", color: "var(--chart-8)" },
  // One endpoint's recomputed and new tokens, which only the run's possible reuse tells apart.
  computed: { label: "computed by this endpoint (reusable or new)", color: "var(--chart-6)" },
  ceiling: { label: "possible reuse (ceiling)", color: "var(--fg)" },
} as const;

type Part = keyof typeof REUSE_PARTS;

/**
 * A run's reuse area chart, bottom up: what was served (`served`; the host/external tier above it
 * when the engines count one), what was reusable but recomputed, what was new, and the
 * possible-reuse ceiling as a line over the stack. The keys are those of the chart's rows.
 */
export function reuseAreaSeries<R extends object>(
  served: "gpu" | "cached",
  external: boolean,
): SeriesConfig<R> {
  const area = (part: Part, fillOpacity = 0.7) => ({ ...REUSE_PARTS[part], stack: "p", fillOpacity });
  return {
    [served]: area(served),
    ...(external ? { external: area("external") } : {}),
    recomputed: area("recomputed"),
    fresh: area("fresh", 0.35),
    ceiling: { ...REUSE_PARTS.ceiling, mark: "line", dots: false },
  };
}
