// Waiting on a condition in the tests, never for a fixed time: a loaded machine only makes the wait
// longer, and a wait that times out says what it waited for, what it saw last and what the process
// it waited on printed. Plain ESM JavaScript so vitest and plain `node` scripts can both import it.

/** How long a test waits for a condition unless told otherwise: generous, for a loaded machine. */
export const WAIT_MS = 120_000;

/**
 * Polls `probe` every `intervalMs` until it returns something other than undefined, null or false,
 * and resolves with that. Past `timeoutMs` it rejects with an error naming `what` it waited for,
 * the last thing `seen()` describes (or the probe last threw) and, when given, `output()`: what the
 * process it waited on printed.
 */
export async function waitUntil(what, probe, { timeoutMs = WAIT_MS, intervalMs = 50, seen, output } = {}) {
  const deadline = Date.now() + timeoutMs;
  let thrown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== null && v !== false) return v;
      thrown = undefined;
    } catch (err) {
      thrown = err;
    }
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  const last = thrown ? `the probe threw: ${thrown.message ?? thrown}` : seen ? seen() : "";
  throw new Error(
    `waited ${Math.round(timeoutMs / 1000)} s for ${what}` +
      (last ? `; last seen: ${last}` : "") +
      (output ? `\n--- its output:\n${output() || "(nothing)"}` : ""),
  );
}
