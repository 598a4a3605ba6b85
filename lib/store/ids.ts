import { randomBytes } from "node:crypto";

/** Run ids are 128 random bits (base64url, 22 characters): unguessable, so a link is the only way in. */
export function newRunId(): string {
  return randomBytes(16).toString("base64url");
}

export function newFileId(): string {
  return randomBytes(12).toString("base64url");
}

/** Ids we hand out are base64url; anything else is rejected before it reaches a query. */
export function isValidId(id: string): boolean {
  return /^[A-Za-z0-9_-]{8,64}$/.test(id);
}
