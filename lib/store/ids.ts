import { randomBytes } from "node:crypto";
import { runIdSchema } from "@/lib/api/schemas";

/**
 * A random base64url id of `bytes` bytes that never begins with "-": an id is typed after a
 * command (`runlens export <id>`), where a leading dash reads as an option. A first character
 * of "-" is drawn again, which costs 1/64 of one character's six bits.
 */
function randomId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString("base64url");
    if (id[0] !== "-") return id;
  }
}

/** Run ids are 128 random bits (base64url, 22 characters): unguessable, so a link is the only way in. */
export function newRunId(): string {
  return randomId(16);
}

export function newFileId(): string {
  return randomId(12);
}

export function isValidId(id: string): boolean {
  return runIdSchema.safeParse(id).success;
}
