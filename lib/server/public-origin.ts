import type { AppConfig } from "./config";
import { checkWriteAuth } from "./auth";

/** `host[:port]` as a URL normalises it, or null when the value is not one plain host. */
function plainHost(value: string | null | undefined): string | null {
  const v = value?.split(",")[0]?.trim();
  if (!v || !/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(v)) return null;
  try {
    return new URL(`http://${v}`).host || null;
  } catch {
    return null;
  }
}

/**
 * The origin links in answers point at (the gate's and verdicts' run and compare links;
 * docs/configuration.md `RUNLENS_PUBLIC_URL`): the configured public URL when set; otherwise
 * the address the client asked for, as a proxy passes it on: the first `X-Forwarded-Host`, else
 * `Host`, with the first `X-Forwarded-Proto` (`http` or `https`), else the request's own. Never
 * the server's own listening address when the request said another. A header that is not one
 * plain host is ignored, so nothing but a host reaches a Markdown link.
 */
export function publicOrigin(req: Request, config: Pick<AppConfig, "publicUrl">): string {
  if (config.publicUrl) return config.publicUrl;
  const own = new URL(req.url);
  const host =
    plainHost(req.headers.get("x-forwarded-host")) ?? plainHost(req.headers.get("host")) ?? own.host;
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const scheme = proto === "http" || proto === "https" ? proto : own.protocol.replace(/:$/, "");
  return `${scheme}://${host}`;
}

/**
 * Whether an answer reached from one run's link may name other runs (the baseline runs of its
 * series): always, except in private mode (docs/reliability.md), where only a request carrying
 * the API token may; without a configured token, none.
 */
export function mayNameOtherRuns(req: Request, config: Pick<AppConfig, "privateMode" | "apiToken">): boolean {
  if (!config.privateMode) return true;
  return config.apiToken !== null && checkWriteAuth(req, config) === null;
}
