// A dynalite engine in a worker thread of its own (dynalite.ts): the engine's request parsing,
// expression evaluation and LevelDB calls run beside the server's event loop, not on it. Plain
// JavaScript, so the thread starts without a TypeScript loader.
// Two ways in: its loopback port (other processes: the admin command, a second server's check), and
// message ports of this process's own clients (dynalite-port.ts), which hand it the SDK's request as
// it would have gone over HTTP and take its answer back, without a socket, an HTTP parser or a
// signature on either side. Both reach the same request handler, so the engine answers alike.
import { EventEmitter } from "node:events";
import { parentPort, workerData } from "node:worker_threads";
import dynalite from "dynalite";
import "./dynalite-engine.mjs";

const { path, port } = workerData;
const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once("error", (error) => parentPort.postMessage({ type: "error", message: error.message, code: error.code }));
server.listen(port, "127.0.0.1", () => parentPort.postMessage({ type: "listening", port: server.address().port }));

/** dynalite checks that a request is signed, never the signature: a port's requests, which never
 *  leave the process, carry the shape of one instead. */
const UNSIGNED = {
  authorization: "AWS4-HMAC-SHA256 Credential=local/20000101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=local",
  "x-amz-date": "20000101T000000Z",
};

/** Answers the requests that come in on `channel` (dynalite-port.ts: { id, headers, body }) with
 *  { id, status, headers, body }, through the handler the HTTP server uses. */
function serve(channel) {
  channel.on("message", ({ id, headers, body }) => {
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
        channel.postMessage({ id, status: response.statusCode, headers: answerHeaders, body: out === undefined ? "" : String(out) });
      },
    };
    server.emit("request", request, response);
    if (body) request.emit("data", Buffer.from(body));
    request.emit("end");
  });
}

parentPort.on("message", (message) => {
  if (message?.type === "connect") {
    serve(message.port);
    return;
  }
  if (message !== "close") return;
  // dynalite's close stops the HTTP server and then closes LevelDB cleanly.
  server.close((error) => parentPort.postMessage({ type: "closed", message: error?.message }));
});
