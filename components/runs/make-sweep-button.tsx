"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { TokenPrompt } from "@/components/run/token-prompt";
import { sweepHref } from "@/components/sweeps/search-params";
import { useCreateSweep } from "@/components/sweeps/use-sweep-mutations";
import { MAX_SWEEP_RUNS } from "@/lib/api/sweeps";

/** Groups the ticked runs into a sweep (one configuration at several loads) and opens it. */
export function MakeSweepButton({ ids }: { ids: string[] }) {
  const router = useRouter();
  const create = useCreateSweep();
  const [name, setName] = useState("");
  const [open, setOpen] = useState(false);
  if (ids.length === 0) return null;
  if (ids.length > MAX_SWEEP_RUNS)
    return <span className="text-sm text-danger">A sweep holds at most {MAX_SWEEP_RUNS} runs</span>;
  if (!open)
    return (
      <button type="button" className="btn" data-testid="make-sweep" onClick={() => setOpen(true)}>
        Make sweep ({ids.length})
      </button>
    );
  const submit = () =>
    create.mutate({ name: name.trim(), runIds: ids }, { onSuccess: (s) => router.push(sweepHref(s.id)) });
  return (
    <form
      className="flex flex-wrap items-center gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) submit();
      }}
    >
      <input
        className="input py-1"
        aria-label="Sweep name"
        placeholder="Sweep name"
        value={name}
        autoFocus
        onChange={(e) => setName(e.target.value)}
      />
      <button type="submit" className="btn" disabled={!name.trim() || create.isPending}>
        Create sweep
      </button>
      {create.needsToken ? <TokenPrompt onSaved={submit} /> : null}
      {create.isError && !create.needsToken ? (
        <span className="text-danger">{create.error.message}</span>
      ) : null}
    </form>
  );
}
