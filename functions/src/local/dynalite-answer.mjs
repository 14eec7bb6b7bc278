// How a client of this process reaches a dynalite engine without HTTP: the SDK's request (target
// header, JSON body) handed to the request handler dynalite's HTTP server runs, and the answer taken
// back as the HTTP response would carry it. The engine's thread (dynalite-thread.mjs) answers its
// message ports so, and an engine in this process's own event loop its clients here
// (dynalite-port.ts). Plain JavaScript: the engine's thread loads it without a TypeScript loader.
//
// A request with the header ITEM_IMAGES_HEADER, when it is an UpdateItem that succeeds, is answered
// with the item before and after it as well (`images`, beside the body: dynalite-engine.mjs); the
// local table stream makes its records of them (table-stream.ts).
import { EventEmitter } from "node:events";
import { withItemImages } from "./dynalite-engine.mjs";

/** The header that asks for an UpdateItem's images. */
export const ITEM_IMAGES_HEADER = "x-local-item-images";

/** dynalite checks that a request is signed, never the signature: requests that never leave the
 *  process carry the shape of one instead. */
const UNSIGNED = {
  authorization: "AWS4-HMAC-SHA256 Credential=local/20000101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=local",
  "x-amz-date": "20000101T000000Z",
};

/** Hands one request to `server` (dynalite's HTTP server) as its loopback port would and calls
 *  `reply` with the answer: { status, headers, body }, and `images` ({ before, after }) for an
 *  UpdateItem with ITEM_IMAGES_HEADER that succeeded. */
export function answerRequest(server, headers, body, reply) {
  const images = headers[ITEM_IMAGES_HEADER] === undefined ? undefined : {};
  const request = new EventEmitter();
  request.method = "POST";
  request.url = "/";
  request.headers = { ...UNSIGNED, ...headers };
  const answerHeaders = {};
  const response = {
    statusCode: 200,
    setHeader(name, value) {
      answerHeaders[name.toLowerCase()] = String(value);
    },
    end(out) {
      const answer = { status: response.statusCode, headers: answerHeaders, body: out === undefined ? "" : String(out) };
      reply(images?.after && answer.status === 200 ? { ...answer, images } : answer);
    },
  };
  server.emit("request", request, response);
  if (body) request.emit("data", Buffer.from(body));
  if (images) withItemImages(images, () => request.emit("end"));
  else request.emit("end");
}
