import type http from "node:http";

export declare const ALLOWED_METHODS: string[];
export declare function serverOptions(env?: Record<string, string | undefined>): {
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
};
export declare function rawErrorResponse(
  status: number,
  reason: string,
  code: string,
  message: string,
  headers?: Record<string, string | number>,
): string;
export declare function refuseUnknownMethods(handle: http.RequestListener): http.RequestListener;
export declare function createAppServer(
  handle: http.RequestListener,
  env?: Record<string, string | undefined>,
): http.Server;
export declare function serve(opts: { dir: string; port: number; hostname?: string }): Promise<http.Server>;
