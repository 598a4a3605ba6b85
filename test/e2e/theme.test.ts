import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useAppAndBrowser } from "./harness";

/** The theme and `color-scheme` of <html>, and the theme it had when <body> was first parsed. */
const themeState = (page: Page) =>
  page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    colorScheme: getComputedStyle(document.documentElement).colorScheme,
    background: getComputedStyle(document.body).backgroundColor,
    atFirstBody: (window as { __themeAtFirstBody?: string }).__themeAtFirstBody,
    stored: localStorage.getItem("runlens-theme"),
  }));

// Records the theme at the moment <body> first exists, before any paint of it: had the page
// rendered light and switched later, this would read "light" on a dark choice.
const RECORD_THEME_AT_BODY = `new MutationObserver((_, o) => {
  if (document.body) { window.__themeAtFirstBody = document.documentElement.dataset.theme; o.disconnect(); }
}).observe(document, { childList: true, subtree: true });`;

const DARK_BG = "rgb(11, 17, 32)";
const LIGHT_BG = "rgb(248, 250, 252)";

describe("theme toggle", () => {
  const t = useAppAndBrowser();

  it("remembers light or dark across a reload, with no flash, and sets color-scheme", async () => {
    const context = await t.browser.newContext({ colorScheme: "light" });
    await context.addInitScript(RECORD_THEME_AT_BODY);
    const page = await context.newPage();
    await page.goto(t.app.url);
    expect(await themeState(page)).toMatchObject({
      theme: "light",
      colorScheme: "light",
      background: LIGHT_BG,
    });

    await page.getByLabel("Theme").selectOption("dark");
    expect(await themeState(page)).toMatchObject({
      theme: "dark",
      colorScheme: "dark",
      background: DARK_BG,
      stored: "dark",
    });

    await page.reload();
    expect(await themeState(page)).toMatchObject({
      theme: "dark",
      colorScheme: "dark",
      background: DARK_BG,
      atFirstBody: "dark",
    });
    // The select reads the stored choice once the page has hydrated.
    await expect.poll(() => page.getByLabel("Theme").inputValue()).toBe("dark");
    await page.close();
    await context.close();
  });

  it("follows the system preference, live, when the choice is System", async () => {
    const context = await t.browser.newContext({ colorScheme: "dark" });
    await context.addInitScript(RECORD_THEME_AT_BODY);
    const page = await context.newPage();
    await page.goto(t.app.url);
    expect(await themeState(page)).toMatchObject({ theme: "dark", colorScheme: "dark", atFirstBody: "dark" });

    await page.getByLabel("Theme").selectOption("light");
    expect(await themeState(page)).toMatchObject({ theme: "light", stored: "light" });
    await page.getByLabel("Theme").selectOption("system");
    expect(await themeState(page)).toMatchObject({ theme: "dark", stored: null });

    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(async () => (await themeState(page)).theme).toBe("light");
    expect((await themeState(page)).colorScheme).toBe("light");
    await page.close();
    await context.close();
  });
});
