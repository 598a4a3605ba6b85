// A disaggregated TensorRT-LLM run as an older build's own record builder writes it, plus each
// worker's own `/perf_metrics` dump, for the ctx_request_id join.
//
// tensorrt_llm/serve/perf_metrics.py, DisaggPerfMetricsCollector.get_perf_metrics: for each
// request the disagg server keeps (ctx_server, gen_server, ctx_request_id, arrival, first token)
// and, once both workers report it, writes
//   {ctx_server, gen_server, disagg_server_arrival_time, disagg_server_first_token_time,
//    ctx_perf_metrics, gen_perf_metrics}
// where each *_perf_metrics is that worker's own `/perf_metrics` item, unchanged:
// `{request_id, ctx_request_id, perf_metrics: {first_iter, last_iter, timing_metrics,
// kv_cache_metrics}}` (the generation side's timing adds kv_cache_size and
// kv_cache_transfer_start/end). Servers are the disagg config's `host:port` strings (no scheme).
// Builds without disagg_request_id: every server numbers its own requests from 1, so a
// ctx_request_id repeats across context servers, and a worker's request_id repeats across
// servers and may equal the other side's id in the same record.
//
//   generateRecordBuilderRun({ dir, requests: 1913, ctxServers: 2, genServers: 2, seed: 3 })
//
// Writes `disagg_perf_metrics.json` (the record builder's array) and one JSON array per worker
// (`ctx_worker_<k>.json`, `gen_worker_<k>.json`, names that carry no host), and returns, per
// worker file, the server it dumped and the truth of every request.
import fs from "node:fs";
import path from "node:path";
import { prng } from "./prng.mjs";

/**
 * @param {{dir: string, requests: number, ctxServers?: number, genServers?: number, seed?: number}} opts
 */
/** A side's KV-cache metrics when every block was newly allocated: none reused, none missed. */
function freshBlocks(blocks) {
  return {
    num_total_allocated_blocks: blocks,
    num_new_allocated_blocks: blocks,
    num_reused_blocks: 0,
    num_missed_blocks: 0,
  };
}

export function generateRecordBuilderRun(opts) {
  const rand = prng(opts.seed ?? 3);
  const nCtx = opts.ctxServers ?? 2;
  const nGen = opts.genServers ?? 2;
  const ctxServers = Array.from({ length: nCtx }, (_, k) => `10.0.1.${11 + k}:8001`);
  const genServers = Array.from({ length: nGen }, (_, k) => `10.0.2.${21 + k}:8002`);
  const nextCtxId = ctxServers.map(() => 1);
  const nextGenId = genServers.map(() => 1);
  const ctxItems = ctxServers.map(() => []);
  const genItems = genServers.map(() => []);
  const records = [];
  /** Per request: the servers and the worker request ids, in record order. */
  const truth = [];
  let t = 5120.25;
  for (let i = 0; i < opts.requests; i++) {
    t += 0.05 + rand() * 0.1;
    const ck = Math.floor(rand() * nCtx);
    const gk = Math.floor(rand() * nGen);
    const ctxId = nextCtxId[ck]++;
    const genId = nextGenId[gk]++;
    const arrival = t;
    const ctxArrival = arrival + 0.0004 + rand() * 0.0004;
    const ctxFirstToken = ctxArrival + 0.03 + rand() * 0.02;
    const genArrival = ctxFirstToken + 0.004 + rand() * 0.002;
    const kvStart = genArrival + 0.002;
    const kvEnd = kvStart + 0.01 + rand() * 0.01;
    const genSched = kvEnd + 0.001;
    const genFirstToken = genSched + 0.02;
    const genLast = genFirstToken + 0.5 + rand() * 0.3;
    const disaggFirst = genFirstToken + 0.003;
    const iters = 100 + Math.floor(rand() * 28);
    const blocks = 8 + Math.floor(rand() * 8);
    const ctxItem = {
      request_id: ctxId,
      perf_metrics: {
        first_iter: 10 + i,
        last_iter: 10 + i,
        timing_metrics: {
          server_arrival_time: ctxArrival - 0.0002,
          arrival_time: ctxArrival,
          first_scheduled_time: ctxArrival + 0.001,
          first_token_time: ctxFirstToken,
          server_first_token_time: ctxFirstToken + 0.002,
          last_token_time: ctxFirstToken,
        },
        kv_cache_metrics: freshBlocks(blocks),
      },
      ctx_request_id: ctxId,
    };
    const genItem = {
      request_id: genId,
      perf_metrics: {
        first_iter: 2000 + 3 * i,
        last_iter: 2000 + 3 * i + iters - 1,
        timing_metrics: {
          server_arrival_time: genArrival - 0.0003,
          arrival_time: genArrival,
          first_scheduled_time: genSched,
          first_token_time: genFirstToken,
          server_first_token_time: genFirstToken + 0.001,
          last_token_time: genLast,
          kv_cache_size: blocks * 4718592,
          kv_cache_transfer_start: kvStart,
          kv_cache_transfer_end: kvEnd,
        },
        kv_cache_metrics: freshBlocks(blocks),
      },
      ctx_request_id: ctxId,
    };
    ctxItems[ck].push(ctxItem);
    genItems[gk].push(genItem);
    records.push({
      ctx_server: ctxServers[ck],
      gen_server: genServers[gk],
      disagg_server_arrival_time: arrival,
      disagg_server_first_token_time: disaggFirst,
      ctx_perf_metrics: ctxItem,
      gen_perf_metrics: genItem,
    });
    truth.push({ ctxServer: ctxServers[ck], genServer: genServers[gk], ctxId, genId });
  }
  fs.mkdirSync(opts.dir, { recursive: true });
  const files = [];
  /** Worker file name → the server whose `/perf_metrics` it holds. */
  const serverOfFile = {};
  const write = (name, value, server) => {
    const p = path.join(opts.dir, name);
    fs.writeFileSync(p, JSON.stringify(value, null, 1));
    files.push(p);
    if (server) serverOfFile[name.replace(/\.json$/, "")] = server;
  };
  write("disagg_perf_metrics.json", records, null);
  ctxItems.forEach((items, k) => write(`ctx_worker_${k}.json`, items, ctxServers[k]));
  genItems.forEach((items, k) => write(`gen_worker_${k}.json`, items, genServers[k]));
  return { files, serverOfFile, truth };
}
