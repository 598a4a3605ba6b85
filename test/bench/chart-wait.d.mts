import type { Page } from "playwright-core";

export function installWaiter(): void;

export type WaitSpec =
  { tab: { panel: string; labelledBy?: string } } | { toggle: { panel: string; group: string } };

export function timedClick(
  page: Page,
  selector: string,
  spec: WaitSpec,
): Promise<{ ms: number | null; pendingMs: number | null; by: "server" | "recharts" | null }>;
