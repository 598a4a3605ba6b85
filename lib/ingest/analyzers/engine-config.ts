/**
 * Engine configs (TRT-LLM `extra-llm-api-config.yml`, Dynamo YAML/JSON): records which
 * measurement collectors the run had on, so comparisons can warn when they differ (docs/metrics.md
 * §Collectors), and the KV-cache, offload and speculative decoding settings the comparability
 * doctor compares (lib/formats/run-config.ts).
 */
import { parseDocument } from "yaml";
import type { Collectors, CollectorsInferredFrom } from "@/lib/api/schemas";
import {
  collectorsFromJson,
  collectorsFromYaml,
  impliedEvidence,
  impliedWins,
  type EngineConfigFacts,
} from "@/lib/formats/engine-config";
import {
  parallelismFromJson,
  parallelismFromYaml,
  roleOfFileName,
  type EngineParallelism,
} from "@/lib/formats/engine-parallelism";
import { PARSE_FAILED, parseJsonText, WarningLog } from "@/lib/formats/json-lines";
import { trtllmRunConfig, type RunConfigInfo } from "@/lib/formats/run-config";
import { engineConfigFacts } from "@/lib/metrics/engine-run-facts";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";

/** The YAML config as data, or null when it does not parse (the key readers above still run). */
function yamlDoc(text: string): unknown {
  try {
    const doc = parseDocument(text, { logLevel: "silent" });
    return doc.errors.length > 0 ? null : doc.toJS({ maxAliasCount: 100 });
  } catch {
    return null;
  }
}

async function readText(file: IngestFile, maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of await file.open()) {
    bytes += (chunk as Buffer).length;
    if (bytes > maxBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function engineConfigAnalyzer(): Analyzer {
  // What the configs state of each collector themselves (on if any turns it on), and the first
  // flag implying each, with its file: settled against every file's statements at the end, so a
  // Dynamo launch config's flag yields to the engine config's own key in another file.
  const stated: Partial<Collectors> = {};
  const implied: CollectorsInferredFrom = {};
  const parallelism: EngineParallelism[] = [];
  // The first config stating each setting (a prefill and a decode config usually agree).
  const runConfig: RunConfigInfo = {};
  let files = 0;

  function addRunConfig(found: RunConfigInfo): void {
    for (const [k, v] of Object.entries(found)) if (!(k in runConfig)) runConfig[k] = v;
  }

  async function ingestFile(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const warnings = new WarningLog();
    const text = await readText(file, ctx.limits.maxJsonDocumentBytes);
    if (text === null) {
      warnings.add("engine config larger than the document limit; not read");
      return { records: 0, skipped: 1, warnings: warnings.toList() };
    }
    let facts: EngineConfigFacts;
    if (file.format === "json") {
      const doc = parseJsonText(text.replace(/^\uFEFF/, "").trim());
      if (doc === PARSE_FAILED) {
        warnings.add("engine config is not valid JSON");
        return { records: 0, skipped: 1, warnings: warnings.toList() };
      }
      facts = collectorsFromJson(doc);
      parallelism.push(parallelismFromJson(doc, roleOfFileName(file.name)));
      addRunConfig(trtllmRunConfig(doc));
    } else {
      facts = collectorsFromYaml(text);
      parallelism.push(parallelismFromYaml(text, roleOfFileName(file.name)));
      addRunConfig(trtllmRunConfig(yamlDoc(text)));
    }
    for (const u of facts.unreadable)
      warnings.add(`${u.key}: cannot read "${u.value}" as true/false`, u.line);
    for (const [k, v] of Object.entries(facts.collectors) as Array<[keyof Collectors, boolean]>) {
      const flag = facts.impliedBy[k];
      if (flag) implied[k] ??= impliedEvidence(k, flag, file.name);
      else stated[k] = stated[k] === true || v;
    }
    files++;
    const meta: NonNullable<FileReport["meta"]> = Object.fromEntries(
      Object.entries(facts.collectors).map(([k, v]) => [k, v]),
    );
    const impliedHere = Object.entries(facts.impliedBy);
    if (impliedHere.length > 0)
      meta.inferred = impliedHere.map(([k, flag]) => `${k} from ${flag}`).join(", ");
    return { records: 1, skipped: 0, warnings: warnings.toList(), meta };
  }

  /** The run's collectors: the stated ones, and those a flag implies where it wins over them. */
  function settled(): Pick<AnalyzerResult, "collectors" | "collectorsInferredFrom"> {
    const collectors: Partial<Collectors> = { ...stated };
    const inferredFrom: CollectorsInferredFrom = {};
    for (const [k, evidence] of Object.entries(implied) as Array<[keyof Collectors, string]>) {
      if (!impliedWins(k, stated[k])) continue;
      collectors[k] = true;
      inferredFrom[k] = evidence;
    }
    return { collectors, collectorsInferredFrom: inferredFrom };
  }

  return {
    name: "engine-config",
    tables: [],
    accepts: (file) => file.kind === "engine-config",
    ingestFile,
    finish: async () =>
      files === 0
        ? {}
        : {
            ...settled(),
            facts: engineConfigFacts(parallelism),
            ...(Object.keys(runConfig).length > 0 ? { info: { ...runConfig } } : {}),
          },
  };
}
