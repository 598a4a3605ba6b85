import type { EndpointRole } from "@/lib/api/schemas";

/** Colour key of the per-endpoint bars (roles present in the run only). */
export function RoleLegend({ roles }: { roles: EndpointRole[] }) {
  return (
    <ul className="flex flex-wrap gap-3 text-xs text-muted">
      {[...new Set(roles)].map((r) => (
        <li key={r} className="flex items-center gap-1">
          <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: `var(--role-${r})` }} />
          {r}
        </li>
      ))}
    </ul>
  );
}
