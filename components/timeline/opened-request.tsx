"use client";

import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import type { Column } from "@/components/charts/data-table";
import { useRequestLink, type RequestLink } from "@/components/run/use-request-link";
import { formatFixed } from "@/lib/format-number";

/**
 * The request a slowest-requests table opened: the URL's `rid` or `req` (components/run/
 * use-request-link.ts, shared with the timeline and the other views that open a request, so Back
 * closes it), when `isListed` says it is one of this table's rows; another view's request, or a
 * row of another metric's list, opens nothing here.
 */
export interface OpenedRequest {
  opened: number | null;
  /** Opens `rid` (by `ownId` in the URL when it has one), or closes it when it is the one open. */
  toggle: (rid: number, ownId: string | null) => void;
  close: () => void;
  detail: RefObject<HTMLDivElement | null>;
  /** The URL's request link, for its notice when its id names no request */
  link: RequestLink;
}

/**
 * The element of an opened request's detail: scrolled into view (its `block` edge) and focused
 * when `opened` changes to a request, so the click visibly does something (and a keyboard user
 * lands on it).
 */
export function useRevealOnOpen(opened: number | null, block: ScrollLogicalPosition = "nearest") {
  const detail = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = detail.current;
    if (opened === null || !el) return;
    const scroll = () => el.scrollIntoView({ block, behavior: "smooth" });
    scroll();
    el.focus({ preventScroll: true });
    // The detail's content arrives after the click: while it is a loading line the page may end too
    // soon below it to bring its top up, so it is scrolled to again as it grows, until the reader
    // scrolls or types themselves.
    let height = el.offsetHeight;
    const grown = new ResizeObserver(() => {
      if (el.offsetHeight <= height) return;
      height = el.offsetHeight;
      scroll();
    });
    grown.observe(el);
    const stop = () => grown.disconnect();
    const input = ["wheel", "touchmove", "keydown"] as const;
    for (const e of input) window.addEventListener(e, stop, { once: true, passive: true });
    return () => {
      stop();
      for (const e of input) window.removeEventListener(e, stop);
    };
  }, [opened, block]);
  return detail;
}

export function useOpenedRequest(runId: string, isListed: (rid: number) => boolean): OpenedRequest {
  const link = useRequestLink(runId);
  const req = link.position;
  const opened = req !== null && isListed(req) ? req : null;
  // The detail sits below the table.
  const detail = useRevealOnOpen(opened);
  return {
    opened,
    toggle: (rid, ownId) => (rid === opened ? link.close() : link.open(rid, ownId)),
    close: link.close,
    detail,
    link,
  };
}

/**
 * A phone shows the id's first characters (the whole id is its title, the button's name and the
 * detail's first line), so the latencies are on screen beside it.
 */
export const REQUEST_ID_CLASS = "block max-w-[10ch] truncate sm:max-w-none";

/** A row's request ID as the button that opens the request's detail below the table. */
export function RequestIdButton({
  state,
  rid,
  ownId,
  name,
  title,
  whole = false,
  onOpen,
  children,
}: {
  state: OpenedRequest;
  rid: number;
  /** The request's own id, which its link opens it by (`?rid=`); null: it has none, and its link keeps its position (`req`) */
  ownId: string | null;
  /** The request as the button's accessible name says it ("Open request <name> in detail") */
  name: string;
  title?: string;
  /** Show the whole name at every width (a short name that must not lose its number), not cut at 10ch on phones */
  whole?: boolean;
  /** Before the toggle (a prefetch of the detail) */
  onOpen?: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`${whole ? "block" : REQUEST_ID_CLASS} text-left text-accent underline decoration-dotted underline-offset-2 hover:decoration-solid aria-expanded:font-semibold aria-expanded:decoration-solid`}
      aria-expanded={state.opened === rid}
      aria-label={`Open request ${name} in detail`}
      title={title}
      data-rid={rid}
      onClick={() => {
        onOpen?.();
        state.toggle(rid, ownId);
      }}
    >
      {children}
    </button>
  );
}

/** The request's start, seconds from the run's first, at one precision for the column. */
export function startColumn<R extends { startS: number | null }>(): Column<R> {
  return {
    header: "start",
    num: true,
    // A request that started 0.4 ms in reads 0.000 s, not 0.000398 s.
    cell: (r) => (r.startS === null ? "—" : `${formatFixed(r.startS, 3)} s`),
  };
}

/** The opened request's detail, below the table; nothing while none is open. */
export function OpenedRequestDetail({
  opened,
  detailRef,
  testId,
  children,
}: {
  opened: number | null;
  /** `useOpenedRequest`'s `detail`, scrolled to and focused as a request opens */
  detailRef: RefObject<HTMLDivElement | null>;
  testId: string;
  children: (rid: number) => ReactNode;
}) {
  if (opened === null) return null;
  return (
    <div ref={detailRef} tabIndex={-1} data-testid={testId} className="scroll-mt-4">
      {children(opened)}
    </div>
  );
}
