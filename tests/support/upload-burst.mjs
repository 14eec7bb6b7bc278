// A burst of forecast uploads sent from a thread of its own (large-forecasts.ts, parallelUploads):
// the 40 clients of the finding are other machines, so building and sending their 4 MB forms must
// not hold the event loop of the server the test measures.
import { parentPort, workerData } from "node:worker_threads";

const { url, token, projectId, csv, count } = workerData;

async function upload(i) {
  const form = new FormData();
  form.set("name", `Параллельный ${i}`);
  form.set("project", projectId);
  form.set("method", "xgboost");
  form.set("file_data", new Blob([csv]), "longwall.csv");
  const res = await fetch(`${url}/api/v1/regres_methane/`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
  await res.arrayBuffer();
  return res.status;
}

parentPort.postMessage(await Promise.all(Array.from({ length: count }, (_, i) => upload(i))));
