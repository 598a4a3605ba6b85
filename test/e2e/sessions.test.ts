/**
 * The Sessions view in the browser (docs/metrics.md §Agent sessions): a Dynamo request trace of
 * agent sessions with sub-agents and tool calls (test/generators/dynamo-request-trace.mjs, after
 * ai-dynamo/dynamo lib/llm/src/request_trace/types.rs) shows its session tree, collapsible, and a
 * session's turns, cache stop and tool time; the real aiperf 0.8.0 agentic records
 * (real-public/aiperf-0.8.0-sglang-glm5.1-agentic-conc16, when ../shared is there) show their 18
 * root sessions and name the file that lacks cached tokens and tool time; a user-centric aiperf
 * run whose x_correlation_ids aiperf reused (test/generators/aiperf-user-centric.mjs, after
 * ai-dynamo/aiperf src/aiperf/timing/strategies/user_centric_rate.py) shows one session per
 * conversation and says which id grouped them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { aiperfUserCentric } from "../generators/aiperf-user-centric.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { realPublicDir, realPublicFile } from "../helpers/real-public";
import { apiUpload, forEachLook, lookPages, shot, useAppAndBrowser } from "./harness";
const AGENTIC = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";

describe("sessions view", () => {
  const t = useAppAndBrowser();
  // A page that only reads is loaded once and looked at in every look (light and dark, 1440 and
  // 390 px); the first test clicks through its page, in a fresh load per look.
  const looks = lookPages(() => t.browser);
  afterAll(() => looks.close());

  it("draws the session tree, collapses a root's sub-agents, and opens a sub-agent's turns", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-sessions-"));
    const trace = dynamoRequestTrace({ requests: 30, turns: 5, subagentEvery: 3, seed: 11 });
    fs.writeFileSync(path.join(dir, "dynamo-request-trace.jsonl"), trace.text);
    const run = await apiUpload(t.app.url, [{ path: path.join(dir, "dynamo-request-trace.jsonl") }], {
      name: "e2e agent sessions",
    });
    fs.rmSync(dir, { recursive: true, force: true });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated rows
    const ends = (trace.rows as any[]).filter((r) => r.event_type === "request_end");
    const sessions = [...new Set(ends.map((r) => r.agent_context.session_id as string))];
    const child = ends.find((r) => r.agent_context.parent_session_id)!.agent_context;

    await forEachLook(
      t.browser,
      `${t.app.url}/runs/${run.id}?view=sessions`,
      async (page, { width, scheme }) => {
        const tree = page.getByTestId("session-tree");
        await tree.waitFor({ timeout: 30_000 });
        expect(await page.getByTestId("session-node").count()).toBe(sessions.length);
        const facts = (await page.getByTestId("sessions-facts").textContent()) ?? "";
        expect(facts).toContain(`${sessions.length} (`);
        expect(facts).toContain("sub-agent");
        expect(await page.getByTestId("sessions-ids").textContent()).toBe(
          "Sessions: grouped by the trace's agent_context.session_id.",
        );
        const parentNode = page.locator(
          `[data-testid=session-node][data-session="${child.parent_session_id}"]`,
        );
        const toggle = parentNode.locator(":scope > div button[aria-expanded]");
        const childNode = page.locator(`[data-testid=session-node][data-session="${child.session_id}"]`);
        if (width === 1440 && scheme === "light") {
          // Collapse and expand a root's sub-agents by keyboard.
          expect(await toggle.getAttribute("aria-expanded")).toBe("true");
          await toggle.focus();
          await page.keyboard.press("Enter");
          await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
          expect(await childNode.count()).toBe(0);
          await page.keyboard.press("Enter");
          await expect.poll(() => childNode.count()).toBe(1);
        }
        await childNode.locator("button[aria-pressed]").first().click();
        await page.waitForURL((u) => u.searchParams.get("session") === child.session_id);
        const detail = page.getByTestId("session-detail");
        await expect.poll(async () => (await detail.textContent()) ?? "").toContain(child.session_id);
        const detailText = (await page.getByTestId("session-detail-facts").textContent()) ?? "";
        expect(detailText).toMatch(/tool time.*in \d+ calls?/);
        expect(detailText).toContain("cache stopped");
        expect(await detail.textContent()).toContain(`Spawned by`);
        await detail.locator("figure[data-chart]").first().waitFor({ timeout: 30_000 });
        await shot(page, `sessions-dynamo-${width}-${scheme}.png`);
      },
    );
  });

  it.skipIf(realPublicDir(AGENTIC) === null)(
    "real aiperf 0.8.0 agentic records: 18 root sessions; the records file lacks cached tokens and tool time",
    async () => {
      const run = await apiUpload(t.app.url, [{ path: realPublicFile(AGENTIC, "profile_export.jsonl") }], {
        name: "e2e aiperf agentic sessions",
      });
      await looks.forEachLook(
        `${t.app.url}/runs/${run.id}?view=sessions`,
        async (page, { width, scheme }) => {
          await page.getByTestId("session-tree").waitFor({ timeout: 30_000 });
          expect(await page.getByTestId("session-node").count()).toBe(18);
          expect(await page.getByTestId("sessions-ids").textContent()).toBe(
            "Sessions: grouped by aiperf's x_correlation_id (conversation_id where a record has none).",
          );
          expect(await page.getByTestId("sessions-absent-cached").textContent()).toContain(
            "profile_export.jsonl carries no usage_prompt_cache_read_tokens",
          );
          expect(await page.getByTestId("sessions-absent-tools").textContent()).toContain(
            "profile_export.jsonl records only model requests",
          );
          await page.getByTestId("session-detail").locator("figure[data-chart]").first().waitFor();
          await shot(page, `sessions-aiperf-${width}-${scheme}.png`);
        },
      );
    },
  );

  it("a user-centric run that reused its x_correlation_ids: one session per conversation, and the note says why", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-sessions-uc-"));
    const { text } = aiperfUserCentric({ users: 3, turns: 3, phases: 2 });
    fs.writeFileSync(path.join(dir, "profile_export.jsonl"), text);
    const run = await apiUpload(t.app.url, [{ path: path.join(dir, "profile_export.jsonl") }], {
      name: "e2e user-centric sessions",
    });
    fs.rmSync(dir, { recursive: true, force: true });
    await looks.forEachLook(`${t.app.url}/runs/${run.id}?view=sessions`, async (page, { width, scheme }) => {
      await page.getByTestId("session-tree").waitFor({ timeout: 30_000 });
      // Users 2, 3 and 4 of two phases: six conversations, six sessions.
      expect(await page.getByTestId("session-node").count()).toBe(6);
      expect(await page.locator("[data-testid=session-node][data-session='4/conv-3']").count()).toBe(1);
      const note = (await page.getByTestId("sessions-ids").textContent()) ?? "";
      expect(note).toContain("3 x_correlation_ids span several conversations with a turn index repeated");
      expect(note).toContain("(aiperf reused the id: 2, 3, 4)");
      expect(note).toContain("grouped by conversation_id instead");
      await page.getByTestId("session-detail").locator("figure[data-chart]").first().waitFor();
      await shot(page, `sessions-user-centric-${width}-${scheme}.png`);
    });
  });
});
