// Runs one function's bundle as the Lambda runtime does, in a process of the function's Node major
// with nothing but the environment the rehearsal gives it: the module is imported once (init,
// top-level await included), then each event the parent sends over IPC goes to the handler.
// Usage: node lambda-host.mjs <handler file> <export name> <function name>
import { pathToFileURL } from "node:url";

const [file, exportName, functionName] = process.argv.slice(2);
const started = performance.now();
let handler;
try {
  const module = await import(pathToFileURL(file).href);
  handler = module[exportName];
  if (typeof handler !== "function") throw new Error(`${file} exports no function ${exportName}`);
} catch (error) {
  process.send({ type: "init-error", message: String(error?.stack ?? error) });
  process.exit(1);
}
process.send({ type: "ready", initMs: performance.now() - started });

let requestId = 0;
process.on("message", async (event) => {
  requestId += 1;
  const context = {
    functionName,
    awsRequestId: `rehearsal-${requestId}`,
    getRemainingTimeInMillis: () => 29_000,
    callbackWaitsForEmptyEventLoop: false,
  };
  try {
    process.send({ type: "result", result: await handler(event, context) });
  } catch (error) {
    process.send({ type: "error", message: String(error?.stack ?? error) });
  }
});
