"use client";

import type { ReactNode } from "react";
import { SloForm } from "@/components/sweeps/slo-form";
import type { Slo } from "@/lib/api/slo";

/**
 * The frame of a page's goodput under the URL's SLOs (the series and sweep pages): the SLO form,
 * a line when the link's SLO cannot be read, what to set while none is, and the page's own
 * goodput once one is.
 */
export function GoodputSection({
  testId,
  slo,
  slos,
  onSlo,
  unset,
  children,
}: {
  testId: string;
  /** The URL's `slo` parameter as written. */
  slo: string;
  /** It parsed: null when it cannot be read. */
  slos: Slo[] | null;
  onSlo: (s: string) => void;
  /** What an SLO would show, said while none is set. */
  unset: string;
  children: (slos: Slo[]) => ReactNode;
}) {
  return (
    <section className="space-y-3 rounded-lg border border-border bg-card p-4" data-testid={testId}>
      <h2 className="text-sm font-semibold">Goodput under SLOs</h2>
      <SloForm key={slo} slo={slo} onApply={onSlo} />
      {slos === null ? (
        <p className="text-sm text-danger">The SLO in the link cannot be read: {slo}</p>
      ) : null}
      {slos === null || slos.length === 0 ? <p className="text-sm text-muted">{unset}</p> : children(slos)}
    </section>
  );
}
