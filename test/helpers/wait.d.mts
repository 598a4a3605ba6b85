export declare const WAIT_MS: number;
export declare function waitUntil<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  opts?: { timeoutMs?: number; intervalMs?: number; seen?: () => string; output?: () => string },
): Promise<T>;
