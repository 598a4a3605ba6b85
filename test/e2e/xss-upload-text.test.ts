/**
 * Text that comes from uploads (run name, labels, file names, endpoint URLs, record error
 * messages, skipped-line warnings) is rendered as text: markup in it never runs. Also checks the
 * security headers on real responses of the production server.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useAppAndBrowser } from "./harness";

const FIX = path.resolve(__dirname, "../fixtures");
const PAYLOAD = (n: number) => `<img src=x onerror="window.__xss=(window.__xss||0)+${n};alert(${n})">`;
const SCRIPT = "<script>window.__xss=99;alert(99)</script>";

async function uploadHostile(url: string): Promise<string> {
  const form = new FormData();
  const records = fs.readFileSync(path.join(FIX, "bad/files/wrong-types-aiperf.jsonl"));
  form.append("file", new Blob([records]), `${PAYLOAD(1)}profile_export.jsonl`);
  const metrics = fs
    .readFileSync(path.join(FIX, "aiperf/doc-vllm__server_metrics_export.jsonl"), "utf8")
    .replaceAll("http://localhost:8000/metrics", `http://h:1/${PAYLOAD(2)}`);
  form.append("file", new Blob([metrics]), `server_metrics_export.jsonl`);
  form.append(
    "file",
    new Blob([fs.readFileSync(path.join(FIX, "bad/files/every-other-line-broken.jsonl"))]),
    SCRIPT,
  );
  form.append("name", `${PAYLOAD(3)}${SCRIPT}`);
  form.append("labels", `${PAYLOAD(4)},${SCRIPT}`);
  const res = await fetch(`${url}/api/runs`, { method: "POST", body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
}

describe("upload text is rendered as text", () => {
  const t = useAppAndBrowser();

  it("runs no script from names, labels, file names, endpoints or warnings", async () => {
    const id = await uploadHostile(t.app.url);
    const page = await t.browser.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const pages = [
      "/",
      `/runs/${id}`,
      ...["overview", "files", "endpoints", "cache", "kv", "latency"].map((v) => `/runs/${id}?view=${v}`),
    ];
    for (const p of pages) {
      await visit(page, `${t.app.url}${p}`);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss ?? 0), p).toBe(0);
      expect(await page.locator('img[src="x"]').count(), p).toBe(0);
    }
    // The payload is there, as visible text.
    await visit(page, `${t.app.url}/runs/${id}?view=files`);
    const body = await page.locator("body").innerText();
    expect(body).toContain("<img src=x onerror=");
    expect(dialogs).toEqual([]);
  });

  it("sends the security headers on pages and API responses", async () => {
    for (const p of ["/", "/api/health", "/api/runs"]) {
      const res = await fetch(`${t.app.url}${p}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(csp, p).not.toContain("unsafe-eval");
      expect(res.headers.get("x-content-type-options"), p).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), p).toBe("no-referrer");
      expect(res.headers.get("x-powered-by"), p).toBeNull();
    }
  });
});
