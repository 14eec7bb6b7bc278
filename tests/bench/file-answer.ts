// The benches that render a file (a project's export, the year's passport) count its bytes as a client
// reads them: the body whole, or its stream chunk by chunk.
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import type { ExportResult } from "@server/export/formats";

/** The size of a file answer's body, read to its end. */
export async function bodyBytes(result: Extract<ExportResult, { kind: "body" }>): Promise<number> {
  let bytes = 0;
  const body = result.body instanceof Uint8Array ? [result.body] : Readable.fromWeb(result.body as ReadableStream<Uint8Array>);
  for await (const chunk of body) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}
