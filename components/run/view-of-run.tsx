"use client";

import { useQuery } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { runQueryOptions } from "@/lib/api/query-options";
import type { RunViewProps } from "./run-view-props";

/** What the server page hands a view it renders itself: the run's id; the run comes from the page's cache. */
export interface ViewOfRunProps {
  id: string;
}

/**
 * A view the server page renders in place of its lazily loaded copy, so the view's code comes in
 * the page's first scripts rather than after hydration (`RunPage`'s `first`). It reads the run
 * from the query cache, as the page does, so a rename or patch reaches it as it reaches the page.
 */
export function viewOfRun(View: ComponentType<RunViewProps>): ComponentType<ViewOfRunProps> {
  function ViewOfRun({ id }: ViewOfRunProps) {
    const { data: run } = useQuery(runQueryOptions(id));
    return run ? <View run={run} /> : null;
  }
  ViewOfRun.displayName = `ViewOfRun(${View.displayName ?? View.name})`;
  return ViewOfRun;
}
