import type { ChildProcess } from "node:child_process";

export declare const ROOT: string;
export declare const NEXT_BIN: string;
export declare const SERVER_BIN: string;
export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: string[];
export declare function startNextServer(opts: { port: number; env?: Record<string, string> }): Promise<{
  url: string;
  child: ChildProcess;
  logs: () => string;
  stop(): Promise<void>;
}>;

export function freePort(): Promise<number>;
