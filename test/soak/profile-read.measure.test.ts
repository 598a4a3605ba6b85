/**
 * Measurement: CPU profiles of the heaviest reads of the aiperf run kept by
 * read-stalls.measure.test.ts (RUNLENS_MEASURE_DIR), their top self times printed. Runs only
 * with RUNLENS_MEASURE=1; RUNLENS_PROFILE_ONLY=report,goodput narrows it.
 */
import fs from "node:fs";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { it } from "vitest";
import { GET as report } from "@/app/api/runs/[id]/report.html/route";
import { GET as timeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as goodput } from "@/app/api/runs/[id]/goodput/route";
import { GET as sweepPoint } from "@/app/api/runs/[id]/sweep-point/route";
import { openTestApp } from "../helpers/test-app";

it.skipIf(process.env.RUNLENS_MEASURE !== "1")(
  "profiles",
  async () => {
    const dir = process.env.RUNLENS_MEASURE_DIR!;
    (process.env as Record<string, string>).NODE_ENV = "production";
    await openTestApp({ DATA_DIR: dir });
    const id = JSON.parse(fs.readFileSync(path.join(dir, "ids.json"), "utf8")).aiperf as string;
    const s = new Session();
    s.connect();
    await s.post("Profiler.enable");
    for (const [name, fn] of [
      [
        "report",
        () => report(new Request(`http://x/api/runs/${id}/report.html`), { params: Promise.resolve({ id }) }),
      ],
      [
        "timeline",
        () =>
          timeline(new Request(`http://x/api/runs/${id}/timeline?from=1000&to=60000`), {
            params: Promise.resolve({ id }),
          }),
      ],
      [
        "goodput",
        () =>
          goodput(new Request(`http://x/api/runs/${id}/goodput?slo=ttft:p99:500,e2e:req:5000`), {
            params: Promise.resolve({ id }),
          }),
      ],
      [
        "sweep-point",
        () =>
          sweepPoint(new Request(`http://x/api/runs/${id}/sweep-point`), { params: Promise.resolve({ id }) }),
      ],
    ] as const) {
      if (process.env.RUNLENS_PROFILE_ONLY && !process.env.RUNLENS_PROFILE_ONLY.split(",").includes(name))
        continue;
      await s.post("Profiler.start");
      const t0 = performance.now();
      await (await fn()).arrayBuffer();
      const ms = performance.now() - t0;
      const { profile } = await s.post("Profiler.stop");
      const self = new Map<string, number>();
      const dt = new Map<number, number>();
      profile.samples!.forEach((n, i) => dt.set(n, (dt.get(n) ?? 0) + (profile.timeDeltas![i] ?? 0)));
      for (const node of profile.nodes) {
        const f = node.callFrame;
        const k = `${f.functionName || "(anon)"} ${f.url.split("/").slice(-2).join("/")}:${f.lineNumber}`;
        self.set(k, (self.get(k) ?? 0) + (dt.get(node.id) ?? 0) / 1000);
      }
      console.log(
        name,
        ms.toFixed(0),
        "ms\n" +
          [...self]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 25)
            .map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`)
            .join("\n"),
      );
    }
  },
  600_000,
);
