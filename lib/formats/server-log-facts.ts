/**
 * Run facts from engine startup logs (docs/formats.md §Server logs): the engine and its version,
 * the served model and the parallel sizes, from the lines each engine prints once at start —
 * vLLM's "vLLM API server version …" and "Initializing a V1 LLM engine (v…) with config: …",
 * SGLang's `server_args=ServerArgs(…)`, TensorRT-LLM's "TensorRT-LLM version: …". vLLM's serving
 * configuration the doctor compares (speculative decoding, KV connector or offload) is read from its
 * "non-default args: {…}" line and the engine line's `speculative_config=…` (`runConfig()`).
 */
import { readPythonRepr } from "./python-repr";
import { vllmServeRunConfig, type RunConfigInfo } from "./run-config";

export interface LogFacts {
  engine: "vllm" | "sglang" | "trtllm" | null;
  version: string | null;
  model: string | null;
  tp: number | null;
  pp: number | null;
  dp: number | null;
  ep: number | null;
}

const VLLM_VERSION = /vLLM API server version (\d[\w.+-]*)|LLM engine \(v(\d[\w.+-]*)\)/;
const VLLM_CONFIG = /LLM engine \(v[^)]*\) with config:/;
const SGLANG_ARGS = /server_args=ServerArgs\(/;
const VLLM_NON_DEFAULT = "non-default args: {";
const VLLM_SPEC = "speculative_config=";
const TRTLLM_VERSION = /TensorRT-LLM version:\s*(\d[\w.+-]*)/;

const quoted = (line: string, key: string) =>
  new RegExp(`(?<![A-Za-z_])${key}=(?:'([^']*)'|"([^"]*)"|([^,\\s)]+))`).exec(line);
const sized = (line: string, key: string): number | null => {
  const m = new RegExp(`(?<![A-Za-z_])${key}=(\\d+)`).exec(line);
  const n = m ? Number(m[1]) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
};
const value = (m: RegExpExecArray | null) => {
  const v = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
  return v && v !== "None" ? v : null;
};

export class LogFactsScanner {
  private facts: LogFacts = {
    engine: null,
    version: null,
    model: null,
    tp: null,
    pp: null,
    dp: null,
    ep: null,
  };

  private config: RunConfigInfo = {};

  /** Settings already read win: a log states its configuration once per engine start. */
  private addConfig(c: RunConfigInfo): void {
    for (const [k, v] of Object.entries(c)) if (!(k in this.config)) this.config[k] = v;
  }

  line(text: string): void {
    const f = this.facts;
    const nd = text.indexOf(VLLM_NON_DEFAULT);
    if (nd >= 0) {
      const args = readPythonRepr(text, nd + VLLM_NON_DEFAULT.length - 1)?.value;
      if (args && typeof args === "object" && !Array.isArray(args))
        this.addConfig(vllmServeRunConfig(args, "vLLM non-default args", true));
    }
    const vv = VLLM_VERSION.exec(text);
    if (vv) {
      f.engine = "vllm";
      f.version ??= vv[1] ?? vv[2];
    }
    if (VLLM_CONFIG.test(text)) {
      f.engine = "vllm";
      f.model ??= value(quoted(text, "served_model_name")) ?? value(quoted(text, "model"));
      f.tp ??= sized(text, "tensor_parallel_size");
      f.pp ??= sized(text, "pipeline_parallel_size");
      f.dp ??= sized(text, "data_parallel_size");
      const at = text.indexOf(VLLM_SPEC);
      if (at >= 0) {
        // `None`, or `SpeculativeConfig(method='eagle3', model='…', num_spec_tokens=3)`.
        const spec = readPythonRepr(text, at + VLLM_SPEC.length)?.value;
        if (spec === null || (typeof spec === "object" && !Array.isArray(spec)))
          this.addConfig(vllmServeRunConfig({ speculative_config: spec }, "vLLM engine config", false));
      }
      return;
    }
    if (SGLANG_ARGS.test(text)) {
      f.engine = "sglang";
      f.model ??= value(quoted(text, "served_model_name")) ?? value(quoted(text, "model_path"));
      f.tp ??= sized(text, "tp_size");
      f.pp ??= sized(text, "pp_size");
      f.dp ??= sized(text, "dp_size");
      f.ep ??= sized(text, "ep_size");
      return;
    }
    const tv = TRTLLM_VERSION.exec(text);
    if (tv) {
      f.engine ??= "trtllm";
      f.version ??= tv[1];
    }
  }

  /** The speculative decoding and KV connector/offload settings the log stated (run info entries). */
  runConfig(): RunConfigInfo {
    return { ...this.config };
  }

  result(): LogFacts | null {
    return Object.values(this.facts).some((v) => v !== null) ? { ...this.facts } : null;
  }
}
