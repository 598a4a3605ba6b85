"use client";

import type { InputHTMLAttributes, ReactNode } from "react";
import type { usePatchRun } from "./use-patch-run";
import { TokenPrompt } from "./token-prompt";

/**
 * A one-field form for editing a run in place. `draft` is the field's state, null when not
 * editing: Enter saves, Escape sets it back to null.
 */
export function DraftForm({
  draft: [value, setDraft],
  onSave,
  className,
  input,
  children,
}: {
  draft: [string, (value: string | null) => void];
  onSave: () => void;
  className: string;
  input: Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "onKeyDown">;
  /** The form's buttons. */
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <input
        autoFocus
        {...input}
        value={value}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && setDraft(null)}
      />
      {children}
    </form>
  );
}

/** After a failed save: the write-token prompt (which retries) when the server asked for one, else the error. */
export function PatchFeedback({
  patch,
  retry,
}: {
  patch: ReturnType<typeof usePatchRun>;
  retry: (() => void) | null;
}) {
  if (patch.needsToken) return retry ? <TokenPrompt onSaved={retry} /> : null;
  return patch.error ? <span className="text-xs text-danger">{patch.error.message}</span> : null;
}
