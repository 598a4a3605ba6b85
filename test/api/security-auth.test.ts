/**
 * Write routes need the API token when one is configured (reads stay open); private mode hides
 * the run list and leaves a run reachable only by its 128-bit id.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { DELETE as deleteRun, GET as getRun, PATCH as patchRun } from "@/app/api/runs/[id]/route";
import { GET as download } from "@/app/api/runs/[id]/files/[fileId]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { newRunId } from "@/lib/store/ids";
import { appForTest, idParams, uploadRequest } from "../helpers/test-app";

const VALID = path.resolve(__dirname, "../fixtures/bad/files/valid-aiperf.jsonl");
const TOKEN = "correct horse battery staple";

const url = (p: string) => `http://localhost${p}`;
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

async function uploadAs(headers: Record<string, string>) {
  return upload(uploadRequest([{ name: "profile_export.jsonl", path: VALID }], { name: "r" }, headers));
}

describe("RUNLENS_API_TOKEN", () => {
  const wrong: Array<[string, Record<string, string>]> = [
    ["no header", {}],
    ["a wrong token", bearer("wrong")],
    ["a prefix of the token", bearer(TOKEN.slice(0, -1))],
    ["the token plus a character", bearer(TOKEN + "x")],
    ["an empty bearer", { authorization: "Bearer " }],
    ["another scheme", { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString("base64")}` }],
    ["the token without a scheme", { authorization: TOKEN }],
  ];

  it.each(wrong)("refuses every write with %s (401) and stores nothing", async (_label, headers) => {
    await appForTest({ RUNLENS_API_TOKEN: TOKEN });
    const created = await (await uploadAs(bearer(TOKEN))).json();
    const id = created.id as string;

    const up = await uploadAs(headers);
    expect(up.status).toBe(401);
    expect((await up.json()).error.code).toBe("unauthorized");
    const patch = await patchRun(
      new Request(url(`/api/runs/${id}`), {
        method: "PATCH",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ name: "renamed", labels: ["x"] }),
      }),
      idParams(id),
    );
    expect(patch.status).toBe(401);
    const del = await deleteRun(
      new Request(url(`/api/runs/${id}`), { method: "DELETE", headers }),
      idParams(id),
    );
    expect(del.status).toBe(401);
    const re = await reingest(
      new Request(url(`/api/runs/${id}/reingest`), { method: "POST", headers }),
      idParams(id),
    );
    expect(re.status).toBe(401);

    const run = await (await getRun(new Request(url(`/api/runs/${id}`)), idParams(id))).json();
    expect(run.name).toBe("r");
    expect(run.labels).toEqual([]);
    const list = await (await listRuns(new Request(url("/api/runs")))).json();
    expect(list.runs).toHaveLength(1);
  });

  it("accepts every write with the token, and reads need none", async () => {
    await appForTest({ RUNLENS_API_TOKEN: TOKEN });
    const up = await uploadAs(bearer(TOKEN));
    expect(up.status).toBe(201);
    const { id, files } = await up.json();
    expect((await health(new Request("http://localhost/api/health"))).status).toBe(200);
    expect((await listRuns(new Request(url("/api/runs")))).status).toBe(200);
    expect((await getRun(new Request(url(`/api/runs/${id}`)), idParams(id))).status).toBe(200);
    const file = await download(new Request(url("/x")), {
      params: Promise.resolve({ id, fileId: files[0].id }),
    });
    expect(file.status).toBe(200);

    const patch = await patchRun(
      new Request(url(`/api/runs/${id}`), {
        method: "PATCH",
        headers: { "content-type": "application/json", authorization: `bearer   ${TOKEN}` },
        body: JSON.stringify({ name: "renamed", labels: ["x"] }),
      }),
      idParams(id),
    );
    expect(patch.status).toBe(200);
    expect((await patch.json()).labels).toEqual(["x"]);
    const re = await reingest(
      new Request(url(`/api/runs/${id}/reingest`), { method: "POST", headers: bearer(TOKEN) }),
      idParams(id),
    );
    expect(re.status).toBe(200);
    const del = await deleteRun(
      new Request(url(`/api/runs/${id}`), { method: "DELETE", headers: bearer(TOKEN) }),
      idParams(id),
    );
    expect(del.status).toBe(204);
  });

  it("compares the token in constant time (hashes of both sides, timingSafeEqual)", async () => {
    const fs = await import("node:fs");
    const src = fs.readFileSync(path.resolve(__dirname, "../../lib/server/auth.ts"), "utf8");
    expect(src).toMatch(/timingSafeEqual\(/);
    expect(src).toMatch(/createHash\("sha256"\)/);
    expect(src).not.toMatch(/===\s*config\.apiToken|config\.apiToken\s*===/);
  });
});

describe("RUNLENS_PRIVATE=true", () => {
  it("hides the run list and serves a run only by its id", async () => {
    await appForTest({ RUNLENS_PRIVATE: "true" });
    const { id } = await (await uploadAs({})).json();
    const list = await listRuns(new Request(url("/api/runs")));
    expect(list.status).toBe(404);
    const body = await list.json();
    expect(JSON.stringify(body)).not.toContain(id);
    for (const q of ["?q=r", "?label=x", "?limit=1"])
      expect((await listRuns(new Request(url(`/api/runs${q}`)))).status).toBe(404);
    expect((await getRun(new Request(url(`/api/runs/${id}`)), idParams(id))).status).toBe(200);
    const guess = newRunId();
    expect((await getRun(new Request(url(`/api/runs/${guess}`)), idParams(guess))).status).toBe(404);
    // Same answer for a malformed id and an unknown one: nothing to learn from probing.
    const bad = await getRun(new Request(url("/api/runs/..%2F..")), idParams("../.."));
    expect(bad.status).toBe(404);
  });

  it("gives runs unguessable ids: 128 random bits", () => {
    const ids = Array.from({ length: 2000 }, () => newRunId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 50)) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id, "base64url")).toHaveLength(16);
    }
    // Every bit position varies across ids (not a counter or a timestamp).
    const ones = new Array(128).fill(0);
    for (const id of ids) {
      const b = Buffer.from(id, "base64url");
      for (let i = 0; i < 128; i++) ones[i] += (b[i >> 3] >> (7 - (i & 7))) & 1;
    }
    for (const n of ones) {
      expect(n).toBeGreaterThan(800);
      expect(n).toBeLessThan(1200);
    }
  });
});
