import { createHash, timingSafeEqual } from "node:crypto";
import type { AppConfig } from "./config";
import { jsonError } from "./http";

/**
 * Write routes need `Authorization: Bearer <RUNLENS_API_TOKEN>` when the token is set. Both
 * sides are hashed first so the comparison is constant-time whatever the lengths.
 */
export function checkWriteAuth(req: Request, config: AppConfig): Response | null {
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
