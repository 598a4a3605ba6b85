import Link from "next/link";

export default function NotFound() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="mt-2 text-sm text-muted">This run does not exist, or it was deleted.</p>
      <Link href="/" className="mt-4 inline-block text-accent hover:underline">
        Back to runs
      </Link>
    </div>
  );
}
