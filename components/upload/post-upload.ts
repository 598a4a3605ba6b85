import { uploadResponseSchema, type UploadResponse } from "@/lib/api/schemas";
import type { PickedFile } from "./collect-files";

export interface UploadProgress {
  phase: "uploading" | "ingesting";
  /** 0..1 of bytes sent */
  fraction: number;
}

export class UploadFailed extends Error {
  constructor(
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * POSTs files as multipart to /api/runs. XMLHttpRequest rather than fetch because only it
 * reports upload progress; once the body is sent the server is ingesting.
 */
export function postUpload(
  files: PickedFile[],
  fields: { name?: string; labels?: string },
  onProgress: (p: UploadProgress) => void,
): Promise<UploadResponse> {
  const form = new FormData();
  for (const { file, path } of files) form.append("file", file, path);
  if (fields.name) form.append("name", fields.name);
  if (fields.labels) form.append("labels", fields.labels);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/runs");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ phase: "uploading", fraction: e.loaded / e.total });
    };
    xhr.upload.onload = () => onProgress({ phase: "ingesting", fraction: 1 });
    xhr.onerror = () => reject(new UploadFailed("the upload could not reach the server"));
    xhr.onload = () => {
      const body = xhr.response as { error?: { message?: string; details?: unknown } } | null;
      if (xhr.status === 201) {
        const parsed = uploadResponseSchema.safeParse(body);
        if (parsed.success) resolve(parsed.data);
        else reject(new UploadFailed("the server's answer was not understood"));
      } else
        reject(
          new UploadFailed(body?.error?.message ?? `upload failed (${xhr.status})`, body?.error?.details),
        );
    };
    xhr.send(form);
  });
}
