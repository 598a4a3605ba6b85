"use client";

import type { ReactNode } from "react";

/** A one-field form for editing a run in place: Enter saves, Escape gives up. */
export function DraftForm({
  value,
  onChange,
  onSave,
  onCancel,
  label,
  className,
  inputClassName,
  placeholder,
  maxLength,
  children,
}: {
  value: string;
  onChange: (value: string) => void;
  onSave: () => void;
  onCancel: () => void;
  label: string;
  className: string;
  inputClassName: string;
  placeholder?: string;
  maxLength?: number;
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
        className={inputClassName}
        aria-label={label}
        placeholder={placeholder}
        maxLength={maxLength}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && onCancel()}
      />
      {children}
    </form>
  );
}
