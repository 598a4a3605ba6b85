/**
 * The CLI against servers that answer what it does not expect, and folders that point out of
 * themselves (reliability probe N11, N12, N16). A fake server in this process records what the
 * CLI (a child process) sends and answers per case.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli";

const RUN_ID = "AAAAAAAAAAAAAAAAAAAAAA";

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}
type Answer = { status: number; type: string; body: string };

const json = (v: unknown, status = 200): Answer => ({
  status,
  type: "application/json",
  body: JSON.stringify(v),
});
const UPLOADED = json(
  {
    id: RUN_ID,
    url: `/runs/${RUN_ID}`,
    status: "ready",
    files: [{ id: "f", name: "a.jsonl", kind: "unknown", records: 0, skipped: 0, warnings: [] }],
    warnings: [],
  },
  201,
);

let seen: Seen[] = [];
let answers: Record<string, Answer> = {};
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString("latin1"),
      });
      const key = Object.keys(answers).find((k) => (req.url ?? "").startsWith(k));
      const a = key ? answers[key] : json({ error: { code: "not_found", message: "nothing" } }, 404);
      res.writeHead(a.status, { "content-type": a.type });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
  answers = {};
});

function folder(files: Record<string, string> = { "a.jsonl": "{}\n" }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-cli-trust-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const GATE = ["--series", "ci/x", "--fail-on", "ttft.p99>5%"];

describe("the CLI gate fails closed", () => {
  it("exits 2 with a message when the upload is answered by an HTML page", async () => {
    answers = { "/api/runs": { status: 200, type: "text/html", body: "<html>login</html>" } };
    const res = await cli(["upload", folder(), "--server", base, ...GATE]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /^runlens: the server's answer is not a Runlens upload answer \(200 text\/html/,
    );
    expect(res.stderr).not.toContain("unexpected error");
  });

  it.each([
    ["without an exit code", { outcome: "fail", reasons: [], markdown: "" }],
    ["with an exit code that is a string", { outcome: "pass", exitCode: "0", reasons: [], markdown: "" }],
    [
      "with an exit code the outcome does not give",
      { outcome: "pass", exitCode: 1, reasons: [], markdown: "" },
    ],
    ["with an unknown outcome", { outcome: "ok", exitCode: 0, reasons: [], markdown: "" }],
    ["without reasons", { outcome: "pass", exitCode: 0, markdown: "" }],
    ["as a list", [0]],
  ])("exits 2 when the verdicts come %s", async (_, verdicts) => {
    answers = { "/api/runs/AAAAAAAAAAAAAAAAAAAAAA/verdicts": json(verdicts), "/api/runs": UPLOADED };
    const res = await cli(["upload", folder(), "--server", base, ...GATE]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /runlens: the server's answer is not a Runlens gate answer \(200 application\/json/,
    );
  });

  it("passes a well-formed answer through", async () => {
    answers = {
      "/api/runs/AAAAAAAAAAAAAAAAAAAAAA/verdicts": json({
        outcome: "fail",
        exitCode: 1,
        reasons: ["ttft.p99 regressed"],
        markdown: "### Runlens: regression\n",
      }),
      "/api/runs": UPLOADED,
    };
    const res = await cli(["upload", folder(), "--server", base, ...GATE]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("### Runlens: regression\n");
  });

  it("exits 1 on an upload answered 200 without a run, printing no link", async () => {
    answers = { "/api/runs": json({ ok: true }) };
    const res = await cli(["upload", folder(), "--server", base]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toMatch(/not a Runlens upload answer .*no run id or URL/);
  });
});

describe("the CLI's token", () => {
  it("is not sent to the host a run URL names", async () => {
    answers = { [`/api/runs/${RUN_ID}/report.html`]: { status: 200, type: "text/html", body: "<p>r</p>" } };
    const out = path.join(folder({}), "r.html");
    const res = await cli(["export", `${base}/runs/${RUN_ID}`, "--report", "-o", out], {
      RUNLENS_API_TOKEN: "CI-SECRET",
    });
    expect(res.code).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0].authorization).toBeUndefined();
    // Nor when the configured server is another one than the URL's.
    const other = await cli(["export", `${base}/runs/${RUN_ID}`, "--report", "-o", `${out}2`], {
      RUNLENS_API_TOKEN: "CI-SECRET",
      RUNLENS_SERVER: "http://127.0.0.1:9",
    });
    expect(other.code).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it("is sent to the configured server", async () => {
    answers = { [`/api/runs/${RUN_ID}/report.html`]: { status: 200, type: "text/html", body: "<p>r</p>" } };
    const out = path.join(folder({}), "r.html");
    const res = await cli(["export", RUN_ID, "--report", "-o", out, "--server", base], {
      RUNLENS_API_TOKEN: "CI-SECRET",
    });
    expect(res.code).toBe(0);
    expect(seen[0].authorization).toBe("Bearer CI-SECRET");
  });
});

describe("the CLI's folder walk", () => {
  it("skips a symbolic link out of the folder with a warning, and follows one inside it", async () => {
    const outside = folder({ "secret.txt": "TOP-SECRET-OUTSIDE\n" });
    const dir = folder({ "a.jsonl": "{}\n" });
    fs.mkdirSync(path.join(dir, "sub"));
    fs.writeFileSync(path.join(dir, "sub", "b.jsonl"), "INSIDE-B\n");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "passwd.txt"));
    fs.symlinkSync(outside, path.join(dir, "out"));
    fs.symlinkSync(path.join(dir, "sub", "b.jsonl"), path.join(dir, "b-link.jsonl"));
    answers = { "/api/runs": UPLOADED };
    const res = await cli(["upload", dir, "--server", base]);
    expect(res.code).toBe(0);
    const body = seen.find((s) => s.url === "/api/runs")!.body;
    expect(body).not.toContain("TOP-SECRET-OUTSIDE");
    expect(body).toContain('filename="b-link.jsonl"');
    expect(body).toContain('filename="sub/b.jsonl"');
    expect(res.stderr).toContain(`runlens: skipped ${path.join(dir, "passwd.txt")}: a symbolic link to`);
    expect(res.stderr).toContain(`runlens: skipped ${path.join(dir, "out")}: a symbolic link to`);
  });

  it("stops at a symbolic link loop with a clear message", async () => {
    const dir = folder();
    fs.mkdirSync(path.join(dir, "sub"));
    fs.symlinkSync("..", path.join(dir, "sub", "up"));
    const res = await cli(["upload", dir, "--server", base]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `runlens: symlink loop: ${path.join(dir, "sub", "up")} leads back to ${fs.realpathSync(dir)}\n`,
    );
    expect(seen).toHaveLength(0);

    // Two links naming each other never resolve.
    const pair = folder();
    fs.symlinkSync(path.join(pair, "b"), path.join(pair, "a"));
    fs.symlinkSync(path.join(pair, "a"), path.join(pair, "b"));
    const res2 = await cli(["upload", pair, "--server", base]);
    expect(res2.code).toBe(1);
    expect(res2.stderr).toBe(`runlens: symlink loop: ${path.join(pair, "a")} never resolves\n`);
    expect(seen).toHaveLength(0);
  });
});
