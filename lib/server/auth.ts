import { createHash, timingSafeEqual } from "node:crypto";
import type { AppConfig } from "./config";
import { jsonError } from "./http";

/**
 * Write routes need `Authorization: Bearer <RUNLENS_API_TOKEN>` when the token is set. Both
 * sides are hashed first so the comparison is constant-time whatever the lengths.
 */
export function checkWriteAuth(req: Request, config: Pick<AppConfig, "apiToken">): Response | null {
  if (!config.apiToken) return null;
  const header = req.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const given = createHash("sha256")
    .update(match?.[1] ?? "")
    .digest();
  const expected = createHash("sha256").update(config.apiToken).digest();
  if (match && timingSafeEqual(given, expected)) return null;
  return jsonError(
    401,
    "unauthorized",
    "this server requires an API token: send Authorization: Bearer <token>",
  );
}

/**
 * Without a token, a page of another site could still write here: a `no-cors` form POST needs
 * no preflight, so the browser sends it and only hides the answer. Browsers say where a request
 * comes from and a page cannot forge either header, so a write is refused when:
 * - `Sec-Fetch-Site` is present and not `same-origin` (or `none`, the user's own action). The
 *   browser judged it against the address it actually requested, so this holds behind any proxy;
 * - otherwise (older browsers), `Origin` is present and its host and port are none of `Host`,
 *   `X-Forwarded-Host` and the request URL's. Another site's page can set none of them; a proxy
 *   that rewrites `Host` should pass the original in `X-Forwarded-Host`. The scheme is not
 *   compared: a proxy that terminates TLS does not always say so, and one host and port speak
 *   one scheme.
 * Requests without either header (curl, the CLI, any non-browser client) are not a browser
 * acting on someone's behalf, and stay allowed.
 */
export function checkCrossSiteWrite(req: Request): Response | null {
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  const allowed =
    site !== null
      ? site === "same-origin" || site === "none"
      : origin === null || ownHosts(req).includes(hostOf(origin) ?? "");
  if (allowed) return null;
  return jsonError(
    403,
    "cross_site_write",
    "writes from another site's page are refused; to write from elsewhere, set RUNLENS_API_TOKEN " +
      "on the server and send Authorization: Bearer <token>",
  );
}

/** `host[:port]` as URL parsing normalises it (lower case, default port dropped); null for `Origin: null`. */
function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host || null;
  } catch {
    return null;
  }
}

function ownHosts(req: Request): string[] {
  const forwarded = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return [forwarded, req.headers.get("host")]
    .filter((h): h is string => !!h)
    .map((h) => hostOf(`http://${h}`))
    .concat(new URL(req.url).host)
    .filter((h): h is string => !!h);
}
