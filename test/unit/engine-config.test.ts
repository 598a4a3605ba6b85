import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { detectKind } from "@/lib/formats/detect";
import { collectorsFromJson, collectorsFromYaml } from "@/lib/formats/engine-config";
import type { IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { engineConfigAnalyzer } from "@/lib/ingest/analyzers/engine-config";
import { createAnalyzers } from "@/lib/ingest/analyzers";
import { mergeResults } from "@/lib/ingest/merge-results";
import { openSqlite, migrate } from "@/lib/store/db";

const DIR = path.resolve(__dirname, "../fixtures/compare/engine-config");

/** An upload of `buf` named `name`, its kind detected from its bytes. */
function bytesFile(name: string, buf: Buffer): IngestFile {
  const { kind, format } = detectKind(buf, true);
  return {
    id: name,
    ord: 0,
    name,
    kind,
    format,
    bytes: buf.length,
    sha256: "x",
    open: async () => Readable.from([buf]),
  };
}

const ingestFile = (name: string): IngestFile => bytesFile(name, fs.readFileSync(path.join(DIR, name)));

async function context(): Promise<IngestContext> {
  const h = openSqlite(":memory:");
  await migrate(h);
  return {
    runId: "r1",
    db: h.db,
    dialect: "sqlite",
    limits: { maxLineBytes: 64 << 20, maxJsonDocumentBytes: 256 << 20 },
  };
}

describe("engine config key reader", () => {
  it("reads TRT-LLM extra-llm-api-config YAML flags, ignoring trailing comments", () => {
    const facts = collectorsFromYaml(fs.readFileSync(path.join(DIR, "extra-llm-api-config.yml"), "utf8"));
    expect(facts.collectors).toEqual({ returnPerfMetrics: true, enableIterPerfStats: false });
    expect(facts.unreadable).toEqual([]);
  });

  it("reads nested Dynamo sections and CLI flags; any section turning a flag on makes it on", () => {
    const facts = collectorsFromYaml(fs.readFileSync(path.join(DIR, "dynamo-disagg.yaml"), "utf8"));
    expect(facts.collectors).toEqual({
      returnPerfMetrics: false,
      enableIterPerfStats: true,
      publishKvEvents: true,
    });
  });

  it("older Dynamo: --publish-events-and-metrics implies enable_iter_perf_stats and return_perf_metrics, named as inferred", () => {
    // ai-dynamo/dynamo: examples/tensorrt_llm/common/base_engine.py forced enable_iter_perf_stats on
    // with the flag whatever the engine config said; components/src/dynamo/trtllm/main.py defaulted
    // return_perf_metrics and enable_iter_perf_stats to it, the engine config's own keys applied
    // after; PR #12162 (components/src/dynamo/trtllm/args.py at 0a6a115c6cd15ae95647e90c55be2ea06b36e66f)
    // made --publish-kv-events imply neither, keeping the old spelling's combined behaviour.
    const cli = collectorsFromYaml(
      "worker:\n  args:\n    - --publish-events-and-metrics\n  enable_iter_perf_stats: false\n",
    );
    expect(cli.collectors).toEqual({
      publishKvEvents: true,
      enableIterPerfStats: true,
      returnPerfMetrics: true,
    });
    expect(cli.impliedBy).toEqual({
      enableIterPerfStats: "publish-events-and-metrics",
      returnPerfMetrics: "publish-events-and-metrics",
    });
    // The config's own return_perf_metrics stands (the flag only defaulted it), recorded.
    const own = collectorsFromJson({
      TrtllmWorker: { "publish-events-and-metrics": true, return_perf_metrics: false },
    });
    expect(own.collectors).toEqual({
      publishKvEvents: true,
      enableIterPerfStats: true,
      returnPerfMetrics: false,
    });
    expect(own.impliedBy).toEqual({ enableIterPerfStats: "publish-events-and-metrics" });
    expect(collectorsFromJson({ args: ["--publish_events_and_metrics=false"] }).collectors).toEqual({
      publishKvEvents: false,
    });
    // The newer flag implies nothing a config can tell: the collectors stay unknown.
    const kv = collectorsFromYaml("args:\n  - --publish-kv-events\n");
    expect(kv.collectors).toEqual({ publishKvEvents: true });
    expect(kv.impliedBy).toEqual({});
  });

  it("a Dynamo launch config's flag yields to the engine config's own return_perf_metrics in another file, and the run names what it inferred", async () => {
    const ctx = await context();
    const run = async (files: Array<[string, string]>) => {
      const a = engineConfigAnalyzer();
      for (const [name, text] of files) await a.ingestFile(bytesFile(name, Buffer.from(text)), ctx);
      return mergeResults([await a.finish(ctx)]);
    };
    const launch =
      "decode:\n  args:\n    - --publish-events-and-metrics\n    - --extra-engine-args\n    - /cfg/decode.yaml\n";
    const alone = await run([["dynamo-decode.yaml", launch]]);
    expect(alone.collectors).toEqual({
      returnPerfMetrics: true,
      enableIterPerfStats: true,
      publishKvEvents: true,
    });
    expect(alone.collectorsInferredFrom!.returnPerfMetrics).toMatch(
      /^inferred from --publish-events-and-metrics in dynamo-decode.yaml: Dynamo's TensorRT-LLM worker defaulted return_perf_metrics to it/,
    );
    expect(alone.collectorsInferredFrom!.enableIterPerfStats).toMatch(
      /^inferred from --publish-events-and-metrics in dynamo-decode.yaml: .*base_engine\.py forced it/,
    );
    const withEngine = await run([
      ["dynamo-decode.yaml", launch],
      ["extra-llm-api-config.yml", "backend: pytorch\nreturn_perf_metrics: false\n"],
    ]);
    expect(withEngine.collectors).toEqual({
      returnPerfMetrics: false,
      enableIterPerfStats: true,
      publishKvEvents: true,
    });
    expect(Object.keys(withEngine.collectorsInferredFrom!)).toEqual(["enableIterPerfStats"]);
  });

  it("reports a flag whose value is not a boolean instead of guessing", () => {
    const facts = collectorsFromYaml("return_perf_metrics: ${PERF}\nenable_iter_perf_stats: on\n");
    expect(facts.collectors).toEqual({ enableIterPerfStats: true });
    expect(facts.unreadable).toEqual([{ line: 1, key: "return_perf_metrics", value: "${PERF}" }]);
  });

  it("reads JSON configs at any depth, CLI args with =value included", () => {
    const facts = collectorsFromJson(
      JSON.parse(fs.readFileSync(path.join(DIR, "engine-config.json"), "utf8")),
    );
    expect(facts.collectors).toEqual({ returnPerfMetrics: false, publishKvEvents: false });
    expect(facts.unreadable.map((u) => u.key)).toEqual(["enable_iter_perf_stats"]);
  });

  it("leaves a config that names no collector with nothing known", () => {
    expect(collectorsFromYaml("backend: pytorch\nmax_batch_size: 8\n").collectors).toEqual({});
  });
});

describe("engine-config analyzer", () => {
  it("detects the fixtures as engine configs and is picked before the record counter", () => {
    const files = ["extra-llm-api-config.yml", "dynamo-disagg.yaml", "engine-config.json"].map(ingestFile);
    expect(files.map((f) => f.kind)).toEqual(["engine-config", "engine-config", "engine-config"]);
    for (const f of files) expect(createAnalyzers().find((a) => a.accepts(f))?.name).toBe("engine-config");
  });

  it("merges several configs of one run into the summary's collectors", async () => {
    const ctx = await context();
    const a = engineConfigAnalyzer();
    const r1 = await a.ingestFile(ingestFile("extra-llm-api-config.yml"), ctx);
    expect(r1).toMatchObject({ records: 1, skipped: 0, warnings: [] });
    const r2 = await a.ingestFile(ingestFile("engine-config.json"), ctx);
    expect(r2.warnings).toEqual([{ message: 'enable_iter_perf_stats: cannot read ""maybe"" as true/false' }]);
    const result = await a.finish(ctx);
    expect(result.collectors).toEqual({
      returnPerfMetrics: true,
      enableIterPerfStats: false,
      publishKvEvents: false,
    });
    expect(mergeResults([result]).collectors).toEqual({
      returnPerfMetrics: true,
      enableIterPerfStats: false,
      publishKvEvents: false,
    });
  });

  it("says nothing about collectors when it saw no config", async () => {
    const ctx = await context();
    expect(await engineConfigAnalyzer().finish(ctx)).toEqual({});
  });
});

describe("Dynamo's collector environment variables (components/src/dynamo/trtllm/args.py)", () => {
  const graph = [
    "apiVersion: nvidia.com/v1alpha1",
    "kind: DynamoGraphDeployment",
    "spec:",
    "  services:",
    "    TRTLLMDecodeWorker:",
    "      envs:",
    "        - name: DYN_LOG",
    "          value: info",
    "        - name: DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS",
    '          value: "true"',
    "      extraPodSpec:",
    "        mainContainer:",
    "          args:",
    "            - --extra-engine-args",
    "            - /cfg/decode.yaml",
    "",
  ].join("\n");

  it("a graph's env list sets DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS as the flag does: KV events, and the two collectors it implies", () => {
    const facts = collectorsFromYaml(graph);
    expect(facts.collectors).toEqual({
      publishKvEvents: true,
      enableIterPerfStats: true,
      returnPerfMetrics: true,
    });
    expect(facts.impliedBy).toEqual({
      enableIterPerfStats: "DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS",
      returnPerfMetrics: "DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS",
    });
    expect(detectKind(Buffer.from(graph), true)).toEqual({ kind: "engine-config", format: "yaml" });
  });

  it("a config key that sets return_perf_metrics wins over the variable's default; a false value implies nothing", () => {
    const own = collectorsFromYaml(graph + "return_perf_metrics: false\n");
    expect(own.collectors.returnPerfMetrics).toBe(false);
    expect(own.impliedBy).toEqual({ enableIterPerfStats: "DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS" });
    const off = collectorsFromYaml(graph.replace('value: "true"', 'value: "0"'));
    expect(off.collectors).toEqual({ publishKvEvents: false });
    expect(off.impliedBy).toEqual({});
  });

  it("the newer DYN_TRTLLM_PUBLISH_KV_EVENTS sets KV events only; a value from a secret is said, not guessed", () => {
    const kv = collectorsFromYaml(
      "env:\n  - name: DYN_TRTLLM_PUBLISH_KV_EVENTS\n    value: '1'\n  - name: DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS\n    valueFrom:\n      secretKeyRef: {name: s, key: k}\n",
    );
    expect(kv.collectors).toEqual({ publishKvEvents: true });
    expect(kv.impliedBy).toEqual({});
    expect(kv.unreadable).toEqual([
      { line: 5, key: "DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS", value: "valueFrom (a secret or config map)" },
    ]);
  });

  it("inline env items, compose maps and lists, and JSON env objects are read", () => {
    expect(
      collectorsFromYaml('env:\n  - {name: DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS, value: "yes"}\n').impliedBy,
    ).toEqual({
      enableIterPerfStats: "DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS",
      returnPerfMetrics: "DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS",
    });
    expect(
      collectorsFromYaml('environment:\n  DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS: "true"\n').collectors,
    ).toEqual({
      publishKvEvents: true,
      enableIterPerfStats: true,
      returnPerfMetrics: true,
    });
    expect(collectorsFromYaml("environment:\n  - DYN_TRTLLM_PUBLISH_KV_EVENTS=false\n").collectors).toEqual({
      publishKvEvents: false,
    });
    const json = collectorsFromJson({
      spec: { containers: [{ env: [{ name: "DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS", value: "true" }] }] },
    });
    expect(json.impliedBy.returnPerfMetrics).toBe("DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS");
  });

  it("a .env file is detected as a config and its variable named as the evidence", async () => {
    const text = "# decode worker\nDYN_LOG=info\nexport DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS=1\n";
    const buf = Buffer.from(text);
    expect(detectKind(buf, true)).toEqual({ kind: "engine-config", format: "text" });
    expect(detectKind(Buffer.from("DYN_LOG=info\nHF_HOME=/cache\n"), true).kind).not.toBe("engine-config");
    const ctx = await context();
    const a = engineConfigAnalyzer();
    await a.ingestFile(bytesFile("decode.env", buf), ctx);
    const merged = mergeResults([await a.finish(ctx)]);
    expect(merged.collectors).toEqual({
      returnPerfMetrics: true,
      enableIterPerfStats: true,
      publishKvEvents: true,
    });
    expect(merged.collectorsInferredFrom!.returnPerfMetrics).toMatch(
      /^inferred from DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS set true in the environment in decode.env: /,
    );
  });
});
