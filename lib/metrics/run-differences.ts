/**
 * What makes two runs different experiments rather than two measurements of one (docs/metrics.md
 * §Comparable runs): the model, the GPU (model and count), the serving backend, the input and
 * output lengths and the concurrency. A verdict across such a difference measures the difference,
 * not the change under test, so compare and the gate withhold theirs unless the user says the
 * difference is the point.
 */
import type { RunFacts } from "@/lib/api/run-facts";

export type ComparedFact = "model" | "gpu" | "backend" | "isl" | "osl" | "concurrency";

export interface FactDifference {
  fact: ComparedFact;
  /** What the fact is called on the page ("model", "GPU", "ISL") */
  label: string;
  /** The fact in the first run and in the second, as the page writes it */
  a: string;
  b: string;
}

/**
 * Mean sequence lengths measured from two runs of one configuration differ a little (random
 * lengths, early stops); beyond this relative gap they are different workloads.
 */
export const LENGTH_TOLERANCE = 0.1;

type Facts = Pick<RunFacts, "model" | "gpuModel" | "gpuCount" | "backend" | "isl" | "osl" | "concurrency">;

const norm = (s: string) => s.trim().toLowerCase();

function gpuText(f: Facts): string | null {
  const model = f.gpuModel?.value ?? null;
  const count = f.gpuCount?.value ?? null;
  if (model === null && count === null) return null;
  if (model === null) return `${count} GPU${count === 1 ? "" : "s"}`;
  return count === null ? model : `${count} × ${model}`;
}

function lengthsDiffer(a: number, b: number): boolean {
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale > 0 && Math.abs(a - b) / scale > LENGTH_TOLERANCE;
}

const tokens = (v: number) => `${Math.round(v).toLocaleString("en-US")} tokens`;

/**
 * The facts in which two runs differ. A fact one run does not state is no difference: it cannot
 * be shown, and refusing on it would refuse every run whose files do not say.
 */
export function runDifferences(a: { facts: Facts }, b: { facts: Facts }): FactDifference[] {
  const out: FactDifference[] = [];
  const text = (fact: ComparedFact, label: string, x: string | null, y: string | null) => {
    if (x !== null && y !== null && norm(x) !== norm(y)) out.push({ fact, label, a: x, b: y });
  };
  text("model", "model", a.facts.model?.value ?? null, b.facts.model?.value ?? null);
  // The count is compared only when both runs state it; a model alone still tells two GPUs apart.
  const bothCounts = a.facts.gpuCount && b.facts.gpuCount;
  const am = a.facts.gpuModel?.value ?? null;
  const bm = b.facts.gpuModel?.value ?? null;
  if (
    (am !== null && bm !== null && norm(am) !== norm(bm)) ||
    (bothCounts && a.facts.gpuCount!.value !== b.facts.gpuCount!.value)
  )
    out.push({ fact: "gpu", label: "GPU", a: gpuText(a.facts)!, b: gpuText(b.facts)! });
  text("backend", "backend", a.facts.backend?.value ?? null, b.facts.backend?.value ?? null);
  for (const [fact, label] of [
    ["isl", "ISL"],
    ["osl", "OSL"],
  ] as const) {
    const x = a.facts[fact]?.value;
    const y = b.facts[fact]?.value;
    if (x !== undefined && y !== undefined && lengthsDiffer(x, y))
      out.push({ fact, label, a: tokens(x), b: tokens(y) });
  }
  const ca = a.facts.concurrency?.value;
  const cb = b.facts.concurrency?.value;
  if (ca !== undefined && cb !== undefined && ca !== cb)
    out.push({ fact: "concurrency", label: "concurrency", a: String(ca), b: String(cb) });
  return out;
}

/** One line: "model Qwen3-0.6B vs mock-llama-8b; GPU 1 × RTX 6000 vs 2 × H100". */
export function differencesText(diffs: FactDifference[]): string {
  return diffs.map((d) => `${d.label} ${d.a} vs ${d.b}`).join("; ");
}
