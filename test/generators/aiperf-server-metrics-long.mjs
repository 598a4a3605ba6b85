/**
 * A long, wide aiperf `server_metrics_export.json`: the families, label sets, stats keys and
 * timeslice fields of the real export in test/fixtures/aiperf-real-c4 (aiperf 0.6.0, vLLM metric
 * names), repeated over `endpoints` endpoints and `seconds` one-second timeslices, so a reader
 * meets the shape aiperf's json_exporter writes (pydantic's indent-2 dump: floats keep their
 * `.0`, nanosecond times are integers past 2^53) at the size of a 30-minute agentic run.
 * Values are the real timeslices' values scaled by a seeded factor; they are inputs for readers
 * and benchmarks, not a model of a server. Written as a stream (the file outgrows one string).
 *
 *   node test/generators/aiperf-server-metrics-long.mjs OUT_FILE [endpoints=16] [seconds=1800]
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REAL_EXPORT = path.join(HERE, "../fixtures/aiperf-real-c4/server_metrics_export.json");

/** A float as Python's json writes it (repr: `1.0`, `0.05333333333333334`). */
class PyFloat {
  constructor(x) {
    this.x = x;
  }
  toText() {
    if (!Number.isFinite(this.x)) return this.x > 0 ? "Infinity" : this.x < 0 ? "-Infinity" : "NaN";
    return Number.isInteger(this.x) && Math.abs(this.x) < 1e16 ? this.x.toFixed(1) : String(this.x);
  }
}

function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Python json.dumps(indent=2) of a value whose floats are PyFloat and big integers BigInt. */
function dump(v, pad) {
  if (v instanceof PyFloat) return v.toText();
  if (typeof v === "bigint") return v.toString();
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const inner = pad + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return `[\n${v.map((x) => inner + dump(x, inner)).join(",\n")}\n${pad}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return "{}";
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${dump(v[k], inner)}`).join(",\n")}\n${pad}}`;
}

/** Reads the real export's numbers back as the writer's types: integers in the text stay integers. */
function typed(text) {
  // Each number's source text is kept (JSON.parse alone would turn 938.0 into 938 and round ns).
  const marked = text.replace(/("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g, (m, str, num) =>
    str !== undefined ? str : `"\\u0000${num}"`,
  );
  return JSON.parse(marked, (key, x) => {
    if (typeof x !== "string" || !x.startsWith("\u0000")) return x;
    const src = x.slice(1);
    return /^-?\d+$/.test(src) ? BigInt(src) : new PyFloat(Number(src));
  });
}

const NS = 1_000_000_000n;

/**
 * `startNs` (a BigInt of epoch nanoseconds) moves the export's first timeslice, so that it can
 * cover the same minutes as records generated beside it; by default it starts where the real
 * export does.
 */
export async function writeLongServerMetricsJson(
  file,
  { endpoints = 16, seconds = 1800, seed = 11, startNs } = {},
) {
  const text = fs.readFileSync(REAL_EXPORT, "utf8");
  const real = typed(text);
  const rand = prng(seed);
  const t0 = startNs ?? BigInt(real.metrics["vllm:num_requests_running"].series[0].timeslices[0].start_ns);
  const urls = Array.from(
    { length: endpoints },
    (_, e) => `http://10.0.${e >> 8}.${(e & 255) + 1}:8000/metrics`,
  );
  const endNs = t0 + BigInt(seconds) * NS;
  const iso = (ns) => new Date(Number(ns / 1_000_000n)).toISOString().replace("Z", "");
  const endpointInfo = {};
  for (const url of urls)
    endpointInfo[url] = {
      total_fetches: BigInt(seconds * 3),
      first_fetch_ns: t0 - 2n * NS,
      last_fetch_ns: endNs,
      avg_fetch_latency_ms: new PyFloat(15.5),
      unique_updates: BigInt(seconds * 3 - 1),
      first_update_ns: t0 - 2n * NS,
      last_update_ns: endNs,
      duration_seconds: new PyFloat(seconds + 2),
    };
  const out = fs.createWriteStream(file);
  const write = async (s) => {
    if (!out.write(s)) await new Promise((r) => out.once("drain", r));
  };
  const head = {
    schema_version: real.schema_version,
    aiperf_version: real.aiperf_version,
    benchmark_id: real.benchmark_id,
    summary: {
      endpoints_configured: urls,
      endpoints_successful: urls,
      start_time: iso(t0),
      end_time: iso(endNs),
      endpoint_info: endpointInfo,
    },
  };
  const headText = dump(head, "");
  await write(`${headText.slice(0, -2)},\n  "metrics": {\n`);
  const names = Object.keys(real.metrics);
  for (let m = 0; m < names.length; m++) {
    const family = real.metrics[names[m]];
    const { series: templates, ...rest } = family;
    const restText = dump(rest, "    ");
    await write(`    ${JSON.stringify(names[m])}: ${restText.slice(0, -6)},\n      "series": [\n`);
    // Each endpoint carries the template's series of the first real endpoint (label sets included).
    const firstUrl = templates[0].endpoint_url;
    const own = templates.filter((s) => s.endpoint_url === firstUrl);
    let first = true;
    for (const url of urls)
      for (const tpl of own) {
        const scale = 0.5 + rand();
        const slices = tpl.timeslices.filter((ts) => ts.is_complete !== false);
        const timeslices = [];
        for (let i = 0; i < seconds; i++) {
          const src = slices[i % slices.length];
          const ts = {};
          for (const [k, x] of Object.entries(src)) {
            if (k === "start_ns") ts[k] = t0 + BigInt(i) * NS;
            else if (k === "end_ns") ts[k] = t0 + BigInt(i + 1) * NS;
            else if (k === "buckets") ts[k] = x;
            else if (x instanceof PyFloat && family.type !== "gauge")
              ts[k] = new PyFloat(Math.round(x.x * scale));
            else if (x instanceof PyFloat) ts[k] = new PyFloat(Math.min(1, x.x * scale));
            else ts[k] = x;
          }
          timeslices.push(ts);
        }
        const s = { endpoint_url: url, labels: tpl.labels, stats: tpl.stats };
        if (tpl.buckets) s.buckets = tpl.buckets;
        s.timeslices = timeslices;
        await write(`${first ? "" : ",\n"}        ${dump(s, "        ")}`);
        first = false;
      }
    await write(`\n      ]\n    }${m < names.length - 1 ? "," : ""}\n`);
  }
  await write(`  },\n  "input_config": ${dump(real.input_config, "  ")}\n}`);
  out.end();
  await new Promise((r, j) => out.on("finish", r).on("error", j));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, endpoints = "16", seconds = "1800"] = process.argv.slice(2);
  await writeLongServerMetricsJson(file, { endpoints: Number(endpoints), seconds: Number(seconds) });
}
