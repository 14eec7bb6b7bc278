// How a client of this process reaches a dynalite engine without HTTP: the SDK's request (target
// header, JSON body) handed to the engine's own `answer` (packages/dynalite/index.js), the steps its
// HTTP handler takes once a body is read (the target, the empty body, validation, action, errors
// included), and the answer taken back as the HTTP response would carry it. The engine's thread
// (dynalite-thread.ts) answers its message ports so, and an engine in this process's own event
// loop its clients here (dynalite-port.ts). Upstream's suite, which drives the HTTP handler, so
// drives this path too. Loaded as it is by the engine's thread (Node strips the types, no loader):
// erasable TypeScript only, its own imports named with `.ts`.
//
// dynalite's HTTP handler (dynalite/index.js) first checks a request's signature header, parses its
// URL and draws a random request id for it, and after the action adds a CRC32 of the answer: about
// a tenth of the CPU of a call that never leaves the process, for things that only HTTP and a client
// checking signatures use (the DynamoDB client reads neither the CRC nor the id but as metadata).
// Here the answer has a request id of this process's own. Neither the HTTP handler's cap on a body's
// bytes nor its content type applies: the body is the SDK's own JSON (application/x-amz-json-1.0),
// and an item's 400 KB and a batch's 25 items bound it far under the cap's 16 MB. A body that is no
// JSON is answered as one absent (SerializationException).
//
// A request with the header ITEM_IMAGES_HEADER, when it is an UpdateItem that succeeds, is answered
// with the item before and after it as well (`images`, beside the body: the engine's updateItem hands
// them to its callback, packages/dynalite/actions/updateItem.js); the local table stream makes its
// records of them (table-stream.ts).
import dynalite from "dynalite";

/** The header that asks for an UpdateItem's images. */
export const ITEM_IMAGES_HEADER = "x-local-item-images";

/** dynalite's store: what a request is answered from. */
export type EngineStore = dynalite.Store;
/** An item as the engine keeps it (AttributeValues, a binary value as base64). */
export type EngineItem = dynalite.Item;

export interface EngineAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** An UpdateItem's item before it (absent when there was none) and after it, when asked. */
  images?: dynalite.Images;
}

let requests = 0;
/** A request id unique in this process (dynalite's are random, 52 characters). */
const requestId = () => `LOCAL${(++requests).toString(36).toUpperCase().padStart(47, "0")}`;

/** A request's body as the engine takes it: its JSON, or undefined (none, or no JSON). */
function parsed(body: string): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Answers one request with `store` (dynalite's engine, dynalite-engine.ts: createEngine) as its
 *  HTTP handler would, and calls `reply` with the answer: { status, headers, body }, and `images`
 *  ({ before, after }) for an UpdateItem with ITEM_IMAGES_HEADER that succeeded. */
export function answerRequest(
  store: EngineStore,
  headers: Record<string, string>,
  body: string,
  reply: (answer: EngineAnswer) => void,
): void {
  const target = headers["x-amz-target"] ?? "";
  const withImages = headers[ITEM_IMAGES_HEADER] !== undefined && target.endsWith(".UpdateItem");
  const contentType =
    headers["content-type"]?.split(";")[0]?.trim() === "application/x-amz-json-1.0" ? "application/x-amz-json-1.0" : "application/json";
  dynalite.answer(store, target, parsed(body), (status, data, images) => {
    const answer: EngineAnswer = {
      status,
      headers: { "x-amzn-requestid": requestId(), "content-type": contentType },
      body: JSON.stringify(data),
    };
    reply(withImages && status === 200 && images?.after ? { ...answer, images } : answer);
  });
}
