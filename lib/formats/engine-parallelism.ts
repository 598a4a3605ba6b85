/**
 * Parallelism and engine facts from engine configs (docs/formats.md §Engine configs): TP / PP /
 * EP / DP and replicas per serving role, the engine and the image version, from TensorRT-LLM
 * `extra-llm-api-config.yml` (one worker's options), Dynamo YAML (a section per component, or a
 * `services:` map, with options as keys or as CLI arguments) and the JSON forms of both. A key
 * reader like the collector one beside it: it follows indentation, not the whole YAML grammar.
 */
import type { RoleFact } from "@/lib/api/run-facts";

export interface EngineParallelism {
  roles: RoleFact[];
  engine: "vllm" | "sglang" | "trtllm" | null;
  dynamo: boolean;
  /** From a container image tag (`…/vllm-runtime:0.4.1`), or a run metadata file's `version` */
  version: string | null;
  model: string | null;
  /** Set when the document is a benchmark's run metadata (isRunMetadata), not an engine config */
  runMetadata?: boolean;
}

/** Engines by the names run metadata gives them in a `framework` / `engine` / `backend` value. */
const FRAMEWORK = /^(tensorrt[-_]?llm|trt[-_]?llm|vllm|sglang)$/i;

/** Role sections of a run metadata file, each an object of sizes. */
const ROLE_SECTION = /^(context|generation|prefill|decode|ctx|gen)$/i;

/**
 * A benchmark harness's run metadata beside its results: the model and one object per serving
 * role stating its instances and parallelism, e.g. `{"framework": "tensorrt-llm", "version":
 * "1.2.1", "model": "Qwen/Qwen3-4B", "context": {"num_instances": 1, "tp": 1, "pp": 1},
 * "generation": {…}}` (docs/formats.md §Engine configs). A document with top-level sizes and no
 * role objects (a result file that repeats its config) is not one.
 */
export function isRunMetadata(doc: Record<string, unknown>): boolean {
  if (typeof doc.model !== "string") return false;
  return Object.entries(doc).some(
    ([k, v]) =>
      ROLE_SECTION.test(k) &&
      typeof v === "object" &&
      v !== null &&
      !Array.isArray(v) &&
      Object.keys(v).some((key) => SIZE_OF.has(key)),
  );
}

type Size = "tp" | "pp" | "ep" | "dp" | "count";

/** Spellings as keys (snake or kebab) and as CLI flags, per size. */
const SIZE_OF = new Map<string, Size>(
  (
    [
      ["tp", ["tensor_parallel_size", "tp_size", "tp"]],
      ["pp", ["pipeline_parallel_size", "pp_size", "pp"]],
      ["ep", ["moe_expert_parallel_size", "expert_parallel_size", "ep_size", "ep"]],
      ["dp", ["data_parallel_size", "dp_size", "dp"]],
      ["count", ["replicas", "num_replicas", "num_instances"]],
    ] as Array<[Size, string[]]>
  ).flatMap(([size, names]) =>
    names.flatMap((n) => [[n, size] as const, [n.replace(/_/g, "-"), size] as const]),
  ),
);

const TRTLLM_KEYS =
  /^(kv_cache_config|cuda_graph_config|enable_attention_dp|return_perf_metrics|max_batch_size|backend)$/;
const MODEL_KEYS = new Set(["model", "model_path", "served_model_name", "model-path", "served-model-name"]);
const IMAGE = /(vllm|sglang|tensorrtllm|trtllm)-runtime:v?(\d[\w.+-]*)/i;
const MODULE = /dynamo[./](vllm|sglang|trtllm)\b/;

/** A section name as a role: prefill / decode by name, else the section's own name. */
function roleOf(section: string): string {
  if (/prefill|context|ctx/i.test(section)) return "prefill";
  // `gen_extra-llm-api-config.yml` (TensorRT-LLM's disaggregated examples): `_` is a word character.
  if (/decode|generation|gen(?![a-z])/i.test(section)) return "decode";
  return section;
}

class Collector {
  readonly out: EngineParallelism = { roles: [], engine: null, dynamo: false, version: null, model: null };
  private byRole = new Map<string, RoleFact>();
  private trtllm = false;

  size(section: string, size: Size, raw: string): void {
    const n = Number(raw.replace(/^["']|["']$/g, ""));
    if (!Number.isInteger(n) || n <= 0) return;
    const role = roleOf(section);
    const r = this.byRole.get(role) ?? { role, count: null, tp: null, pp: null, ep: null, dp: null };
    r[size] ??= n;
    this.byRole.set(role, r);
  }

  text(raw: string): void {
    const image = IMAGE.exec(raw);
    if (image) {
      this.out.dynamo = true;
      this.out.version ??= image[2];
      this.engine(image[1]);
    }
    const mod = MODULE.exec(raw);
    if (mod) {
      this.out.dynamo = true;
      this.engine(mod[1]);
    }
  }

  key(key: string): void {
    if (TRTLLM_KEYS.test(key)) this.trtllm = true;
  }

  model(raw: string): void {
    const v = raw.replace(/^["']|["']$/g, "").trim();
    if (v && !v.startsWith("/")) this.out.model ??= v;
  }

  private engine(name: string): void {
    const e = name.toLowerCase();
    this.out.engine ??= e === "tensorrtllm" ? "trtllm" : (e as EngineParallelism["engine"]);
  }

  framework(raw: string): void {
    if (FRAMEWORK.test(raw.trim())) this.engine(/^t/i.test(raw.trim()) ? "trtllm" : raw.trim());
  }

  finish(): EngineParallelism {
    if (!this.out.engine && this.trtllm) this.out.engine = "trtllm";
    // Sections that state only replicas (a frontend) are not serving roles.
    this.out.roles = [...this.byRole.values()].filter((r) => r.tp ?? r.pp ?? r.ep ?? r.dp);
    return this.out;
  }
}

/** CLI flags inside a string or list item: `--tensor-parallel-size 2`, `--tp=4`, `--model x`. */
function readFlags(c: Collector, section: string, text: string): void {
  for (const m of text.matchAll(/--([a-z][\w-]*)(?:[=\s]+([^\s'",\]]+))?/gi)) {
    const size = SIZE_OF.get(m[1]);
    if (size && m[2]) c.size(section, size, m[2]);
    if (MODEL_KEYS.has(m[1]) && m[2]) c.model(m[2]);
  }
}

/**
 * The role section of a path of keys: the child of `services`, else a key named for a role,
 * else the first key; top-level options belong to `fallback` (the role the file name gives).
 */
function sectionOf(path: readonly string[], fallback: string): string {
  const s = path.indexOf("services");
  if (s >= 0 && path[s + 1]) return path[s + 1];
  return path.find((k) => /prefill|decode|worker|context|generation/i.test(k)) ?? path[0] ?? fallback;
}

/** The role a one-worker config file is for, by its name (`prefill.yml`, `gen_config.yaml`). */
export function roleOfFileName(name: string): string {
  const base = name.replace(/\\/g, "/").split("/").pop() ?? "";
  const role = roleOf(base);
  return role === base ? "combined" : role;
}

export function parallelismFromYaml(text: string, fallback = "combined"): EngineParallelism {
  const c = new Collector();
  const stack: Array<{ indent: number; key: string }> = [];
  let pendingFlag: { section: string; flag: string } | null = null;
  for (const line of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const indent = line.search(/\S/);
    const kv = /^\s*(?:-\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*:(?:\s+(.*))?$/.exec(line);
    while (
      stack.length &&
      stack[stack.length - 1].indent >= indent &&
      (kv || !line.trimStart().startsWith("-"))
    )
      stack.pop();
    const path = stack.map((s) => s.key);
    const section = sectionOf(path, fallback);
    if (kv) {
      const [, key, rawValue = ""] = kv;
      const value = rawValue.replace(/\s+#.*$/, "").trim();
      c.key(key);
      const size = SIZE_OF.get(key);
      if (size && value) c.size(section, size, value);
      if (MODEL_KEYS.has(key) && value) c.model(value);
      c.text(value);
      readFlags(c, section, value);
      if (!value) stack.push({ indent, key });
      pendingFlag = null;
      continue;
    }
    // A list item: a CLI argument, or a flag's value on the next item (`- --tp` then `- "2"`).
    const item = line
      .trim()
      .replace(/^-\s*/, "")
      .replace(/^["']|["']$/g, "");
    c.text(item);
    if (pendingFlag) {
      const size = SIZE_OF.get(pendingFlag.flag);
      if (size) c.size(pendingFlag.section, size, item);
      if (MODEL_KEYS.has(pendingFlag.flag)) c.model(item);
      pendingFlag = null;
    }
    const lone = /^--([a-z][\w-]*)$/i.exec(item);
    if (lone) pendingFlag = { section, flag: lone[1] };
    else readFlags(c, section, item);
  }
  return c.finish();
}

export function parallelismFromJson(doc: unknown, fallback = "combined"): EngineParallelism {
  const c = new Collector();
  const visit = (v: unknown, path: string[], depth: number): void => {
    if (depth > 32 || v === null || typeof v !== "object") return;
    const section = sectionOf(path, fallback);
    if (Array.isArray(v)) {
      const strings = v.filter((x): x is string => typeof x === "string");
      for (const s of strings) c.text(s);
      readFlags(c, section, strings.join(" "));
      for (const el of v) if (typeof el === "object") visit(el, path, depth + 1);
      return;
    }
    for (const [k, child] of Object.entries(v)) {
      c.key(k);
      const size = SIZE_OF.get(k);
      if (size && (typeof child === "number" || typeof child === "string"))
        c.size(section, size, String(child));
      if (MODEL_KEYS.has(k) && typeof child === "string") c.model(child);
      if (typeof child === "string") {
        c.text(child);
        readFlags(c, section, child);
      } else visit(child, [...path, k], depth + 1);
    }
  };
  visit(doc, [], 0);
  if (doc !== null && typeof doc === "object" && !Array.isArray(doc)) {
    const top = doc as Record<string, unknown>;
    if (isRunMetadata(top)) {
      c.out.runMetadata = true;
      const fw = top.framework ?? top.engine ?? top.backend;
      if (typeof fw === "string") c.framework(fw);
      if (c.out.engine && typeof top.version === "string" && /^v?\d/.test(top.version))
        c.out.version ??= top.version.replace(/^v/, "");
    }
  }
  return c.finish();
}
