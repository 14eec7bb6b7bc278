// One app thread of the local server (app-threads.ts): the whole app over ports of its own, as a
// Lambda instance runs it in AWS. It reaches the engine's thread through a port of its own, reads and
// writes the blob folder directly, and calls the front thread for what the threads share (thread-calls.ts):
// the spreadsheet and scoring threads, the readings' consumer, the webhook sender, the slot ledger,
// the signer, the change stream and the paces. Its caches are its own, each written to hold in any
// process (a Lambda container's too). A request's body comes as a stream the front reads off its
// socket; its answer goes back as a stream the front writes to it.
import { AsyncLocalStorage } from "node:async_hooks";
import { parentPort, workerData, type Transferable } from "node:worker_threads";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import type { Deps, ReadingsConsumer, UploadFiles } from "../domain/context";
import { hostRuntime } from "../events/runtime";
import type { RefusalPace, RequestPace } from "../http/request-pace";
import type { GostCmsVerifier, SlotLedger, SpreadsheetWorker, VersionSigner } from "../ports";
import type { AbatementMath } from "../ports/abatement-math";
import type { ClimateMath } from "../ports/climate-math";
import type { ModelScoring } from "../ports/model-scoring";
import type { YearMath } from "../ports/year-math";
import type { AppThreadData, ThreadAnswer, ThreadConfig, ThreadRequest } from "./app-threads";
import { localApp } from "./api-app";
import { portRequestHandler } from "./dynalite-port";
import { captureTableChanges } from "./table-stream";
import { threadCalls } from "./thread-calls";
import { notifyingStore, type UploadCreation } from "./upload-notifications";

const data = workerData as AppThreadData;

/** The spreadsheet threads' reads, as the front hands them on: their answers' bytes. */
interface ReadBytes {
  minutesReadBytes?(...args: Parameters<NonNullable<SpreadsheetWorker["minutesRead"]>>): Promise<Uint8Array>;
  climateReadBytes?(...args: Parameters<NonNullable<SpreadsheetWorker["climateRead"]>>): Promise<Uint8Array>;
}

/** The worker with its reads' text decoded here, not on the front. */
function readsAsText(worker: SpreadsheetWorker & ReadBytes): SpreadsheetWorker {
  const { minutesReadBytes, climateReadBytes } = worker;
  const decoded = new TextDecoder();
  return {
    ...worker,
    ...(minutesReadBytes ? { minutesRead: async (actor, read) => decoded.decode(await minutesReadBytes(actor, read)) } : {}),
    ...(climateReadBytes ? { climateRead: async (actor, read) => decoded.decode(await climateReadBytes(actor, read)) } : {}),
  };
}
const port = parentPort!;
const calls = threadCalls(data.calls);
const remote = <T>(name: string): T | undefined => (data.shapes[name] ? calls.service<T>(name, data.shapes[name]) : undefined);

/** The server's clock as the last request brought it, running on. */
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const scoring = remote<ModelScoring & YearMath & AbatementMath & ClimateMath>("scoring");
const readingsConsumer = remote<ReadingsConsumer>("readingsConsumer");
const uploadFiles = remote<UploadFiles>("uploadFiles");
const gostCms = remote<GostCmsVerifier>("gostCms");
const slotLedger = remote<SlotLedger>("slotLedger");
const runtime = hostRuntime({ subscribers: [], deps: () => deps });
/** The lane of the request being answered: the engine takes its heavy reads in the lane's turn. */
const lanes = new AsyncLocalStorage<string>();
const doc = createDocumentClient({
  tableName: data.tableName,
  endpoint: data.endpoint,
  requestHandler: portRequestHandler(data.engine, () => lanes.getStore()),
});
// This thread's writes feed the front's table stream, as the consumer thread's do: a write answers once
// its record is in the stream's queue there, so the server's `settled` waits for it.
captureTableChanges(doc, (record) => calls.call("stream", "push", [record]), { imagesWithUpdates: true });
const deps: Deps = {
  repos: dynamoRepositories(doc, data.tableName),
  // What lands under uploads/ is checked by the front's queue, as S3's notification would have it.
  blobs: notifyingStore(fsBlobStore(data.blobsDir), (key: string, size: number, how: UploadCreation) =>
    calls.call("uploads", "created", [key, size, how]),
  ),
  clock,
  config: data.config,
  spreadsheets: readsAsText(remote<SpreadsheetWorker & ReadBytes>("spreadsheets")!),
  signer: remote<VersionSigner>("signer")!,
  webhooksDue: () => void calls.call("webhooks", "due", []).catch(() => undefined),
  ...(uploadFiles ? { uploadFiles } : {}),
  ...(scoring ? { modelScoring: scoring, yearMath: scoring, abatementMath: scoring, climateMath: scoring } : {}),
  ...(gostCms ? { gostCms } : {}),
  ...(readingsConsumer ? { readingsConsumer } : {}),
  ...(slotLedger ? { slotLedger } : {}),
  ...(data.readingsRetryFirstMs === undefined ? {} : { readingsRetryFirstMs: data.readingsRetryFirstMs }),
  runtime: {
    ...runtime,
    // Published on the front, whose subscribers (the live tiles' streams among them) hear every change.
    changes: {
      async publish(change, later) {
        await later?.();
        await calls.call("changes", "publish", [change]);
      },
    },
  },
};

/** The front's paces: a user's line is one line whichever thread serves the user. */
const pace = remote<RequestPace>("pace");
const gatewayPace = remote<RequestPace>("gatewayPace");
const refusals: RefusalPace | undefined = data.shapes.refusals
  ? {
      async take(address) {
        const taken = (await calls.call("refusals", "take", [address])) as { wait: number; ticket: number };
        return { wait: taken.wait, giveBack: () => void calls.call("refusals", "giveBack", [taken.ticket]).catch(() => undefined) };
      },
      wait: () => 0,
    }
  : undefined;

const app = localApp(deps, {
  tls: data.tls,
  clientAddressOf: (c) => (c.env as { address: string }).address,
  ...(pace ? { pace } : {}),
  ...(gatewayPace ? { gatewayPace } : {}),
  ...(refusals ? { refusals } : {}),
});

const post = (answer: ThreadAnswer, transfer: Transferable[] = []) => port.postMessage(answer, transfer as never);

/** The least piece of an answer's body sent to the front at once, but for its last. */
const ANSWER_PIECE_BYTES = 256 * 1024;

/** The answer's body, telling the front when it has ended (read to its end, failed or cancelled). */
function watched(id: number, body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    post({ type: "done", id });
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          // Gathered into pieces of ANSWER_PIECE_BYTES: each piece is a message the front handles, and a
          // file's 64 KB reads would be 160 of them for 10 MB.
          const parts: Uint8Array[] = [];
          let size = 0;
          let finished = false;
          while (size < ANSWER_PIECE_BYTES) {
            const { done, value } = await reader.read();
            if (done) {
              finished = true;
              break;
            }
            parts.push(value);
            size += value.byteLength;
          }
          if (size > 0) controller.enqueue(parts.length === 1 ? parts[0] : Buffer.concat(parts, size));
          if (finished) {
            controller.close();
            end();
          }
        } catch (error) {
          controller.error(error);
          end();
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

async function answer(request: ThreadRequest): Promise<void> {
  offset = request.now - Date.now();
  let response: Response;
  try {
    response = await lanes.run(request.lane, () =>
      app.fetch(
        new Request(request.url, {
          method: request.method,
          headers: request.headers,
          ...(request.body ? { body: request.body, duplex: "half" } : {}),
        } as RequestInit),
        { address: request.address },
      ),
    );
  } catch (error) {
    console.error(JSON.stringify({ event: "app_thread", message: error instanceof Error ? error.stack : String(error) }));
    response = new Response(JSON.stringify({ detail: "Внутренняя ошибка сервера" }), {
      status: 500,
      headers: { "Content-Type": "application/json" },
    });
  }
  const headers = [...response.headers];
  if (!response.body) {
    post({ type: "head", id: request.id, status: response.status, headers, body: null });
    post({ type: "done", id: request.id });
    return;
  }
  const body = watched(request.id, response.body);
  post({ type: "head", id: request.id, status: response.status, headers, body }, [body as unknown as Transferable]);
}

port.on("message", (message: ThreadRequest | ThreadConfig) => {
  if (message.type === "request") void answer(message);
  else if (message.type === "config") Object.assign(deps.config, message.patch);
});
