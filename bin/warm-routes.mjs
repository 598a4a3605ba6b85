// A fresh server renders its first run page in seconds: the page's server and client-component
// modules are loaded and their code compiled on that first request (docs/performance.md,
// "Timeline first paint"). Rendering one page of a stored run right after start-up pays that
// before a user's first visit does.

/** Whether the server warms its run page at start: on unless RUNLENS_WARM_UP=off. */
export const warmUpEnabled = (env = process.env) => env.RUNLENS_WARM_UP !== "off";

/**
 * Renders the run page of the newest ready run through the listening server at `baseUrl`, on its
 * Files view (it reads the file list only, so no chart payload or timeline is loaded and kept),
 * then on its Timeline view from the stored first window alone.
 * Resolves with what was rendered, or null when there is no run to render; never throws: a
 * failed warm-up only leaves the first visit as slow as it was.
 */
export async function warmRunPage(baseUrl, { fetchImpl = fetch } = {}) {
  try {
    const list = await fetchImpl(`${baseUrl}/api/runs?limit=1`);
    if (!list.ok) return null;
    const id = (await list.json()).runs?.[0]?.id;
    if (typeof id !== "string") return null;
    const t0 = performance.now();
    const page = await fetchImpl(`${baseUrl}/runs/${encodeURIComponent(id)}?view=files`);
    await page.arrayBuffer();
    // Then its Timeline view, from the first window stored with the run only (the header keeps
    // the page from reading the run's timeline into memory when none is stored): the timeline's
    // own code, on the server and in the page's render, runs once before a visitor's does.
    const timeline = await fetchImpl(`${baseUrl}/runs/${encodeURIComponent(id)}?view=timeline`, {
      headers: { "x-runlens-warm-up": "1" },
    });
    await timeline.arrayBuffer();
    return { id, status: page.status, ms: performance.now() - t0 };
  } catch {
    return null;
  }
}
