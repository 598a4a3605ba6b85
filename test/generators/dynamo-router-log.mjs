/**
 * The Dynamo frontend's log of a KV-routed run, shaped as the producer writes it (ai-dynamo/dynamo
 * main, workspace version 1.2.0, 2026):
 * - per routed request, at DEBUG, `[ROUTING] Best: worker_<id> dp_rank=<r> with <overlap>/<total>
 *   blocks overlap` with the structured fields request_id, worker_id, dp_rank, overlap_blocks and
 *   total_blocks, total = ⌈ISL / block size⌉ (lib/llm/src/kv_router/push_router.rs; the same
 *   shape its e2e tests parse, tests/utils/router_logs.py);
 * - just before it, at INFO, `Selected worker` with worker_type (decode in an aggregated
 *   deployment), worker_id, dp_rank, logit and the cached blocks (lib/kv-router/src/scheduling/selector.rs);
 * - the readable format is tracing-subscriber's compact one with Dynamo's timer
 *   `%Y-%m-%dT%H:%M:%S%.6fZ` and ANSI colours on (the default, even into a file); JSONL
 *   (DYN_LOGGING_JSONL=1) is one object per line with time, level, file, line, target, message and
 *   the fields (lib/runtime/src/logging.rs).
 * Written from reading that source; nothing is copied. Worker ids are etcd lease ids (> 2^53).
 *
 * Usage: node test/generators/dynamo-router-log.mjs <outDir> [seconds] [modes: jsonl,info-only,one-worker]
 *   writes frontend.log (or frontend.jsonl) and the scrapes of the same run (server_metrics_export.jsonl).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { dynamoRouterRun, toJsonl } from "./dynamo-router-scrapes.mjs";

export const WORKER_IDS = ["7587888160958628372", "7587888160958628391", "7587888160958628405"];
const BLOCK = 16;

function iso(ns) {
  const ms = Math.floor(ns / 1e6);
  const us = Math.floor(ns / 1e3) % 1_000_000;
  return `${new Date(ms).toISOString().slice(0, 19)}.${String(us).padStart(6, "0")}Z`;
}

const dim = (s, ansi) => (ansi ? `\x1b[2m${s}\x1b[0m` : s);
const field = (k, v, ansi) => (ansi ? `\x1b[3m${k}\x1b[0m\x1b[2m=\x1b[0m${v}` : `${k}=${v}`);

function readable(ns, level, target, message, fields, ansi) {
  const lvl = ansi ? `\x1b[${level === "DEBUG" ? 34 : 32}m${level.padStart(5)}\x1b[0m` : level.padStart(5);
  const kv = Object.entries(fields).map(([k, v]) => field(k, v, ansi));
  return `${dim(iso(ns), ansi)} ${lvl} ${dim(`${target}:`, ansi)} ${[message, ...kv].join(" ")}`;
}

/** Keys sorted as serde_json writes a BTreeMap; ids stay exact digits. */
function jsonl(ns, level, file, line, target, message, fields) {
  const head = `{"time":"${iso(ns)}","level":"${level}","file":"${file}","line":${line},"target":"${target}","message":${JSON.stringify(message)}`;
  const rest = Object.keys(fields)
    .sort()
    .map(
      (k) =>
        `"${k}":${typeof fields[k] === "string" && !/^\d+$/.test(fields[k]) ? JSON.stringify(fields[k]) : fields[k]}`,
    );
  // u64 ids are written as exact digits, f64 as numbers, &str as strings.
  return `${[head, ...rest].join(",")}}`;
}

/**
 * `decisions` from dynamoRouterRun's truth. `debug: false` is a frontend at the default INFO level
 * (only `Selected worker` lines). `warmup`: decisions before the scrapes' window, as a benchmark's
 * warmup requests are. `bad`: malformed routing lines to be skipped and reported.
 */
export function routerLog(
  decisions,
  { format = "text", ansi = true, debug = true, warmup = [], bad = 0 } = {},
) {
  const lines = [];
  const t0 = warmup[0]?.tNs ?? decisions[0]?.tNs ?? 0;
  lines.push(
    format === "jsonl"
      ? jsonl(
          t0 - 30e9,
          "INFO",
          "components/src/dynamo/frontend/main.py",
          1,
          "dynamo_frontend",
          "Starting HTTP service on 0.0.0.0:8000",
          {},
        )
      : readable(
          t0 - 30e9,
          "INFO",
          "dynamo_llm::http::service::service_v2",
          "Starting HTTP service on: 0.0.0.0:8000",
          { address: '"0.0.0.0:8000"' },
          ansi,
        ),
  );
  const all = [...warmup.map((d) => ({ ...d, warm: true })), ...decisions];
  all.forEach((d, i) => {
    const id = WORKER_IDS[d.worker];
    const req = `${(i + 1).toString(16).padStart(8, "0")}-6f1c-4c3e-9a57-1d2a3b4c5d6e`;
    const logit = d.blocks - d.overlap + 3.25;
    const selected = {
      router_mode: "kv",
      request_id: req,
      worker_id: id,
      worker_type: "decode",
      dp_rank: 0,
      logit,
      host_pinned_blocks: 0,
      disk_blocks: 0,
    };
    // tracing prints a &str field Debug-quoted in the readable format.
    const selectedText = { ...selected, router_mode: '"kv"' };
    const routed = {
      request_id: req,
      worker_id: id,
      dp_rank: 0,
      overlap_blocks: d.overlap,
      total_blocks: d.blocks,
    };
    const best = `[ROUTING] Best: worker_${id} dp_rank=0 with ${d.overlap}/${d.blocks} blocks overlap`;
    if (format === "jsonl") {
      lines.push(
        jsonl(
          d.tNs - 2e5,
          "INFO",
          "lib/kv-router/src/scheduling/selector.rs",
          512,
          "dynamo_kv_router::scheduling::selector",
          "Selected worker",
          selected,
        ),
      );
      if (debug)
        lines.push(
          jsonl(
            d.tNs,
            "DEBUG",
            "lib/llm/src/kv_router/push_router.rs",
            214,
            "dynamo_llm::kv_router::push_router",
            best,
            routed,
          ),
        );
    } else {
      lines.push(
        readable(
          d.tNs - 2e5,
          "INFO",
          "dynamo_kv_router::scheduling::selector",
          "Selected worker",
          selectedText,
          ansi,
        ),
      );
      if (debug)
        lines.push(readable(d.tNs, "DEBUG", "dynamo_llm::kv_router::push_router", best, routed, ansi));
    }
  });
  const tEnd = (decisions.at(-1)?.tNs ?? 0) + 1e9;
  for (let b = 0; b < bad; b++)
    lines.push(
      format === "jsonl"
        ? `{"time":"${iso(tEnd)}","level":"DEBUG","message":"[ROUTING] Best: worker_${WORKER_IDS[0]} dp_rank=0 with 9/`
        : readable(
            tEnd,
            "DEBUG",
            "dynamo_llm::kv_router::push_router",
            `[ROUTING] Best: worker_${WORKER_IDS[0]} dp_rank=0 with 40/12 blocks overlap`,
            {},
            ansi,
          ),
    );
  return `${lines.join("\n")}\n`;
}

export { BLOCK };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [outDir, seconds, mode = ""] = process.argv.slice(2);
  const modes = new Set(mode.split(","));
  fs.mkdirSync(outDir, { recursive: true });
  const workers = modes.has("one-worker")
    ? [{ url: "http://worker-0:9090/metrics", shortfall: 0.25 }]
    : undefined;
  const { run, truth } = dynamoRouterRun({ seconds: Number(seconds ?? 60), workers });
  const warmup = [0, 1, 2].map((i) => ({
    tNs: run.window.startNs - 20e9 + i * 1e9,
    worker: 0,
    overlap: 0,
    blocks: 10,
  }));
  const format = modes.has("jsonl") ? "jsonl" : "text";
  fs.writeFileSync(
    path.join(outDir, format === "jsonl" ? "frontend.jsonl" : "frontend.log"),
    routerLog(truth.decisions, { format, debug: !modes.has("info-only"), warmup, bad: 2 }),
  );
  fs.writeFileSync(path.join(outDir, "server_metrics_export.jsonl"), toJsonl(run));
}
