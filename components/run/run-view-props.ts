import type { RunSummary } from "@/lib/api/schemas";

/** What the run page hands every view. Kept apart from the views registry, which imports the views. */
export interface RunViewProps {
  run: RunSummary;
}
