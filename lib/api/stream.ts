// A streamed download: chunks are pulled from the source only as the client reads (the stream's
// backpressure), so a large export holds one batch in memory. Headers go first, so a failure
// after them can only cut the body short; it is logged by kind, never by content.
import "server-only";

export function streamedResponse(source: AsyncIterable<string>, contentType: string, filename?: string): Response {
  const chunks = source[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (e) {
        console.error(`streamed export failed: ${(e as Error)?.name ?? "error"}`);
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": contentType,
      "cache-control": "no-store",
      ...(filename ? { "content-disposition": `attachment; filename="${filename}"` } : {}),
    },
  });
}
