"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { sweepHref } from "@/components/sweeps/search-params";
import { sweepListQueryOptions } from "@/lib/api/sweep-query-options";

/** The sweeps on this server, newest first; nothing when there are none. */
export function SweepsList() {
  const list = useQuery(sweepListQueryOptions());
  const sweeps = list.data?.sweeps ?? [];
  if (sweeps.length === 0) return null;
  return (
    <nav aria-label="Sweeps" className="flex flex-wrap items-center gap-2 text-sm" data-testid="sweeps-list">
      <span className="font-semibold">Sweeps</span>
      {sweeps.slice(0, 20).map((s) => (
        <Link
          key={s.id}
          href={sweepHref(s.id)}
          className="rounded border border-border px-2 py-0.5 hover:bg-card"
        >
          {s.name} <span className="text-muted">({s.runCount})</span>
        </Link>
      ))}
    </nav>
  );
}
