/**
 * The browser tests' global set-up: one headless Chromium for every file, each file connecting to
 * it (harness.ts, launchBrowser) instead of launching its own, seconds each on a loaded machine.
 * Files stay apart: every page a test opens is in a browser context of its own (cookies, storage
 * and cache are per context), and a file's connection closes its contexts when it ends.
 */
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/next-server.mjs";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    browserWsEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  project.provide("browserWsEndpoint", server.wsEndpoint());
  return () => server.close();
}
