/** A client-side problem with an upload: becomes a 4xx with the design.md §6 error shape. */
export class UploadError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
  }
}
