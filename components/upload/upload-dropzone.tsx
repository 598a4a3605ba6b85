"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type DragEvent } from "react";
import { filesFromDataTransfer, filesFromInput, type PickedFile } from "./collect-files";
import { postUpload, UploadFailed, type UploadProgress } from "./post-upload";
import { plural } from "@/lib/format-number";

type State =
  | { step: "idle" }
  | { step: "sending"; files: number; progress: UploadProgress }
  | { step: "error"; message: string; details?: unknown };

/** Drop files, a folder or an archive; watch the progress bar; land on the new run. */
export function UploadDropzone() {
  const router = useRouter();
  const [state, setState] = useState<State>({ step: "idle" });
  const [over, setOver] = useState(false);
  const [name, setName] = useState("");
  const [labels, setLabels] = useState("");
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  async function send(files: PickedFile[]) {
    if (files.length === 0) return;
    setState({ step: "sending", files: files.length, progress: { phase: "uploading", fraction: 0 } });
    try {
      const res = await postUpload(files, { name: name.trim(), labels: labels.trim() }, (progress) =>
        setState({ step: "sending", files: files.length, progress }),
      );
      // An upload of several runs made a sweep of them: its page shows them all.
      router.push(res.sweep?.url ?? res.url);
    } catch (err) {
      const e = err instanceof UploadFailed ? err : new UploadFailed(String(err));
      setState({ step: "error", message: e.message, details: e.details });
    }
  }

  async function onDrop(e: DragEvent) {
    e.preventDefault();
    setOver(false);
    await send(await filesFromDataTransfer(e.dataTransfer));
  }

  const busy = state.step === "sending";
  return (
    <section
      aria-label="Upload a run"
      data-testid="dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      // Leaving for one of the zone's own children (its inputs, buttons, text) is no leaving: the
      // highlight stays, instead of flickering off and on as the pointer crosses them.
      onDragLeave={(e) => {
        if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setOver(false);
      }}
      onDrop={onDrop}
      className={`rounded-xl border-2 border-dashed p-6 transition-colors ${over ? "border-accent bg-card" : "border-border"}`}
    >
      <div className="flex flex-wrap items-center gap-3">
        <div className="mr-auto">
          <p className="font-medium">Drop benchmark artifacts here</p>
          <p className="text-sm text-muted">
            TensorRT-LLM perf_metrics JSONL, aiperf exports, server metrics, logs — files, a folder, a .zip or
            a .tar.gz.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {[
            { label: "Run name", placeholder: "Run name (optional)", value: name, set: setName },
            { label: "Labels", placeholder: "Labels, comma separated", value: labels, set: setLabels },
          ].map((f) => (
            <input
              key={f.label}
              className="input w-56 max-w-full"
              placeholder={f.placeholder}
              value={f.value}
              onChange={(e) => f.set(e.target.value)}
              aria-label={f.label}
            />
          ))}
          <button type="button" className="btn" disabled={busy} onClick={() => fileInput.current?.click()}>
            Choose files
          </button>
          <button
            type="button"
            className="btn-ghost py-1.5 text-sm"
            disabled={busy}
            onClick={() => folderInput.current?.click()}
          >
            Choose folder
          </button>
        </div>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="file-input"
          onChange={(e) => void send(filesFromInput(e.target.files))}
        />
        <input
          ref={folderInput}
          type="file"
          multiple
          hidden
          data-testid="folder-input"
          {...{ webkitdirectory: "", directory: "" }}
          onChange={(e) => void send(filesFromInput(e.target.files))}
        />
      </div>
      {state.step === "sending" ? <Progress files={state.files} progress={state.progress} /> : null}
      {state.step === "error" ? (
        <div role="alert" className="mt-4 text-sm text-danger">
          <p>{state.message}</p>
          <UnrecognisedList details={state.details} />
        </div>
      ) : null}
    </section>
  );
}

function Progress({ files, progress }: { files: number; progress: UploadProgress }) {
  const pct = Math.round(progress.fraction * 100);
  return (
    <div className="mt-4" role="status">
      <div className="mb-1 flex justify-between text-xs text-muted">
        <span>
          {progress.phase === "uploading"
            ? `Uploading ${plural(files, "file")}…`
            : "Reading and indexing the run…"}
        </span>
        <span>{progress.phase === "uploading" ? `${pct}%` : ""}</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded bg-border"
        role="progressbar"
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className={`h-full bg-accent transition-all ${progress.phase === "ingesting" ? "animate-pulse" : ""}`}
          style={{ width: `${progress.phase === "ingesting" ? 100 : pct}%` }}
        />
      </div>
    </div>
  );
}

function UnrecognisedList({ details }: { details?: unknown }) {
  const files = (details as { files?: Array<{ name: string; kind: string }> } | undefined)?.files;
  if (!files?.length) return null;
  return (
    <ul className="mt-1 list-inside list-disc text-xs text-muted">
      {files.slice(0, 20).map((f) => (
        <li key={f.name}>
          {f.name}: {f.kind}
        </li>
      ))}
    </ul>
  );
}
