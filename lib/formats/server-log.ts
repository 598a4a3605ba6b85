/**
 * KV pool sizes from engine startup logs (`server.log`, `watchtower-*.out`; docs/formats.md §Server logs).
 * vLLM prints "GPU KV cache size: N tokens" once per engine core; SGLang prints
 * `max_total_num_tokens=N` per rank. Replicas of one pool must be counted once (traps T8, T9):
 * vLLM lines are de-duplicated per `EngineCore[_DPk]` tag, SGLang lines per DP rank (tensor-
 * parallel ranks share their DP rank's pool), and a partial set of DP ranks gives no answer
 * rather than a silently low one.
 */
import { plural } from "@/lib/format-number";
import type { Readable } from "node:stream";
import { readLines } from "./read-lines";

export interface LogCapacity {
  engine: "vllm" | "sglang";
  /** Σ pool sizes in tokens, or null when the log shows only part of the pools. */
  tokens: number | null;
  pools: number;
  /** Why tokens is null, or how the number was formed. */
  note: string;
}

/** Only the head of a log is read: startup lines come first and logs can be huge. */
export const MAX_LOG_BYTES = 64 * 1024 * 1024;

const VLLM_LINE = /GPU KV cache size:\s*([\d,]+)\s*tokens/;
const VLLM_TAG = /\((EngineCore(?:_DP\d+)?)\s+pid=\d+\)/;
const VLLM_DP_SIZE = /data_parallel_size=(\d+)/;
const SGLANG_LINE = /max_total_num_tokens=(\d+)/;
const SGLANG_DP_TAG = /\bDP(\d+)\s+TP\d+/;
// `\b` keeps attn_dp_size (a different setting) from matching.
const SGLANG_DP_SIZE = /(?<![A-Za-z_])dp_size=(\d+)/;

/** `onLine` sees every line read (the run-facts scanner reads the same head of the log). */
export async function readServerLog(
  stream: Readable,
  onLine?: (text: string) => void,
): Promise<LogCapacity | null> {
  const vllmTagged = new Map<string, number>();
  let vllmBare = 0;
  let vllmBareCount = 0;
  let vllmDpSize = 1;
  const sglangByDp = new Map<string, number>();
  let sglangBare: number | null = null;
  let sglangDpSize = 1;
  let bytes = 0;
  for await (const { text } of readLines(stream)) {
    bytes += text.length + 1;
    if (bytes > MAX_LOG_BYTES) {
      stream.destroy();
      break;
    }
    onLine?.(text);
    const dp = VLLM_DP_SIZE.exec(text);
    if (dp) vllmDpSize = Math.max(vllmDpSize, Number(dp[1]));
    const sdp = SGLANG_DP_SIZE.exec(text);
    if (sdp) sglangDpSize = Math.max(sglangDpSize, Number(sdp[1]));
    const v = VLLM_LINE.exec(text);
    if (v) {
      const n = Number(v[1].replace(/,/g, ""));
      const tag = VLLM_TAG.exec(text)?.[1];
      if (tag) vllmTagged.set(tag, n);
      else {
        vllmBare += n;
        vllmBareCount++;
      }
    }
    const s = SGLANG_LINE.exec(text);
    if (s) {
      const n = Number(s[1]);
      const dpTag = SGLANG_DP_TAG.exec(text)?.[1];
      if (dpTag !== undefined) sglangByDp.set(dpTag, n);
      else sglangBare = Math.max(sglangBare ?? 0, n);
    }
  }
  if (vllmTagged.size > 0 || vllmBareCount > 0) {
    const pools = vllmTagged.size > 0 ? vllmTagged.size : vllmBareCount;
    const sum = vllmTagged.size > 0 ? [...vllmTagged.values()].reduce((a, b) => a + b, 0) : vllmBare;
    if (vllmDpSize > 1 && pools < vllmDpSize)
      return {
        engine: "vllm",
        tokens: null,
        pools,
        note: `${pools} of ${vllmDpSize} DP engine cores logged`,
      };
    return {
      engine: "vllm",
      tokens: sum,
      pools,
      note: `Σ GPU KV cache size over ${plural(pools, "engine core")}`,
    };
  }
  if (sglangByDp.size > 0) {
    const sum = [...sglangByDp.values()].reduce((a, b) => a + b, 0);
    if (sglangByDp.size === 1 && sglangDpSize > 1) {
      const only = [...sglangByDp.values()][0];
      return {
        engine: "sglang",
        tokens: only * sglangDpSize,
        pools: sglangDpSize,
        note: `one DP rank logged × dp_size=${sglangDpSize}`,
      };
    }
    if (sglangDpSize > 1 && sglangByDp.size < sglangDpSize)
      return {
        engine: "sglang",
        tokens: null,
        pools: sglangByDp.size,
        note: `${sglangByDp.size} of ${sglangDpSize} DP ranks logged`,
      };
    return {
      engine: "sglang",
      tokens: sum,
      pools: sglangByDp.size,
      note: `Σ max_total_num_tokens over ${plural(sglangByDp.size, "DP rank")}`,
    };
  }
  if (sglangBare !== null) {
    // Lines without a DP tag are tensor-parallel replicas of one pool per DP rank.
    return {
      engine: "sglang",
      tokens: sglangBare * sglangDpSize,
      pools: sglangDpSize,
      note: sglangDpSize > 1 ? `max_total_num_tokens × dp_size=${sglangDpSize}` : "max_total_num_tokens",
    };
  }
  return null;
}
