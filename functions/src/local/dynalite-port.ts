// The DynamoDB client's transports to a dynalite engine of this process in place of HTTP on
// loopback: to the local host's dynalite thread (dynalite-thread.ts) through a message port, or
// straight to an engine in this process's own event loop (dynalite.ts). The
// request the SDK built (target header, JSON body) goes to the engine as it is and the engine's
// answer comes back as the HTTP response would (dynalite-answer.ts). Per call this saves the
// socket, the HTTP client and server and the request's signature (the engine never checks one, and
// nothing leaves the process); everything above the transport (the SDK's serialisation, retries,
// errors, the middleware this project adds) is what it is over HTTP. An UpdateItem's images, when
// asked (dynalite-answer.ts), come back on the response beside its body (`itemImagesOf`).
import type { MessagePort } from "node:worker_threads";
import { answerRequest, type EngineAnswer, type EngineItem, type EngineStore } from "./dynalite-answer";

export { ITEM_IMAGES_HEADER } from "./dynalite-answer";

export interface ItemImages {
  before?: EngineItem;
  after: EngineItem;
}

/** The SDK's HTTP response as these transports make it. */
interface PortResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
  itemImages?: ItemImages;
}

/** The images an UpdateItem's response carries (ITEM_IMAGES_HEADER), or undefined. */
export const itemImagesOf = (response: unknown): ItemImages | undefined => (response as PortResponse | undefined)?.itemImages;

const responseOf = (answer: EngineAnswer): { response: PortResponse } => ({
  response: {
    statusCode: answer.status,
    headers: answer.headers,
    body: Buffer.from(answer.body),
    ...(answer.images ? { itemImages: answer.images } : {}),
  },
});

interface PortRequest {
  id: number;
  headers: Record<string, string>;
  body: string;
  /** The lane whose turn a heavy read takes in the engine (engine-turns.ts); none: answered as it comes. */
  lane?: string;
}
interface PortAnswer extends EngineAnswer {
  id: number;
}

/** The part of the SDK's HTTP request this transport reads. */
interface SdkRequest {
  headers: Record<string, string>;
  body?: unknown;
}

/** The request's JSON: the SDK hands it over as bytes (read in place: their class converts itself
 *  to text with a warning when asked as a string) or as text. */
function textOf(body: unknown): string {
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  return "";
}

/** What the SDK's client asks of its `requestHandler`. */
export interface SdkRequestHandler {
  handle(request: SdkRequest): Promise<{ response: PortResponse }>;
  updateHttpClientConfig(): void;
  httpHandlerConfigs(): Record<string, never>;
  destroy(): void;
}

/** The SDK's request handler (its `requestHandler` option) over `port`. While calls wait the port
 *  keeps the process alive, as a socket with a request in flight would; idle, it does not. A port
 *  whose thread has gone fails its calls, as a refused connection would. `laneNow`: the lane of the
 *  request being answered when a call is made (an app thread's), for the engine's turns. */
export function portRequestHandler(port: MessagePort, laneNow?: () => string | undefined): SdkRequestHandler {
  let nextId = 1;
  let closed = false;
  const waiting = new Map<number, { resolve: (answer: PortAnswer) => void; reject: (error: Error) => void }>();
  const gone = () => Object.assign(new Error("dynalite thread unreachable"), { code: "ECONNREFUSED" });
  port.on("message", (answer: PortAnswer) => {
    const call = waiting.get(answer.id);
    if (!call) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) port.unref();
    call.resolve(answer);
  });
  port.on("close", () => {
    closed = true;
    for (const call of waiting.values()) call.reject(gone());
    waiting.clear();
  });
  port.unref();
  return {
    handle(request: SdkRequest): Promise<{ response: PortResponse }> {
      if (closed) return Promise.reject(gone());
      const id = nextId++;
      const body = textOf(request.body);
      return new Promise<PortAnswer>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        port.ref();
        const lane = laneNow?.();
        port.postMessage({ id, headers: request.headers, body, ...(lane === undefined ? {} : { lane }) } satisfies PortRequest);
      }).then(responseOf);
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs() {
      return {};
    },
    destroy() {
      closed = true;
      port.close();
    },
  };
}

/** The SDK's request handler straight to `store`, a dynalite engine in this process's event loop,
 *  without its loopback port. */
export function engineRequestHandler(store: EngineStore): SdkRequestHandler {
  return {
    handle(request: SdkRequest): Promise<{ response: PortResponse }> {
      return new Promise<EngineAnswer>((resolve) => answerRequest(store, request.headers, textOf(request.body), resolve)).then(responseOf);
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs() {
      return {};
    },
    destroy() {},
  };
}
