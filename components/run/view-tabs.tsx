"use client";

import { useQueryState } from "nuqs";
import { useEffect, useOptimistic, useRef, type KeyboardEvent } from "react";
import { useChartTransition } from "@/components/charts/chart-pending";
import type { RunSummary } from "@/lib/api/schemas";
import { DEFAULT_VIEW, RUN_VIEWS, type RunViewId } from "@/lib/api/run-views";
import { preloadRunView } from "./run-view-components";
import { runSearchParams } from "./search-params";
import { ROW_MARGIN_PX, scrollIntoRow, useScrollEdges } from "./use-scroll-edges";

/** The id of the panel the tabs control, and of each tab (the panel is labelled by its tab). */
export const VIEW_PANEL_ID = "run-view-panel";
export const viewTabId = (id: RunViewId) => `run-view-tab-${id}`;

/**
 * One tab per view; the choice is `?view=` so a copied link opens the same view. A WAI-ARIA
 * tablist: one Tab stop (the selected tab), arrow keys move between tabs and select them, Home
 * and End jump to the ends. On a narrow screen the row scrolls sideways inside itself instead of
 * wrapping into rows that push the view down: a fade and an arrow at an edge say more tabs lie
 * past it, and the selected tab is scrolled into the row.
 */
export function ViewTabs({ run, current: shown }: { run: RunSummary; current: RunViewId }) {
  const [, setView] = useQueryState("view", runSearchParams.view);
  const list = useRef<HTMLDivElement>(null);
  // The tab is selected at once; the view behind it renders as a transition, so a heavy view
  // never holds back the paint that shows the click landed; the old view's charts show it pending.
  const [, startTransition] = useChartTransition();
  const [current, setCurrent] = useOptimistic(shown);
  const edges = useScrollEdges(list);
  useEffect(() => {
    const row = list.current;
    const tab = row?.querySelector<HTMLElement>(`#${viewTabId(current)}`);
    if (row && tab) scrollIntoRow(row, tab);
  }, [current]);
  // Once the page is idle, the code of the open tab's neighbours loads, so a switch to either
  // waits for no download; any other tab's loads when it is pointed at or focused.
  useEffect(() => {
    const at = RUN_VIEWS.findIndex((v) => v.id === current);
    const near = [RUN_VIEWS[at - 1], RUN_VIEWS[at + 1]].filter((v) => v !== undefined && v.hasData(run));
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => near.forEach((v) => preloadRunView(v.id)));
    return () => cancel(handle);
  }, [current, run]);
  const page = (direction: 1 | -1) =>
    list.current?.scrollBy({ left: direction * list.current.clientWidth * 0.6, behavior: "smooth" });
  const select = (id: RunViewId) =>
    startTransition(() => {
      setCurrent(id);
      void setView(id === DEFAULT_VIEW ? null : id);
    });

  // Arrow keys, Home and End move between the views that have something to show.
  const enabled = RUN_VIEWS.filter((v) => v.hasData(run) || v.id === current);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = enabled.findIndex((v) => v.id === current);
    const last = enabled.length - 1;
    const next =
      e.key === "ArrowRight"
        ? (at + 1) % enabled.length
        : e.key === "ArrowLeft"
          ? (at + last) % enabled.length
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    const id = enabled[next].id;
    select(id);
    list.current?.querySelector<HTMLElement>(`#${viewTabId(id)}`)?.focus();
  };

  return (
    <div className="relative -mx-4 sm:mx-0">
      <div
        ref={list}
        role="tablist"
        aria-label="Run views"
        onKeyDown={onKeyDown}
        className="flex gap-1 overflow-x-auto border-b border-border px-4 sm:flex-wrap sm:px-0"
      >
        {RUN_VIEWS.map((v) => {
          const active = v.id === current;
          const has = v.hasData(run);
          return (
            <button
              key={v.id}
              id={viewTabId(v.id)}
              type="button"
              role="tab"
              aria-selected={active}
              aria-controls={VIEW_PANEL_ID}
              aria-disabled={has ? undefined : true}
              tabIndex={active ? 0 : -1}
              data-view={v.id}
              // A view with nothing to show does not open: its tab says what to upload instead.
              onClick={() => (has ? select(v.id) : undefined)}
              onPointerEnter={has ? () => preloadRunView(v.id) : undefined}
              onFocus={has ? () => preloadRunView(v.id) : undefined}
              // Dimmed by colour alone (muted text keeps 4.5:1), never by opacity, which fell to 2.3:1.
              className={`relative -mb-px shrink-0 overflow-clip whitespace-nowrap border-b-2 px-3 py-2 text-sm ${
                active ? "border-accent font-medium" : "border-transparent hover:border-border"
              } ${has ? "" : "cursor-not-allowed text-muted"}`}
              title={has ? undefined : `Nothing to show for this run: ${v.missing}`}
            >
              {v.label}
              {active ? <InitialScrollTarget /> : null}
            </button>
          );
        })}
      </div>
      {edges.left ? <MoreTabs side="left" onClick={() => page(-1)} /> : null}
      {edges.right ? <MoreTabs side="right" onClick={() => page(1)} /> : null}
    </div>
  );
}

/**
 * Where the tab row stands scrolled from its first layout, before the page's scripts have run (and
 * without them): the selected tab's end and the margin after it (app/globals.css, CSS
 * scroll-initial-target), where `scrollIntoRow` puts it once hydrated, so the row does not move
 * then. Clipped by its tab, it adds nothing to the row's scrolling width.
 */
function InitialScrollTarget() {
  return (
    <span
      aria-hidden="true"
      className="tab-scroll-target"
      style={{ right: -ROW_MARGIN_PX, width: ROW_MARGIN_PX }}
    />
  );
}

/**
 * The fade and arrow at an edge of the scrolled tab row. For the pointer and touch only: the
 * keyboard moves through the tabs with the arrow keys, which scroll the row themselves.
 */
function MoreTabs({ side, onClick }: { side: "left" | "right"; onClick: () => void }) {
  return (
    <div
      aria-hidden="true"
      data-more-tabs={side}
      className={`pointer-events-none absolute inset-y-0 flex w-12 items-center ${
        side === "left" ? "left-0 justify-start bg-linear-to-r" : "right-0 justify-end bg-linear-to-l"
      } from-bg via-bg/80 to-transparent sm:hidden`}
    >
      <button
        type="button"
        tabIndex={-1}
        onClick={onClick}
        className="pointer-events-auto px-1.5 py-2 text-lg leading-none text-muted"
      >
        {side === "left" ? "‹" : "›"}
      </button>
    </div>
  );
}
