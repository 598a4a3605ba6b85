/**
 * The comparability doctor's reasons read from the runs' configuration (docs/metrics.md
 * §Comparable runs): the dataset or prompt corpus, the random seed, the KV cache, KV offload and
 * speculative decoding configuration, and aiperf's `submission_valid`. Each reads the run info
 * entries lib/formats/run-config.ts writes; a setting one run does not state is no difference.
 */
import type { ComparabilityReason } from "@/lib/api/comparability-schema";
import type { SummaryBlocks } from "@/lib/api/schemas";
import { parseConfigText } from "@/lib/formats/run-config";

type Info = SummaryBlocks["info"] | undefined;
type Reason = Omit<ComparabilityReason, "accepted">;

/** KV-cache settings whose difference changes what is served (not only how much fits): blocking. */
export const KV_CACHE_BLOCKING_SETTINGS = new Set(["prefix_caching", "dtype"]);

const norm = (s: string) => s.trim().toLowerCase();

function sideOf(info: Info, key: string): { value: string; source: string } | null {
  const v = info?.[key];
  if (v === null || v === undefined || v === "") return null;
  const source = info?.[`${key}Source`];
  return { value: String(v), source: typeof source === "string" ? source : `run info ${key}` };
}

function sources(x: string, y: string): string {
  return x === y ? `from ${x}` : `from ${x} and ${y}`;
}

/** Settings stated by both runs with different values, by name (case-insensitive values). */
function differingSettings(a: string, b: string): Array<[string, string, string]> {
  const ma = parseConfigText(a);
  const mb = parseConfigText(b);
  const out: Array<[string, string, string]> = [];
  for (const [k, va] of ma) {
    const vb = mb.get(k);
    if (vb !== undefined && norm(va) !== norm(vb)) out.push([k, va, vb]);
  }
  return out;
}

/**
 * A "workload" reason when both runs state `key` and `differ` tells their values apart: each side
 * as `shown` writes it (the value itself by default), the evidence its sources and `why`. Whether
 * the reason was added.
 */
function workloadDifference(
  out: Reason[],
  a: Info,
  b: Info,
  key: string,
  r: {
    name: Reason["name"];
    severity: Reason["severity"];
    label: string;
    differ: (x: string, y: string) => boolean;
    shown?: (value: string, info: Info) => string;
    why: string;
  },
): boolean {
  const x = sideOf(a, key);
  const y = sideOf(b, key);
  if (!x || !y || !r.differ(x.value, y.value)) return false;
  const shown = r.shown ?? ((v: string) => v);
  out.push({
    name: r.name,
    group: "workload",
    severity: r.severity,
    label: r.label,
    a: shown(x.value, a),
    b: shown(y.value, b),
    evidence: `${sources(x.source, y.source)}: ${r.why}`,
  });
  return true;
}

/**
 * A "system" reason when both runs state a configuration (`sides`) and some of its settings
 * differ, naming only the differing settings on each side: blocking when `blocks` says the
 * differences change what is measured, a caveat otherwise, with the matching explanation.
 */
function settingsDifference(
  out: Reason[],
  sides: readonly [ReturnType<typeof sideOf>, ReturnType<typeof sideOf>],
  r: {
    name: Reason["name"];
    label: string;
    blocks: (diff: Array<[string, string, string]>) => boolean;
    blocking: string;
    caveat: string;
  },
): void {
  const [x, y] = sides;
  if (!x || !y) return;
  const diff = differingSettings(x.value, y.value);
  if (diff.length === 0) return;
  const block = r.blocks(diff);
  out.push({
    name: r.name,
    group: "system",
    severity: block ? "blocking" : "caveat",
    label: r.label,
    a: diff.map(([k, v]) => `${k} ${v}`).join(", "),
    b: diff.map(([k, , v]) => `${k} ${v}`).join(", "),
    evidence: `${sources(x.source, y.source)}; ${block ? r.blocking : r.caveat}`,
  });
}

/** `method=none` (and no method at all beyond "none") reads as speculative decoding off. */
function specMethod(text: string): string | null {
  const m = parseConfigText(text).get("method");
  return m === undefined ? null : norm(m) === "none" || norm(m) === "off" ? "none" : m;
}

export function configReasons(a: Info, b: Info): Reason[] {
  const out: Reason[] = [];

  // Synthetic prompts from any generator are one corpus: their lengths are tested (isl, osl).
  const corpus = (v: string) => (norm(v).startsWith("synthetic") ? "synthetic" : norm(v));
  const otherCorpus = workloadDifference(out, a, b, "dataset", {
    name: "dataset",
    severity: "blocking",
    label: "dataset",
    differ: (x, y) => corpus(x) !== corpus(y),
    why: "other prompts (lengths, shared prefixes, turns) are another workload; no producer writes a hash of its prompts, so the named source is compared",
  });
  // One corpus drawn another way (aiperf `sampling`: sequential, random, shuffle): other
  // requests of it, in another order, so the same prompts do not meet the same cache state.
  if (!otherCorpus)
    workloadDifference(out, a, b, "datasetSampling", {
      name: "dataset",
      severity: "caveat",
      label: "dataset sampling",
      differ: (x, y) => norm(x) !== norm(y),
      shown: (v, info) => `${sideOf(info, "dataset")?.value ?? "dataset"}, sampling ${v}`,
      why: "the same corpus drawn another way (sequential, random with replacement, shuffled) sends other entries in another order, so repeats and prefix reuse differ",
    });

  workloadDifference(out, a, b, "randomSeed", {
    name: "seed",
    severity: "caveat",
    label: "random seed",
    differ: (x, y) => x !== y,
    why: "another seed draws other prompts and lengths from the same distribution, so per-request figures differ by sampling alone",
  });

  settingsDifference(out, [sideOf(a, "kvCacheConfig"), sideOf(b, "kvCacheConfig")], {
    name: "kv-cache",
    label: "KV-cache configuration",
    blocks: (diff) => diff.some(([k]) => KV_CACHE_BLOCKING_SETTINGS.has(k)),
    blocking: "prefix caching or the KV data type differs: the engines reuse or store the cache differently",
    caveat: "the cache's size or layout differs: under load, capacity decides preemption and reuse",
  });

  settingsDifference(out, [sideOf(a, "kvOffloadConfig"), sideOf(b, "kvOffloadConfig")], {
    name: "kv-offload",
    label: "KV offload",
    blocks: (diff) => diff.some(([k]) => k === "offload"),
    blocking:
      "the offload tiers differ: reuse that one run serves from host or external memory the other recomputes",
    caveat: "the same tier with other sizes or policies",
  });

  const spec = [sideOf(a, "speculativeDecoding"), sideOf(b, "speculativeDecoding")] as const;
  if (spec[0] && spec[1]) {
    const ma = specMethod(spec[0].value);
    const mb = specMethod(spec[1].value);
    const diff = differingSettings(spec[0].value, spec[1].value);
    // A configuration that names no method (vLLM infers it from the draft model) is still on:
    // against "none" it differs though the two share no setting's name.
    const onOff = (ma === "none") !== (mb === "none");
    if (diff.length > 0 || onOff) {
      const method = onOff || (ma !== null && mb !== null && norm(ma) !== norm(mb));
      const whole = diff.length === 0 || (onOff && !diff.some(([k]) => k === "method"));
      out.push({
        name: "speculative-decoding",
        group: "system",
        severity: method ? "blocking" : "caveat",
        label: "speculative decoding",
        a: whole ? spec[0].value : diff.map(([k, x]) => `${k} ${x}`).join(", "),
        b: whole ? spec[1].value : diff.map(([k, , y]) => `${k} ${y}`).join(", "),
        evidence: `${sources(spec[0].source, spec[1].source)}; ${
          method
            ? "speculative decoding is on in one run only, or by another method: tokens per step, ITL and throughput change with the acceptance rate"
            : "the same method with other draft settings: the acceptance rate and tokens per step differ"
        }`,
      });
    }
  }

  const va = a?.submissionValid;
  const vb = b?.submissionValid;
  if (va === false || vb === false) {
    const side = (v: unknown, info: Info) =>
      v === false
        ? `invalid${typeof info?.submissionInvalidReasons === "string" ? ` (${info.submissionInvalidReasons})` : ""}`
        : v === true
          ? "valid"
          : "not stated";
    const oneOnly = (va === false) !== (vb === false) && typeof va === "boolean" && typeof vb === "boolean";
    out.push({
      name: "submission-valid",
      group: "measurement",
      severity: oneOnly ? "blocking" : "caveat",
      label: "aiperf submission validity",
      a: side(va, a),
      b: side(vb, b),
      evidence: `aiperf's metadata.submission_valid is false in ${va === false && vb === false ? "both runs" : va === false ? "the first run" : "the second run"}: by its scenario's own rules the run is not a valid measurement${oneOnly ? " (valid in the other run: not comparable)" : ""}`,
    });
  }
  return out;
}
