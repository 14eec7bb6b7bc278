// How a client of this process reaches a dynalite engine without HTTP: the SDK's request (target
// header, JSON body) handed to the request handler dynalite's HTTP server runs, and the answer taken
// back as the HTTP response would carry it. The engine's thread (dynalite-thread.mjs) answers its
// message ports so, and an engine in this process's own event loop its clients here
// (dynalite-port.ts). Plain JavaScript: the engine's thread loads it without a TypeScript loader.
import { EventEmitter } from "node:events";

/** dynalite checks that a request is signed, never the signature: requests that never leave the
 *  process carry the shape of one instead. */
const UNSIGNED = {
  authorization: "AWS4-HMAC-SHA256 Credential=local/20000101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=local",
  "x-amz-date": "20000101T000000Z",
};

/** Hands one request to `server` (dynalite's HTTP server) as its loopback port would and calls
 *  `reply` with the answer: { status, headers, body }. */
export function answerRequest(server, headers, body, reply) {
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
      reply({ status: response.statusCode, headers: answerHeaders, body: out === undefined ? "" : String(out) });
    },
  };
  server.emit("request", request, response);
  if (body) request.emit("data", Buffer.from(body));
  request.emit("end");
}
