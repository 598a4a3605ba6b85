#!/usr/bin/env node
// Screenshots of what a user sees after uploading each real producer folder
// (../shared/fixtures/real-public/, read in place): every folder is uploaded whole, as a dragged
// folder sends it, and the default view of every run it made is photographed, light and dark, at
// 1440 px (and the sweep page where the upload made one).
//
//   npm run build && node test/screenshots/real-public.mjs [output folder, default screenshots/real-public]
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers/next-server.mjs";
import { withAppAndBrowser } from "./shoot-session.mjs";

const REAL = path.resolve(
  process.env.RUNLENS_REAL_PUBLIC ?? path.join(ROOT, "../shared/fixtures/real-public"),
);
const out = path.resolve(process.argv[2] ?? "screenshots/real-public");

/** Every file of a folder as upload parts named by their path in it (PROVENANCE.md left out). */
function parts(root) {
  const files = [];
  const walk = (dir) => {
    for (const e of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name !== "PROVENANCE.md") files.push({ name: path.relative(root, p), path: p });
    }
  };
  walk(root);
  return files;
}

async function upload(url, folder) {
  const form = new FormData();
  for (const f of parts(path.join(REAL, folder)))
    form.append("file", new Blob([fs.readFileSync(f.path)]), f.name);
  const res = await fetch(`${url}/api/runs`, {
    method: "POST",
    body: form,
    headers: { "sec-fetch-site": "same-origin" },
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`${folder}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function main() {
  if (!fs.existsSync(REAL)) {
    console.log(`skipped: ${REAL} is absent`);
    return;
  }
  fs.mkdirSync(out, { recursive: true });
  const written = await withAppAndBrowser(
    { prefix: "runlens-real-public-shots-", examples: false },
    async (server, browser) => {
      let written = 0;
      const targets = [];
      for (const folder of fs
        .readdirSync(REAL)
        .filter((f) => fs.statSync(path.join(REAL, f)).isDirectory())
        .sort()) {
        const body = await upload(server.url, folder);
        const runs = body.runs ?? [{ id: body.id }];
        runs.forEach((r, i) =>
          targets.push({
            name: `${folder}${runs.length > 1 ? `-run${i + 1}` : ""}`,
            url: `${server.url}/runs/${r.id}`,
          }),
        );
        if (body.sweep)
          targets.push({ name: `${folder}-sweep`, url: `${server.url}/sweeps/${body.sweep.id}` });
      }
      for (const scheme of ["light", "dark"]) {
        const context = await browser.newContext({
          viewport: { width: 1440, height: 900 },
          colorScheme: scheme,
        });
        const page = await context.newPage();
        for (const t of targets) {
          await page.goto(t.url);
          await page.waitForLoadState("networkidle");
          await page.waitForTimeout(500);
          await page.screenshot({ path: path.join(out, `${t.name}-${scheme}.png`), fullPage: true });
          written++;
        }
        await context.close();
      }
      return written;
    },
  );
  console.log(`${written} screenshots written to ${out}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
