import fs from "node:fs";
import path from "node:path";
import { trtRecordText } from "../fixtures/bad/generate-big";
import { uploadRequest } from "./test-app";

const VALID = fs.readFileSync(path.resolve(__dirname, "../fixtures/bad/files/valid-aiperf.jsonl"), "utf8");

/** Upload i: distinct bytes (a TRT-LLM file of 200 + i records, or aiperf records), named run-i. */
export function uploadNo(i: number): Request {
  const content =
    i % 2 === 0
      ? Array.from({ length: 200 + i }, (_, k) => trtRecordText(k + i * 1000)).join("\n") + "\n"
      : VALID + `\n`.repeat(i);
  return uploadRequest([{ name: i % 2 === 0 ? "perf_metrics-0.jsonl" : "profile_export.jsonl", content }], {
    name: `run-${i}`,
  });
}
