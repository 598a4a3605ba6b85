/**
 * Gate and verdict links point at the address the client used (reliability probe N8), and in
 * private mode one run's link names no other run of its series (N9). Runs are aiperf exports
 * from test/generators/aiperf.mjs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as gate } from "@/app/api/gate/route";
import { GET as verdicts } from "@/app/api/runs/[id]/verdicts/route";
import { POST as upload } from "@/app/api/runs/route";
import { gateResultSchema } from "@/lib/api/regression-schemas";
import { publicOrigin } from "@/lib/server/public-origin";
import { readConfig } from "@/lib/server/config";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { appForTest, idParams, uploadRequest } from "../helpers/test-app";

const SERIES = "nightly/links";

async function artifacts(seed: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-links-"));
  await generateAiperfRun(dir, { records: 200, seed, csv: false });
  return ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
    name,
    path: path.join(dir, name),
  }));
}

async function uploadInto(seed: number, headers: Record<string, string> = {}): Promise<string> {
  const res = await upload(uploadRequest(await artifacts(seed), { series: SERIES }, headers));
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The server listens on localhost:3621; the client reached it through a proxy by another name. */
// The generated runs' ISL means differ by more than a comparable pair's 10 % (docs/metrics.md
// §Comparable runs): these tests are about links, so they judge anyway.
const verdictsAt = (id: string, qs: string, headers: Record<string, string> = {}) =>
  verdicts(
    new Request(`http://localhost:3621/api/runs/${id}/verdicts?${qs}&allowDifferent=1`, { headers }),
    idParams(id),
  );

const PROXIED = {
  host: "localhost:3621",
  "x-forwarded-host": "runlens.example.com",
  "x-forwarded-proto": "https",
};

describe("gate and verdict links", () => {
  it("use the forwarded host and scheme, or Host, never the server's own address", async () => {
    await appForTest();
    await uploadInto(1);
    const id = await uploadInto(2);
    const proxied = gateResultSchema.parse(await (await verdictsAt(id, "baseline=last", PROXIED)).json());
    expect(proxied.runUrl).toBe(`https://runlens.example.com/runs/${id}`);
    expect(proxied.compareUrl).toMatch(/^https:\/\/runlens\.example\.com\/compare\?runs=/);
    const md = await (await verdictsAt(id, "baseline=last&format=markdown", PROXIED)).text();
    expect(md).toContain(`(https://runlens.example.com/runs/${id})`);
    expect(md).not.toContain("localhost");

    const byName = gateResultSchema.parse(
      await (await verdictsAt(id, "baseline=last", { host: "bench.internal:8080" })).json(),
    );
    expect(byName.runUrl).toBe(`http://bench.internal:8080/runs/${id}`);
  });

  it("answer the gate upload with public links", async () => {
    await appForTest();
    await uploadInto(1);
    const form = uploadRequest(await artifacts(2));
    const res = await gate(
      new Request(`http://localhost:3621/api/gate?series=${SERIES}&allowDifferent=1`, {
        method: "POST",
        body: await form.arrayBuffer(),
        headers: { ...PROXIED, "content-type": form.headers.get("content-type")! },
      }),
    );
    expect(res.status).toBe(200);
    const body = gateResultSchema.parse(await res.json());
    expect(body.runUrl).toMatch(/^https:\/\/runlens\.example\.com\/runs\//);
    expect(body.compareUrl).toMatch(/^https:\/\/runlens\.example\.com\/compare\?/);
  });

  it("use RUNLENS_PUBLIC_URL when it is set, and ignore a header that is not one host", () => {
    const req = new Request("http://localhost:3621/x", {
      headers: { host: "evil.example](javascript:alert(1))", "x-forwarded-host": "a b" },
    });
    expect(publicOrigin(req, { publicUrl: null })).toBe("http://localhost:3621");
    const config = readConfig({
      RUNLENS_PUBLIC_URL: "https://runlens.example.com/lens/",
    } as unknown as NodeJS.ProcessEnv);
    expect(publicOrigin(new Request("http://localhost:3621/x", { headers: PROXIED }), config)).toBe(
      "https://runlens.example.com/lens",
    );
    expect(
      readConfig({ RUNLENS_PUBLIC_URL: "javascript:alert(1)" } as unknown as NodeJS.ProcessEnv).publicUrl,
    ).toBeNull();
  });
});

describe("verdicts in private mode", () => {
  it("name no other run of the series to a link holder, only to the token holder", async () => {
    const TOKEN = "private-token";
    await appForTest({ RUNLENS_PRIVATE: "true", RUNLENS_API_TOKEN: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    // A TensorRT-LLM run first: its collectors are known where the aiperf runs' are not, so the
    // judgement's collector notes would list the runs too.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-links-trt-"));
    const gen = generateTrtllmRun({ dir, mode: "aggregated", requests: 30, seed: 3 });
    const trt = await upload(
      uploadRequest(
        gen.files.map((p: string) => ({ name: path.basename(p), path: p })),
        { series: SERIES },
        auth,
      ),
    );
    expect(trt.status).toBe(201);
    const others = [
      ((await trt.json()) as { id: string }).id,
      await uploadInto(1, auth),
      await uploadInto(2, auth),
    ];
    const id = await uploadInto(3, auth);
    for (const qs of ["baseline=last", "baseline=last:99"]) {
      const res = await verdictsAt(id, qs);
      const text = await res.clone().text();
      for (const other of others) expect(text).not.toContain(other);
      const body = gateResultSchema.parse(await res.json());
      expect(body.judgement!.baseline.runIds).toEqual([]);
      expect(body.compareUrl).toBeNull();
      expect(body.runUrl).toContain(id);
      const md = await (await verdictsAt(id, `${qs}&format=markdown`)).text();
      for (const other of others) expect(md).not.toContain(other);
      expect(md).not.toContain("compare?");
    }
    const withToken = gateResultSchema.parse(await (await verdictsAt(id, "baseline=last:99", auth)).json());
    expect(withToken.judgement!.baseline.runIds).toEqual(others);
    expect(withToken.compareUrl).toContain(others[2]);
    expect(withToken.judgement!.collectorMismatches.flatMap((m) => m.unknownRunIds)).toContain(others[1]);
  });
});
