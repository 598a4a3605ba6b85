import Link from "next/link";
import { readRunSummary } from "@/lib/runs/read-run";
import { getAppContext } from "@/lib/server/app-context";
import { isValidId } from "@/lib/store/ids";

export const dynamic = "force-dynamic";

/** Lists the runs to compare; the side-by-side charts build on this page. */
export default async function ComparePage({ searchParams }: { searchParams: Promise<{ runs?: string }> }) {
  const ids = ((await searchParams).runs ?? "").split(",").filter(isValidId).slice(0, 8);
  const app = await getAppContext();
  const runs = await Promise.all(ids.map(async (id) => ({ id, run: await readRunSummary(app.store.db, id) })));
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Compare runs</h1>
      {runs.length === 0 ? (
        <p className="text-sm text-muted">
          No runs chosen. Open <code>/compare?runs=ID1,ID2</code>, or use a run&apos;s “Compare…” button.
        </p>
      ) : (
        <ul className="space-y-1" data-testid="compare-runs">
          {runs.map(({ id, run }) => (
            <li key={id}>
              {run ? (
                <Link className="text-accent hover:underline" href={`/runs/${id}`}>
                  {run.name}
                </Link>
              ) : (
                <span className="text-muted">{id}: not found</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
