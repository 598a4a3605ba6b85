import { randomBytes } from "node:crypto";
import { runIdSchema } from "@/lib/api/schemas";

/** Run ids are 128 random bits (base64url, 22 characters): unguessable, so a link is the only way in. */
export function newRunId(): string {
  return randomBytes(16).toString("base64url");
}

export function newFileId(): string {
  return randomBytes(12).toString("base64url");
}

export function isValidId(id: string): boolean {
  return runIdSchema.safeParse(id).success;
}
