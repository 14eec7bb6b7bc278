// A dynalite engine in a worker thread of its own (dynalite.ts): the engine's request parsing,
// expression evaluation and LevelDB calls run beside the server's event loop, not on it. Plain
// JavaScript, so the thread starts without a TypeScript loader.
import { parentPort, workerData } from "node:worker_threads";
import dynalite from "dynalite";

const { path, port } = workerData;
const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once("error", (error) => parentPort.postMessage({ type: "error", message: error.message, code: error.code }));
server.listen(port, "127.0.0.1", () => parentPort.postMessage({ type: "listening", port: server.address().port }));
parentPort.on("message", (message) => {
  if (message !== "close") return;
  // dynalite's close stops the HTTP server and then closes LevelDB cleanly.
  server.close((error) => parentPort.postMessage({ type: "closed", message: error?.message }));
});
