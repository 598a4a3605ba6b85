/** Runs once when the server starts: open the store (migrations) and load the example runs. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // ICU's number and collation data loaded now, not on the first request that formats a number.
  const { warmIntl } = await import("./lib/format-number");
  warmIntl();
  const { getAppContext } = await import("./lib/server/app-context");
  const { seedExamples } = await import("./lib/examples/seed-examples");
  try {
    const app = await getAppContext();
    const n = await seedExamples(app);
    if (n > 0) console.log(`[runlens] loaded ${n} example runs`);
  } catch (err) {
    console.error("[runlens] start-up failed:", (err as Error).message);
  }
}
