"use client";

import {
  createContext,
  useContext,
  useLayoutEffect,
  useMemo,
  useTransition,
  type ReactNode,
  type RefObject,
  type TransitionStartFunction,
} from "react";

interface PendingState {
  pending: boolean;
  start: TransitionStartFunction;
}

const PendingContext = createContext<PendingState | null>(null);

/**
 * The scope of a page's controls and charts. A control inside starts its change through
 * `useChartTransition`; until the new charts are drawn every chart inside says it is out of date
 * (dimmed, its title struck, "Updating…", `aria-busy`), so a glance never reads the old chart under
 * the new control. `busy` adds a pending fetch (a table kept on screen while its next one loads).
 *
 * Only the scope and the marks in each chart re-render when the state flips: the children are the
 * same elements, so the plots are not redrawn for it and the pending state paints at once.
 */
export function ChartTransitionScope({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  const [transition, start] = useTransition();
  const pending = transition || busy;
  const value = useMemo(() => ({ pending, start }), [pending, start]);
  return <PendingContext.Provider value={value}>{children}</PendingContext.Provider>;
}

/** The transition a control starts its change in: the scope's when there is one. */
export function useChartTransition(): [boolean, TransitionStartFunction] {
  const [localPending, local] = useTransition();
  const scope = useContext(PendingContext);
  return scope ? [scope.pending, scope.start] : [localPending, local];
}

/** Whether a change of the scope's controls is still being drawn. */
export function useChartsPending(): boolean {
  return useContext(PendingContext)?.pending ?? false;
}

/**
 * Marks one figure out of date while its scope is pending: `aria-busy` and `data-pending` on the
 * figure (globals.css dims the plot and strikes the title) and an "Updating…" note. The figure's
 * attributes are set here rather than by the chart so that the chart itself does not re-render.
 */
export function PendingMark({ figure }: { figure: RefObject<HTMLElement | null> }) {
  const pending = useChartsPending();
  useLayoutEffect(() => {
    const el = figure.current;
    if (!el) return;
    if (pending) {
      el.setAttribute("aria-busy", "true");
      el.setAttribute("data-pending", "");
    } else {
      el.removeAttribute("aria-busy");
      el.removeAttribute("data-pending");
    }
  }, [pending, figure]);
  return pending ? (
    <span className="chart-pending-note text-xs font-medium text-muted" data-testid="chart-pending">
      Updating…
    </span>
  ) : null;
}
