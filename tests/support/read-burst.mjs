// A burst of GETs sent from a thread of its own (large-forecasts.ts, parallelReads): the clients of a
// finding are other machines, so reading their answers must not hold the event loop of the server
// the test measures. `atOnce` requests at a time; each answer's status and size.
import { parentPort, workerData } from "node:worker_threads";

const { token, urls, atOnce } = workerData;

async function read(url) {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
}

const answers = [];
for (let i = 0; i < urls.length; i += atOnce) answers.push(...(await Promise.all(urls.slice(i, i + atOnce).map(read))));
parentPort.postMessage(answers);
