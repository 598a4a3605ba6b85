import { redirect } from "next/navigation";
import { resolveShareLink } from "./share-link";

export const dynamic = "force-dynamic";

export default async function InferenceRedirect({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  redirect(resolveShareLink(await searchParams));
}
