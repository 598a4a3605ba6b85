/**
 * The per-worker and per-endpoint views of a TensorRT-LLM run: KV-cache hit rates by worker file
 * and role, and the endpoint rows merged with other analyzers' by normalised server name.
 */
import { normalizeEndpoint } from "@/lib/formats/endpoint";
import type { JoinResult } from "./trtllm-join";
import { BlockTally } from "./trtllm-kv";
import { compareEndpointNames } from "@/lib/api/endpoint-order";
import type { WorkerRole } from "./trtllm-roles";
import { atOnce } from "./steps";

/** Requests a pass of `hitRatesInSteps` or `endpointRowsInSteps` takes in a step. */
export const ROWS_STEP = 500;

/** Block-weighted hit rates per worker file and per role, and each file's tally for endpointRows. */
export function hitRates(join: JoinResult, workerNames: readonly string[]) {
  return atOnce(hitRatesInSteps(join, workerNames));
}

/** `hitRates` in steps of ROWS_STEP requests: the same answer. */
export function* hitRatesInSteps(join: JoinResult, workerNames: readonly string[]) {
  const byFile = workerNames.map(() => new BlockTally());
  for (const list of [join.requests, join.leftOut])
    for (let i = 0; i < list.length; i++) {
      const r = list.get(i);
      if (r.ctxFile !== null && r.ctx) byFile[r.ctxFile].add(r.ctx.kv);
      if (r.genFile !== null && r.gen) byFile[r.genFile].add(r.gen.kv);
      if ((i + 1) % ROWS_STEP === 0) yield;
    }
  const row = (t: BlockTally) => ({
    requests: t.requests,
    reusedBlocks: t.reused,
    missedBlocks: t.missed,
    hitRate: t.hitRate(),
  });
  const roles: WorkerRole[] = ["prefill", "decode", "combined"];
  const byRole = roles.map((role) => {
    const t = new BlockTally();
    byFile.forEach((f, i) => join.fileRoles[i] === role && t.merge(f));
    return { role, ...row(t) };
  });
  return {
    byFile,
    payload: {
      byWorker: byFile
        .map((t, i) => ({ worker: workerNames[i], role: join.fileRoles[i], ...row(t) }))
        .filter((w) => w.requests > 0)
        .sort((a, b) => compareEndpointNames(a.worker, b.worker)),
      byRole: byRole.filter((r) => r.requests > 0),
    },
  };
}

/** One row per server, named or (a worker file that joined none) standing for itself. */
export function endpointRows(join: JoinResult, workerNames: readonly string[], byFile: BlockTally[]) {
  return atOnce(endpointRowsInSteps(join, workerNames, byFile));
}

/** `endpointRows` in steps of ROWS_STEP requests: the same rows. */
export function* endpointRowsInSteps(join: JoinResult, workerNames: readonly string[], byFile: BlockTally[]) {
  const rows = new Map<string, { role: WorkerRole; requests: number; tally: BlockTally }>();
  const get = (endpoint: string, role: WorkerRole) => {
    let row = rows.get(endpoint);
    if (!row) rows.set(endpoint, (row = { role, requests: 0, tally: new BlockTally() }));
    return row;
  };
  for (let i = 0; i < join.requests.length; i++) {
    const r = join.requests.get(i);
    if ((i + 1) % ROWS_STEP === 0) yield;
    if (r.ctxServer) {
      const row = get(normalizeEndpoint(r.ctxServer), "prefill");
      row.requests++;
      row.tally.add(r.ctx?.kv ?? null);
    }
    if (r.genServer) {
      const row = get(normalizeEndpoint(r.genServer), "decode");
      row.requests++;
      row.tally.add(r.gen?.kv ?? null);
    }
  }
  // Worker files that never joined a named server stand for themselves.
  const usedByFile = workerNames.map(() => 0);
  for (const list of [join.requests, join.leftOut])
    for (let i = 0; i < list.length; i++) {
      const r = list.get(i);
      if (r.ctxFile !== null) usedByFile[r.ctxFile]++;
      if (r.genFile !== null && r.genFile !== r.ctxFile) usedByFile[r.genFile]++;
      if ((i + 1) % ROWS_STEP === 0) yield;
    }
  workerNames.forEach((name, i) => {
    if (join.fileServers[i] !== null || byFile[i] === undefined) return;
    const used = usedByFile[i];
    if (used === 0) return;
    const row = get(name, join.fileRoles[i]);
    row.requests += used;
    row.tally.merge(byFile[i]);
  });
  return [...rows].map(([endpoint, r]) => ({
    endpoint,
    role: r.role,
    requestCount: r.requests,
    kvCacheHitRate: r.tally.hitRate(),
  }));
}
