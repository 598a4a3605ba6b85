/**
 * The comparability doctor's answer as the API carries it (docs/metrics.md §Comparable runs): a
 * verdict per compared pair and each reason with its evidence; and `allowDifferent`, the
 * differences a user accepts by name.
 */
import { z } from "zod";

/** Every reason the doctor gives, by the name `allowDifferent` accepts. */
export const REASON_NAMES = [
  "model",
  "dataset",
  "seed",
  "isl",
  "osl",
  "concurrency",
  "request-rate",
  "request-count",
  "sample-size",
  "turns",
  "gpu",
  "backend",
  "backend-version",
  "parallelism",
  "kv-cache",
  "kv-offload",
  "speculative-decoding",
  "measured-by",
  "collectors",
  "warmup",
  "errors",
  "cancellations",
  "saturation",
  "submission-valid",
] as const;
export type ReasonName = (typeof REASON_NAMES)[number];

export const COMPARABILITY_VERDICTS = ["comparable", "comparable with caveats", "not comparable"] as const;

export const comparabilityReasonSchema = z.object({
  name: z.enum(REASON_NAMES),
  group: z.enum(["workload", "system", "measurement"]),
  /** blocking: the verdict is unsafe; caveat: it stands, to be read with this in mind */
  severity: z.enum(["blocking", "caveat"]),
  /** The user accepted this difference by name: it no longer blocks */
  accepted: z.boolean(),
  /** What the difference is called on the page ("model", "GPU", "ISL distribution") */
  label: z.string(),
  /** The baseline's side and the compared run's, as the page writes them */
  a: z.string(),
  b: z.string(),
  /** How the difference was established: the test, the threshold, the sources */
  evidence: z.string(),
});

export const comparabilityReportSchema = z.object({
  verdict: z.enum(COMPARABILITY_VERDICTS),
  reasons: z.array(comparabilityReasonSchema),
});

export type ComparabilityReason = z.infer<typeof comparabilityReasonSchema>;
export type ComparabilityReport = z.infer<typeof comparabilityReportSchema>;
export type ComparabilityVerdict = ComparabilityReport["verdict"];

/** Accepted differences: every one, or those named. */
export type AcceptedDifferences = "all" | ReadonlySet<ReasonName>;

/**
 * `allowDifferent` as a URL writes it: `1`/`true`/`all` accepts every difference, a comma list
 * (`model,gpu`) the differences it names, `0`/`false`/absent none. An unknown name is refused, so
 * a typo cannot pass a gate.
 */
export const allowDifferentSchema = z
  .string()
  .max(500)
  .optional()
  .transform((v, ctx): AcceptedDifferences => {
    if (v === undefined || v === "" || v === "0" || v === "false") return new Set();
    if (v === "1" || v === "true" || v === "all") return "all";
    const names = v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = names.filter((n) => !(REASON_NAMES as readonly string[]).includes(n));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `unknown difference ${unknown.join(", ")}; known: ${REASON_NAMES.join(", ")}`,
      });
      return z.NEVER;
    }
    return new Set(names as ReasonName[]);
  });

/** The accepted differences as a URL writes them back: "1" for all, the names otherwise, "" for none. */
export function acceptedParam(a: AcceptedDifferences): string {
  return a === "all" ? "1" : [...a].join(",");
}
