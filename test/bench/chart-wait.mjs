// The page bench's wait for a chart after a click (test/bench/pages.mjs), installed in the page
// before its scripts (addInitScript): a plain function with nothing from outside it.
//
// A click must be answered by a chart the click brought, never by one already on the page:
//   - a tab switch waits for a chart of the tab's own view, an element that was not on the page
//     before the click (the Overview's chart stays in the panel until the new view replaces it);
//   - a toggle waits for the figure the toggle row belongs to (the figure that contains the row,
//     when the row sits in a figure's caption; else the first figure after it in the panel) to
//     show another chart than before the click: another title, other marks or ticks.
// A chart inside a figure marked pending (`data-pending`, the old chart under the new control) is
// not the new one.

/**
 * Defines in the page:
 *   - `__runlensMark()`: remembers every chart now on the page as old, before a click;
 *   - `__runlensToggleSignature(panel, group)`: the signature of the chart that `group` (a toggle
 *     row's aria-label) changes, before a click;
 *   - `__runlensWait(spec)`: resolves with `{ frameMs, pendingMs, by }`: the frame (page clock)
 *     that paints the awaited chart, when a pending mark first showed, who drew it ("server" or
 *     "recharts"); frameMs null after `timeoutMs` (10 s).
 *     spec `{ tab: { panel, labelledBy } }`: a chart in `panel` (a Recharts surface, a canvas or
 *     the server's drawing), shown, the panel labelled by `labelledBy` (the new view's tab), not
 *     marked old;
 *     spec `{ toggle: { panel, group, before } }`: the figure of the toggle row `group` (the one
 *     containing it, else the first after it) whose signature is no longer `before`.
 */
export function installWaiter() {
  const DRAWN = ":is(.recharts-wrapper > svg.recharts-surface, canvas, svg[data-first-figure])";
  const old = new WeakSet();
  const hash = (s) => {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
    return `${s.length}:${(h >>> 0).toString(16)}`;
  };
  const by = (el) => (el?.matches("svg[data-first-figure]") ? "server" : el ? "recharts" : null);
  /**
   * The figure the toggle row labelled `group` in `panel` changes: the figure that contains the
   * row (a toggle in a figure's caption, as the Breakdown's statistic), else the first figure
   * after it in the panel.
   */
  const toggledFigure = (panel, group) => {
    const root = document.querySelector(panel);
    const row = root?.querySelector(`[role="group"][aria-label="${group}"]`);
    if (!row) return null;
    const own = row.closest("figure[data-chart]");
    if (own && root.contains(own)) return own;
    for (const fig of root.querySelectorAll("figure[data-chart]"))
      if (row.compareDocumentPosition(fig) & Node.DOCUMENT_POSITION_FOLLOWING) return fig;
    return null;
  };
  /** What a figure shows: its chart's name and title, and its drawing (marks and tick texts). */
  const signature = (fig) => {
    if (!fig) return null;
    const drawn = fig.querySelector(DRAWN);
    const title = fig.querySelector("h3")?.textContent ?? "";
    if (fig.hasAttribute("data-chart-empty"))
      return `empty|${fig.dataset.chart}|${title}|${hash(fig.textContent ?? "")}`;
    return drawn ? `${fig.dataset.chart}|${title}|${hash(drawn.outerHTML)}` : null;
  };
  window.__runlensMark = () => {
    for (const el of document.querySelectorAll(DRAWN)) old.add(el);
  };
  window.__runlensToggleSignature = (panel, group) => signature(toggledFigure(panel, group));
  window.__runlensWait = (spec, timeoutMs = 10_000) =>
    new Promise((resolve) => {
      const out = { pendingMs: null };
      const found = () => {
        if (spec.tab) {
          const { panel, labelledBy } = spec.tab;
          const root = document.querySelector(panel);
          if (!root || (labelledBy && root.getAttribute("aria-labelledby") !== labelledBy)) return null;
          for (const el of root.querySelectorAll(DRAWN))
            if (!old.has(el) && !el.closest("[data-pending], [hidden]") && el.getClientRects().length > 0)
              return el;
          return null;
        }
        const { panel, group, before } = spec.toggle;
        const fig = toggledFigure(panel, group);
        if (!fig || fig.closest("[data-pending]")) return null;
        const now = signature(fig);
        if (now === null || now === before) return null;
        return fig.querySelector(DRAWN) ?? fig;
      };
      const check = () => {
        if (out.pendingMs === null && document.querySelector("[data-pending], figure[aria-busy=true]"))
          out.pendingMs = performance.now();
        const el = found();
        if (!el) return false;
        observer.disconnect();
        clearTimeout(timer);
        requestAnimationFrame((frameMs) =>
          resolve({ ...out, frameMs, by: el.matches(DRAWN) ? by(el) : null }),
        );
        return true;
      };
      const observer = new MutationObserver(check);
      const timer = setTimeout(() => {
        observer.disconnect();
        resolve({ ...out, frameMs: null, by: null });
      }, timeoutMs);
      observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
      check();
    });
}

/**
 * Click `selector`; ms from the click to the frame that paints the chart it brings (not pending):
 * `spec.tab`, a chart of the new view that was not on the page before the click; `spec.toggle`, the
 * chart of the toggle row (its own figure, else the one below it) showing something else than
 * before the click.
 */
export async function timedClick(page, selector, spec) {
  if (spec.tab) await page.evaluate(() => window.__runlensMark());
  const before = spec.toggle
    ? await page.evaluate(
        ([p, g]) => window.__runlensToggleSignature(p, g),
        [spec.toggle.panel, spec.toggle.group],
      )
    : null;
  const full = spec.toggle ? { toggle: { ...spec.toggle, before } } : spec;
  const wait = page.evaluate((s) => window.__runlensWait(s), full);
  const t = await page.evaluate((sel) => {
    const t0 = performance.now();
    document.querySelector(sel).click();
    return t0;
  }, selector);
  const r = await wait;
  return {
    ms: r.frameMs === null ? null : r.frameMs - t,
    pendingMs: r.pendingMs === null ? null : Math.max(0, r.pendingMs - t),
    by: r.by,
  };
}
