/**
 * Where a run's entry was read from, on screen in words (lib/api/source-words.ts, the run header's
 * info in components/run/run-info.ts): a producer's field path ("aiperf
 * input_config.input.random_seed") is never a label or a row of its own, only the tooltip beside
 * the entry it sources; texts stored by earlier uploads read in today's words.
 */
import { describe, expect, it } from "vitest";
import { headerInfo, infoLabel, infoSources, infoValue } from "@/components/run/run-info";
import { RECORDS_CONCURRENCY_WORDS, sourceTitle, sourceWords } from "@/lib/api/source-words";
import { aiperfRunConfig } from "@/lib/formats/run-config";
import { heldConcurrencyInfo } from "@/lib/metrics/aiperf-held-concurrency";

/** A producer's key or path: snake_case, camelCase or dotted. */
const IDENTIFIER = /\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[a-z_]+\.[a-z_]+\b/;

describe("sources in words", () => {
  it("a producer's path reads as the part of its configuration, the path kept for the tooltip", () => {
    expect(sourceWords("aiperf input_config.input.random_seed")).toEqual({
      text: "aiperf's input configuration",
      fields: "input_config.input.random_seed",
    });
    expect(sourceWords("aiperf input_config.input (no file or public dataset)")).toEqual({
      text: "aiperf's input configuration (no file or public dataset)",
      fields: "input_config.input",
    });
    expect(sourceWords("aiperf input_config.datasets[0].sampling").text).toBe("aiperf's input configuration");
    expect(sourceWords("aiperf metadata.dataset.hf_dataset_name").text).toBe("aiperf's metadata");
    expect(sourceTitle("aiperf run_info.random_seed")).toBe("aiperf's run info (run_info.random_seed)");
    // Words already: as they are.
    expect(sourceWords("GPU telemetry")).toEqual({ text: "GPU telemetry", fields: null });
  });

  it("the held concurrency's source is in words for new uploads, and for runs stored with the field names", () => {
    const fresh = heldConcurrencyInfo([{ first: 0, last: 10, inFlightNs: 20, records: 3 }], 0);
    expect(fresh.effectiveConcurrencySource).toBe(RECORDS_CONCURRENCY_WORDS);
    expect(RECORDS_CONCURRENCY_WORDS).toBe(
      "aiperf records: time-weighted requests in flight, from the first request's start to the last request's end",
    );
    const stored =
      "aiperf records: time-weighted requests in flight, request_start_ns → request_end_ns (effective_concurrency)";
    for (const s of [stored, fresh.effectiveConcurrencySource as string]) {
      expect(sourceWords(s).text).toBe(RECORDS_CONCURRENCY_WORDS);
      expect(sourceWords(s).text).not.toMatch(IDENTIFIER);
      expect(sourceWords(s).fields).toMatch(/request_start_ns → request_end_ns/);
    }
    expect(infoValue("effectiveConcurrencySource", stored)).toBe(RECORDS_CONCURRENCY_WORDS);
  });

  it("the run header lists no source as a row: each is its entry's tooltip, and no label or value is a path", () => {
    const info = {
      ...aiperfRunConfig(
        { input: { random_seed: 100, dataset_sampling_strategy: "shuffle", prompt: {} } },
        undefined,
      ),
      effectiveConcurrency: 3.9,
      effectiveConcurrencySource:
        "aiperf records: time-weighted requests in flight, request_start_ns → request_end_ns (effective_concurrency)",
      queueWaitP50Ms: 2,
      queueWaitSource: "aiperf credit_to_start_latency (request_start_ns − credit_issued_ns)",
    };
    const listed = headerInfo(info, () => false);
    expect(listed.map(([k]) => k)).toEqual([
      "dataset",
      "datasetSampling",
      "randomSeed",
      "effectiveConcurrency",
      "queueWaitP50Ms",
    ]);
    for (const [k, v] of listed) {
      expect(infoLabel(k)).not.toMatch(IDENTIFIER);
      expect(infoValue(k, v)).not.toMatch(IDENTIFIER);
    }
    expect(infoLabel("randomSeed")).toBe("random seed");
    const sources = infoSources(info, listed);
    expect(sources.get("randomSeed")).toBe("aiperf's input configuration (input_config.input.random_seed)");
    expect(sources.get("datasetSampling")).toBe(
      "aiperf's input configuration (input_config.input.dataset_sampling_strategy)",
    );
    expect(sources.get("effectiveConcurrency")).toMatch(
      /^aiperf records: time-weighted requests in flight, from the first request's start to the last request's end \(request_start_ns/,
    );
    expect(sources.get("queueWaitP50Ms")).toMatch(
      /^aiperf summary: each request's wait from the credit being issued/,
    );
  });

  it("a source whose entry is not listed stays a row, in words", () => {
    const listed = headerInfo(
      { queueWaitSource: "aiperf records: request_start_ns − credit_issued_ns (credit_to_start_latency)" },
      () => false,
    );
    expect(listed).toHaveLength(1);
    expect(infoValue(listed[0][0], listed[0][1])).toBe(
      "aiperf records: each request's wait from the credit being issued to the request being sent",
    );
  });
});
