import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectKind } from "@/lib/formats/detect";
import { collectorsFromJson, collectorsFromYaml } from "@/lib/formats/engine-config";
import type { IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { engineConfigAnalyzer } from "@/lib/ingest/analyzers/engine-config";
import { createAnalyzers } from "@/lib/ingest/analyzers";
import { mergeResults } from "@/lib/ingest/merge-results";
import { openSqlite, migrate } from "@/lib/store/db";

const DIR = path.resolve(__dirname, "../fixtures/compare/engine-config");

function ingestFile(name: string): IngestFile {
  const p = path.join(DIR, name);
  const buf = fs.readFileSync(p);
  const { kind, format } = detectKind(buf, true);
  return {
    id: name,
    ord: 0,
    name,
    kind,
    format,
    bytes: buf.length,
    sha256: "x",
    open: async () => fs.createReadStream(p),
  };
}

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

  it("older Dynamo: --publish-events-and-metrics turns iteration stats on with it (examples/tensorrt_llm/common/base_engine.py)", () => {
    // Dynamo's older TensorRT-LLM worker set `enable_iter_perf_stats` whenever it published events
    // and metrics, whatever the engine config said: the collector's cost is in the run.
    const cli = collectorsFromYaml(
      "worker:\n  args:\n    - --publish-events-and-metrics\n  enable_iter_perf_stats: false\n",
    );
    expect(cli.collectors).toEqual({ publishKvEvents: true, enableIterPerfStats: true });
    expect(collectorsFromJson({ TrtllmWorker: { "publish-events-and-metrics": true } }).collectors).toEqual({
      publishKvEvents: true,
      enableIterPerfStats: true,
    });
    expect(collectorsFromJson({ args: ["--publish_events_and_metrics=false"] }).collectors).toEqual({
      publishKvEvents: false,
    });
    // The newer flag publishes KV events only.
    expect(collectorsFromYaml("args:\n  - --publish-kv-events\n").collectors).toEqual({
      publishKvEvents: true,
    });
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
