/**
 * The CI gate (docs/metrics.md §Regressions): a run's verdicts against its baseline, the rules
 * that fail it, and the Markdown summary a pull request gets.
 */
import type { AcceptedDifferences } from "@/lib/api/comparability-schema";
import type { GateResult, Judgement, MetricVerdictDto } from "@/lib/api/regression-schemas";
import { parseFailOn, parseThresholds, type FailRule } from "@/lib/metrics/regression/catalog";
import type { Db } from "@/lib/store/db";
import { judgeRun, NoBaselineError, NotComparableError } from "./verdicts";
import type { BaselineSpec } from "@/lib/api/regression-schemas";

export interface GateRequest {
  baseline: BaselineSpec;
  failOn?: string;
  thresholds?: string;
  seed?: number;
  /** Differences accepted by name, or all: judge a baseline that differs in them */
  allowDifferent?: AcceptedDifferences;
  /** Where links point: the server's public origin */
  origin: string;
  /**
   * Whether the answer may name the baseline's runs (their ids, and the compare link that holds
   * them): false in private mode without the token, where one run's link must not lead to the
   * other runs of its series. A baseline the caller named by id is named back.
   */
  nameBaseline?: boolean;
}

export class GateInputError extends Error {}

/** Parses the rules and thresholds; a rule's limit is its metric's threshold too. */
export function gateOptions(failOn?: string, thresholds?: string) {
  try {
    const rules = failOn ? parseFailOn(failOn) : [];
    const t = thresholds ? parseThresholds(thresholds) : {};
    for (const r of rules) t[r.metric] ??= Math.abs(r.limit);
    return { rules, thresholds: t };
  } catch (err) {
    throw new GateInputError((err as Error).message);
  }
}

const pct = (v: number | null) => (v === null ? "—" : `${v >= 0 ? "+" : ""}${(v * 100).toFixed(1)}%`);

function num(v: number | null, unit: string): string {
  if (v === null) return "—";
  if (unit === "ratio") return `${(v * 100).toFixed(1)}%`;
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return `${v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
}

/** Whether a verdict breaks a rule: regressed, and changed past the rule's limit. */
function breaks(v: MetricVerdictDto, rule: FailRule): boolean {
  if (v.verdict !== "regressed" || v.effect === null) return false;
  return rule.op === ">" ? v.effect > rule.limit : v.effect < rule.limit;
}

export function decide(
  judgement: Judgement,
  rules: FailRule[],
): Pick<GateResult, "outcome" | "exitCode" | "reasons"> {
  const byId = new Map(judgement.verdicts.map((v) => [v.metric, v]));
  const reasons: string[] = [];
  const unjudged: string[] = [];
  if (rules.length === 0) {
    for (const v of judgement.verdicts)
      if (v.verdict === "regressed")
        reasons.push(`${v.metric} regressed ${pct(v.effect)} (threshold ${pct(v.threshold)})`);
  }
  for (const rule of rules) {
    const v = byId.get(rule.metric);
    if (!v || v.effect === null) unjudged.push(`${rule.metric}: ${v?.note ?? v?.verdict ?? "not measured"}`);
    else if (breaks(v, rule)) reasons.push(`${rule.metric} regressed ${pct(v.effect)}, past ${rule.text}`);
  }
  if (reasons.length > 0) return { outcome: "fail", exitCode: 1, reasons };
  if (unjudged.length > 0)
    return { outcome: "unjudged", exitCode: 2, reasons: unjudged.map((u) => `could not judge ${u}`) };
  return { outcome: "pass", exitCode: 0, reasons: [] };
}

const HEADLINE = { pass: "no regression", fail: "regression", unjudged: "could not judge" } as const;

export function gateMarkdown(
  result: Pick<GateResult, "outcome" | "reasons" | "runUrl" | "compareUrl" | "comparability">,
  judgement: Judgement | null,
): string {
  const out = [`### Runlens: ${HEADLINE[result.outcome]}`, ""];
  if (judgement) {
    const run = result.runUrl ? `[${judgement.runName}](${result.runUrl})` : judgement.runName;
    const cmp = result.compareUrl ? ` · [compare](${result.compareUrl})` : "";
    out.push(`Run ${run} against ${judgement.baseline.label}${cmp}`, "");
  }
  for (const r of result.reasons) out.push(`- ${r}`);
  if (result.reasons.length) out.push("");
  // The doctor's reasons, each with its evidence: why the pair was refused, or what to keep in mind.
  for (const report of judgement?.comparability ?? result.comparability ?? [])
    if (report.reasons.length > 0) {
      out.push(`**Comparability: ${report.verdict}**`, "");
      for (const r of report.reasons)
        out.push(
          `- ${r.severity === "blocking" ? (r.accepted ? "accepted" : "blocks") : "caveat"}: ${r.label} ${r.a} (baseline) → ${r.b} — ${r.evidence}`,
        );
      out.push("");
    }
  for (const m of judgement?.collectorMismatches ?? [])
    if (m.kind === "differs")
      out.push(
        `> Collectors differ: \`${m.flag}\` is on in some runs and off in others; they measure different things.`,
        "",
      );
  if (judgement && judgement.verdicts.length > 0) {
    out.push(
      "| Metric | Baseline | Run | Change | 95% interval | Verdict | Method |",
      "|---|--:|--:|--:|--:|---|---|",
    );
    for (const v of judgement.verdicts) {
      const interval = v.low === null ? "—" : `${pct(v.low)} … ${pct(v.high)}`;
      const n = `n = ${v.samples.run.toLocaleString("en-US")} vs ${v.samples.baseline.toLocaleString("en-US")} ${v.samples.unit}`;
      const seed =
        v.seed === null ? "" : `, seed ${v.seed}, ${v.resamples?.toLocaleString("en-US")} resamples`;
      const verdict = v.verdict === "regressed" ? "**regressed**" : v.verdict;
      out.push(
        `| ${v.label} | ${num(v.baseline, v.unit)} | ${num(v.value, v.unit)} | ${pct(v.effect)} | ${interval} | ${verdict} (±${(v.threshold * 100).toFixed(0)}%) | ${v.method}; ${n}${seed} |`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}

/** The names of the blocking differences, as `allowDifferent` takes them. */
function acceptHint(err: NotComparableError): string {
  const names = new Set(
    err.reports.flatMap((r) =>
      r.reasons.filter((x) => x.severity === "blocking" && !x.accepted).map((x) => x.name),
    ),
  );
  return [...names].join(",");
}

/** The gate for a stored run; no baseline is an answer (exit 2), not an error. */
export async function gateRun(db: Db, runId: string, req: GateRequest): Promise<GateResult | null> {
  const { rules, thresholds } = gateOptions(req.failOn, req.thresholds);
  const runUrl = `${req.origin}/runs/${runId}`;
  const privateMode = req.nameBaseline === false && req.baseline.kind !== "run";
  // In private mode the doctor's reports say what differs, never which run it differs from.
  const hideIds = (reports: NonNullable<Judgement["comparability"]>) =>
    privateMode ? reports.map((r) => ({ ...r, baselineRunId: null })) : reports;
  let judgement: Judgement | null;
  try {
    judgement = await judgeRun(db, runId, {
      baseline: req.baseline,
      thresholds,
      seed: req.seed,
      allowDifferent: req.allowDifferent,
    });
  } catch (err) {
    if (!(err instanceof NoBaselineError)) throw err;
    const result = {
      outcome: "unjudged" as const,
      exitCode: 2 as const,
      // A baseline of another model, GPU or workload gets no verdict rather than a confident one.
      reasons: [
        err instanceof NotComparableError
          ? `${err.message} (allowDifferent=${acceptHint(err)}, or runlens --allow-different ${acceptHint(err)}, accepts these differences)`
          : `no baseline: ${err.message}`,
      ],
      runUrl,
      compareUrl: null,
      ...(err instanceof NotComparableError ? { comparability: hideIds(err.reports) } : {}),
    };
    return { ...result, judgement: null, markdown: gateMarkdown(result, null) };
  }
  if (!judgement) return null;
  if (privateMode) {
    const n = judgement.baseline.runIds.length;
    const own = (ids: string[]) => ids.filter((id) => id === runId);
    judgement = {
      ...judgement,
      collectorMismatches: judgement.collectorMismatches.map((m) => ({
        ...m,
        onRunIds: own(m.onRunIds),
        offRunIds: own(m.offRunIds),
        unknownRunIds: own(m.unknownRunIds),
      })),
      comparability: judgement.comparability && hideIds(judgement.comparability),
      baseline: {
        label: `${judgement.baseline.label} (${n} run${n === 1 ? "" : "s"}; not named in private mode)`,
        runIds: [],
      },
    };
    const decided = decide(judgement, rules);
    const result = { ...decided, runUrl, compareUrl: null };
    return { ...result, judgement, markdown: gateMarkdown(result, judgement) };
  }
  const ids = [judgement.baseline.runIds.at(-1), runId].filter(Boolean).join(",");
  const noise = req.baseline.kind === "last" && req.baseline.n > 1 ? `&noise=last:${req.baseline.n}` : "";
  const compareUrl = `${req.origin}/compare?runs=${ids}&baseline=${judgement.baseline.runIds.at(-1)}${noise}`;
  const decided = decide(judgement, rules);
  const result = { ...decided, runUrl, compareUrl };
  return { ...result, judgement, markdown: gateMarkdown(result, judgement) };
}
