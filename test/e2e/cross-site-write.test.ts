/**
 * A page of another site cannot write to a server without a token: in a real browser, its
 * background `no-cors` upload and re-ingest (which need no preflight, so the browser sends them)
 * are refused, while the app's own pages keep writing.
 */
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiUpload, useAppAndBrowser } from "./harness";

const RECORDS = path.resolve(__dirname, "../fixtures/bad/files/valid-aiperf.jsonl");

/** The other site's page: fires both writes at the app, then says it is done. */
function otherSitePage(target: string, victim: string): string {
  const script = `
    (async () => {
      const target = ${JSON.stringify(target)};
      const form = new FormData();
      form.append("name", "planted-by-another-site");
      form.append("file", new Blob([${JSON.stringify(fs.readFileSync(RECORDS, "utf8"))}]), "profile_export.jsonl");
      const sent = [];
      for (const [path, body] of [["/api/runs", form], ["/api/runs/${victim}/reingest", undefined]]) {
        try { await fetch(target + path, { method: "POST", mode: "no-cors", body }); sent.push("sent"); }
        catch (e) { sent.push(String(e)); }
      }
      document.title = "done " + sent.join(" ");
    })();`;
  return `<!doctype html><html><body><script>${script}</script></body></html>`;
}

async function runOf(url: string, id: string): Promise<{ ingestedAt?: number; name: string }> {
  const res = await fetch(`${url}/api/runs/${id}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function runNames(url: string): Promise<string[]> {
  const { runs } = (await (await fetch(`${url}/api/runs`)).json()) as { runs: Array<{ name: string }> };
  return runs.map((r) => r.name).sort();
}

describe("writes from another site's page", () => {
  const t = useAppAndBrowser();
  let other: http.Server;
  let otherPort = 0;
  let page = "";

  beforeAll(async () => {
    other = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(page);
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherPort = (other.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => other?.close(resolve));
  });

  it.each([
    ["a cross-site page (another host)", "localhost"],
    ["a same-site page on another port", "127.0.0.1"],
  ])("are refused from %s: no run is created, the victim is not re-ingested", async (_label, host) => {
    const victim = await apiUpload(t.app.url, [{ path: RECORDS }], { name: `victim-${host}` });
    const before = await runOf(t.app.url, victim.id);
    const namesBefore = await runNames(t.app.url);
    page = otherSitePage(t.app.url, victim.id);

    const tab = await t.browser.newPage();
    const statuses: number[] = [];
    tab.on("response", (res) => {
      if (res.url().startsWith(t.app.url)) statuses.push(res.status());
    });
    await tab.goto(`http://${host}:${otherPort}/`);
    await tab.waitForFunction(() => document.title.startsWith("done"), null, { timeout: 30_000 });
    // Both requests left the browser (an opaque answer, not a network error).
    expect(await tab.title()).toBe("done sent sent");
    await tab.close();

    expect(await runNames(t.app.url)).toEqual(namesBefore);
    expect((await runOf(t.app.url, victim.id)).ingestedAt).toBe(before.ingestedAt);
    expect(statuses).toEqual([403, 403]);
  });

  it("still come from the app's own pages", async () => {
    const victim = await apiUpload(t.app.url, [{ path: RECORDS }], { name: "own-page-victim" });
    const before = await runOf(t.app.url, victim.id);
    const tab = await t.browser.newPage();
    await tab.goto(`${t.app.url}/`);
    const [uploaded, reingested] = await tab.evaluate(
      async ([id, records]) => {
        const form = new FormData();
        form.append("name", "uploaded-from-own-page");
        form.append("file", new Blob([records]), "profile_export.jsonl");
        const up = await fetch("/api/runs", { method: "POST", body: form });
        const re = await fetch(`/api/runs/${id}/reingest`, { method: "POST" });
        return [up.status, re.status];
      },
      [victim.id, fs.readFileSync(RECORDS, "utf8")] as const,
    );
    await tab.close();
    expect([uploaded, reingested]).toEqual([201, 200]);
    expect(await runNames(t.app.url)).toContain("uploaded-from-own-page");
    expect((await runOf(t.app.url, victim.id)).ingestedAt).toBeGreaterThan(before.ingestedAt ?? 0);
  });
});
