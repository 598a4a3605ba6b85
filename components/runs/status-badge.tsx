import type { RunListItem } from "@/lib/api/schemas";

const STYLES: Record<RunListItem["status"], string> = {
  ready: "text-ok",
  ingesting: "text-warn",
  failed: "text-danger",
};

export function StatusBadge({ status }: { status: RunListItem["status"] }) {
  return (
    <span className={`ml-2 rounded border border-current px-1 text-xs ${STYLES[status]}`}>{status}</span>
  );
}
