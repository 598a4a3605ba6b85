// The server half of test/bench/health-during-reads.mjs, run by jiti so it imports the TypeScript
// sources: the app on the data dir in DATA_DIR (or DATABASE_URL), its read routes behind a plain
// node:http server, and the event loop's delay measured in this process (perf_hooks
// monitorEventLoopDelay). Prints `listening <port>` once it answers.
//
//   GET /__loop        the longest event-loop delay (ms) since the last call, then starts afresh
//   GET /__charts/ID   the chart keys stored for run ID
//   GET /__forget      drops the kept timelines, so the next window reads the run's columns
import fs from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Readable } from "node:stream";
import { GET as health } from "@/app/api/health/route";
import { GET as requestList } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as chart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as goodput } from "@/app/api/runs/[id]/goodput/route";
import { GET as journey } from "@/app/api/runs/[id]/journey/route";
import { GET as run } from "@/app/api/runs/[id]/route";
import { GET as timeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as trace } from "@/app/api/runs/[id]/trace.json/route";
import { POST as upload } from "@/app/api/runs/route";
import { warmIntl } from "@/lib/format-number";
import { forgetTimelines } from "@/lib/runs/run-timeline";
import { getAppContext } from "@/lib/server/app-context";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const ROUTES: Array<[RegExp, string[], Handler]> = [
  [/^\/api\/health$/, [], health as Handler],
  [/^\/api\/runs$/, [], upload as unknown as Handler],
  [/^\/api\/runs\/([^/]+)$/, ["id"], run as Handler],
  [/^\/api\/runs\/([^/]+)\/trace\.json$/, ["id"], trace as Handler],
  [/^\/api\/runs\/([^/]+)\/aiperf\/requests$/, ["id"], requestList as Handler],
  [/^\/api\/runs\/([^/]+)\/timeline$/, ["id"], timeline as Handler],
  [/^\/api\/runs\/([^/]+)\/goodput$/, ["id"], goodput as Handler],
  [/^\/api\/runs\/([^/]+)\/journey$/, ["id"], journey as Handler],
  [/^\/api\/runs\/([^/]+)\/charts\/([^/]+)$/, ["id", "key"], chart as Handler],
];

async function main() {
  warmIntl(); // as the server's start does (instrumentation.ts)
  const app = await getAppContext();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  // RUNLENS_BENCH_GAPS=<file>: each gap of the loop over 55 ms, as [start, end] in µs of the
  // monotonic clock a CPU profile's timestamps count in, one JSON line each: the profile's
  // samples inside a gap are what held the server then.
  const gapsFile = process.env.RUNLENS_BENCH_GAPS;
  if (gapsFile) {
    let last = process.hrtime.bigint();
    setInterval(() => {
      const now = process.hrtime.bigint();
      if (now - last > 55_000_000n)
        fs.appendFileSync(gapsFile, JSON.stringify([Number(last / 1000n), Number(now / 1000n)]) + "\n");
      last = now;
    }, 5).unref();
  }
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname === "/__loop") {
        const maxMs = loop.max / 1e6;
        loop.reset();
        res.end(JSON.stringify({ maxMs }));
        return;
      }
      if (url.pathname === "/__forget") {
        forgetTimelines();
        res.end("{}");
        return;
      }
      const charts = /^\/__charts\/([^/]+)$/.exec(url.pathname);
      if (charts) {
        const rows = await app.store.db
          .selectFrom("chart_data")
          .select("key")
          .where("run_id", "=", charts[1])
          .execute();
        res.end(JSON.stringify(rows.map((r) => r.key)));
        return;
      }
      for (const [re, names, handler] of ROUTES) {
        const m = re.exec(url.pathname);
        if (!m) continue;
        const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
        const body = req.method === "POST" ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined;
        const answer = await handler(
          new Request(url, {
            method: req.method,
            headers: req.headers as Record<string, string>,
            body,
            duplex: "half",
          } as RequestInit),
          { params: Promise.resolve(params) },
        );
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        if (answer.body) for await (const chunk of Readable.fromWeb(answer.body as never)) res.write(chunk);
        res.end();
        return;
      }
      res.writeHead(404).end();
    } catch (e) {
      console.error(e);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  server.listen(0, "127.0.0.1", () => {
    const a = server.address();
    console.log(`listening ${typeof a === "object" && a ? a.port : 0}`);
  });
}

// Exits on the bench's kill, so a server run under `node --cpu-prof` writes its profile.
process.on("SIGTERM", () => process.exit(0));

void main();
