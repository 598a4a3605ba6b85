/**
 * Without a token, another site's page must not write: a browser marks its requests with
 * `Origin` and `Sec-Fetch-Site`, and a write carrying another site's is refused, while the app's
 * own pages and clients that send neither (curl, the CLI) keep writing, and reads stay open.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { DELETE as deleteRun, GET as getRun, PATCH as patchRun } from "@/app/api/runs/[id]/route";
import { GET as download } from "@/app/api/runs/[id]/files/[fileId]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { idParams, uploadRequest, useTestApp } from "../helpers/test-app";

const VALID = path.resolve(__dirname, "../fixtures/bad/files/valid-aiperf.jsonl");
const TOKEN = "correct horse battery staple";
const HOST = "runlens.internal:3000";
const url = (p: string) => `http://${HOST}${p}`;

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

type Headers = Record<string, string>;

/** Every write route, each given the same extra headers; answers the four statuses. */
async function writeAll(id: string, headers: Headers) {
  const base = { host: HOST, ...headers };
  const up = await upload(
    uploadRequest([{ name: "profile_export.jsonl", path: VALID }], { name: "planted" }, base),
  );
  const re = await reingest(
    new Request(url(`/api/runs/${id}/reingest`), { method: "POST", headers: base }),
    idParams(id),
  );
  const patch = await patchRun(
    new Request(url(`/api/runs/${id}`), {
      method: "PATCH",
      headers: { ...base, "content-type": "application/json" },
      body: JSON.stringify({ name: "renamed" }),
    }),
    idParams(id),
  );
  const del = await deleteRun(
    new Request(url(`/api/runs/${id}`), { method: "DELETE", headers: base }),
    idParams(id),
  );
  return { up, re, patch, del };
}

async function victim() {
  const res = await upload(
    uploadRequest([{ name: "profile_export.jsonl", path: VALID }], { name: "victim" }),
  );
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; files: Array<{ id: string }> };
}

/** A re-ingest with these headers is refused as cross-site, and the run is untouched. */
async function expectRefused(id: string, headers: Headers) {
  const before = await runOf(id);
  const res = await reingest(
    new Request(url(`/api/runs/${id}/reingest`), { method: "POST", headers: { host: HOST, ...headers } }),
    idParams(id),
  );
  expect(res.status).toBe(403);
  expect((await res.json()).error.code).toBe("cross_site_write");
  expect((await runOf(id)).ingestedAt).toBe(before.ingestedAt);
}

async function runOf(id: string) {
  return (await getRun(new Request(url(`/api/runs/${id}`)), idParams(id))).json();
}

const crossSite: Array<[string, Headers]> = [
  ["an Origin of another site", { origin: "http://evil.example" }],
  ["an Origin on another port of the same host", { origin: "http://runlens.internal:8998" }],
  ["Origin: null (a sandboxed or opaque page)", { origin: "null" }],
  ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
  ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
  [
    "Sec-Fetch-Site: cross-site with the server's own Origin",
    { origin: `http://${HOST}`, "sec-fetch-site": "cross-site" },
  ],
];

describe("cross-site writes without a token", () => {
  it.each(crossSite)("refuses upload, re-ingest, PATCH and DELETE with %s (403)", async (_label, headers) => {
    ({ cleanup } = await useTestApp());
    const { id } = await victim();
    const before = await runOf(id);

    const { up, re, patch, del } = await writeAll(id, headers);
    for (const res of [up, re, patch, del]) {
      expect(res.status).toBe(403);
      const { error } = await res.json();
      expect(error.code).toBe("cross_site_write");
      expect(error.message).toMatch(/Authorization: Bearer/);
    }

    const after = await runOf(id);
    expect(after.name).toBe("victim");
    expect(after.ingestedAt).toBe(before.ingestedAt);
    const list = await (await listRuns(new Request(url("/api/runs")))).json();
    expect(list.runs.map((r: { name: string }) => r.name)).toEqual(["victim"]);
  });

  // Each allowed case comes with a twin that differs only in what makes it cross-site, so the
  // line between the two is what is tested.
  const allowed: Array<[string, Headers, Headers]> = [
    ["no Origin (curl, the CLI)", {}, { origin: "http://evil.example" }],
    ["the server's own Origin", { origin: `http://${HOST}` }, { origin: "http://runlens.internal:8998" }],
    [
      "Sec-Fetch-Site: same-origin",
      { origin: `http://${HOST}`, "sec-fetch-site": "same-origin" },
      { origin: `http://${HOST}`, "sec-fetch-site": "cross-site" },
    ],
    [
      "Sec-Fetch-Site: none (the user's own action)",
      { "sec-fetch-site": "none" },
      { "sec-fetch-site": "same-site" },
    ],
    [
      "an Origin matching X-Forwarded-Host behind a proxy that rewrites Host",
      {
        host: "127.0.0.1:3000",
        "x-forwarded-host": "runlens.example.com",
        origin: "https://runlens.example.com",
      },
      {
        host: "127.0.0.1:3000",
        "x-forwarded-host": "runlens.example.com",
        origin: "https://evil.example.com",
      },
    ],
  ];

  it.each(allowed)("allows every write with %s", async (_label, headers, twin) => {
    ({ cleanup } = await useTestApp());
    const { id } = await victim();
    await expectRefused(id, twin);
    const { up, re, patch, del } = await writeAll(id, headers);
    expect([up.status, re.status, patch.status, del.status]).toEqual([201, 200, 200, 204]);
  });

  it("takes the forwarded host of the first proxy hop only", async () => {
    ({ cleanup } = await useTestApp());
    const { id } = await victim();
    await expectRefused(id, {
      host: "127.0.0.1:3000",
      "x-forwarded-host": "runlens.example.com, evil.example",
      origin: "http://evil.example",
    });
  });

  it("keeps reads open from any site", async () => {
    ({ cleanup } = await useTestApp());
    const { id, files } = await victim();
    const headers = { host: HOST, origin: "http://evil.example", "sec-fetch-site": "cross-site" };
    await expectRefused(id, headers);
    expect((await listRuns(new Request(url("/api/runs"), { headers }))).status).toBe(200);
    expect((await getRun(new Request(url(`/api/runs/${id}`), { headers }), idParams(id))).status).toBe(200);
    const file = await download(new Request(url(`/api/runs/${id}/files/${files[0].id}`), { headers }), {
      params: Promise.resolve({ id, fileId: files[0].id }),
    });
    expect(file.status).toBe(200);
  });
});

describe("cross-site writes with a token configured", () => {
  const headers = { origin: "http://evil.example", "sec-fetch-site": "cross-site" };

  it("allows them with the valid token, which is what lets them through", async () => {
    ({ cleanup } = await useTestApp());
    await expectRefused((await victim()).id, headers);
    await cleanup();

    ({ cleanup } = await useTestApp({ RUNLENS_API_TOKEN: TOKEN }));
    const auth = { authorization: `Bearer ${TOKEN}` };
    const created = await upload(uploadRequest([{ name: "profile_export.jsonl", path: VALID }], {}, auth));
    const { id } = await created.json();
    const { up, re, patch, del } = await writeAll(id, { ...headers, ...auth });
    expect([up.status, re.status, patch.status, del.status]).toEqual([201, 200, 200, 204]);
  });

  it("asks for the token (401) when it is missing", async () => {
    ({ cleanup } = await useTestApp({ RUNLENS_API_TOKEN: TOKEN }));
    const { re } = await writeAll("AAAAAAAAAAAAAAAAAAAAAA", headers);
    expect(re.status).toBe(401);
    expect((await re.json()).error.code).toBe("unauthorized");
  });
});
