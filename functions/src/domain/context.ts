// What every domain function receives: the ports and the configuration, injected by the host.
import type { CalculationType } from "@core/registry";
import type { PeriodBounds } from "@core/measured-release";
import type { AppConfig } from "../config";
import type { UploadPreviewView } from "../contract/schemas/upload-preview";
import type { UploadedFile } from "../files/tabular";
import type { ModelScoring } from "../ports/model-scoring";
import type { YearMath } from "../ports/year-math";
import type { AbatementMath } from "../ports/abatement-math";
import type { ClimateMath } from "../ports/climate-math";
import type { Runtime } from "../ports/runtime";
import type { GostCmsVerifier } from "../ports/gost-signatures";
import type {
  AttemptReservation,
  BlobStore,
  Clock,
  ForecastColumns,
  ForecastModelTraining,
  ForecastKeptRow,
  ForecastRun,
  Repositories,
  SlotLedger,
  SpreadsheetWorker,
  User,
  VersionSigner,
} from "../ports";

export interface Deps {
  repos: Repositories;
  blobs: BlobStore;
  clock: Clock;
  config: AppConfig;
  /** Exports and xlsx templates: in-process locally, a worker function in AWS. */
  spreadsheets: SpreadsheetWorker;
  /** signs each approved version's snapshot hash (a key in the data folder locally, KMS in AWS). */
  signer: VersionSigner;
  /** Uploads read off the request thread (worker threads locally): a large forecast file read and
   *  predicted, every preview. Without it, in this process (AWS: one request per API instance,
   *  nobody waits behind it). */
  uploadFiles?: UploadFiles;
  /** Stored models parsed and scored off the request thread (scoring threads locally); without it,
   *  in this process (domain/forecast/scoring.ts). */
  modelScoring?: ModelScoring;
  /** a year's uncertainty arithmetic off the request thread (the local host's scoring
   *  threads); without it, in this process. */
  yearMath?: YearMath;
  /** the security review's R4: an abatement assessment's evaluation off the request thread, each company one at a
   *  time (the local host's scoring threads); without it, in this process. */
  abatementMath?: AbatementMath;
  /** a climate project's monitoring period off the request thread, each company one at a
   *  time (the local host's scoring threads); without it, in this process. */
  climateMath?: ClimateMath;
  /** a КЭП checked by OpenSSL with the GOST engine (adapters/signing/gost-cms.ts, the
   *  local server) or in TypeScript (gost-native.ts, AWS Lambda). Without it a signature is refused
   *  with 503 (the host cannot check one). */
  gostCms?: GostCmsVerifier;
  /** The readings' queue (AWS: SQS, consumed by the readings' function): a stored batch is announced
   *  there. Without it (the local host, tests) the consumer drains the table's queue in this process. */
  readingsQueue?: ReadingsQueue;
  /** Where the table's queue of readings is drained when not in this process: the local server's
   *  consumer thread (local/readings-consumer.ts). Without it (tests' harnesses) in this process. */
  readingsConsumer?: ReadingsConsumer;
  /** Deliveries were made: the host's webhook sender (domain/monitoring/derive/webhooks.ts `webhookSender`, its
   *  `due`) sends them — on the local server the request thread's, told by the consumer's thread, so one
   *  sender takes the queue. Without it they wait for the host's next round (its timer, the minute's
   *  Lambda). */
  webhooksDue?: () => void;
  /** The first back-off of a batch of readings whose application failed (consumer.ts RETRIES.firstMs
   *  when unset): the local host's tests set it shorter (local/readings-retry.ts). */
  readingsRetryFirstMs?: number;
  /** the local server's ledger of the heavy-work slots its requests hold, which its
   *  next start gives back (local/slot-ledger.ts). Without it (AWS, the tests' harnesses) the slots a
   *  stopped process held lapse with their window. */
  slotLedger?: SlotLedger;
  /** What the host keeps running for the domain: its change stream, its timers and the long-lived
   *  objects the domain's modules use, made by the host. No module of the domain holds state of its own. */
  runtime: Runtime;
}

/** The host's runtime (ports/runtime.ts: a leaf, which signed-tokens.ts reads without reaching the
 *  configuration through this module). */
export type { Runtime } from "../ports/runtime";

/** A drain of the table's queue of readings run elsewhere (domain/monitoring/minutes/consumer.ts). */
export interface ReadingsConsumer {
  /** Drains what is queued now (behind a drain running); resolves once done. */
  drain(): Promise<void>;
  /** Resolves once the drains asked for so far are done. */
  idle(): Promise<void>;
  /** D65's stale sweep (derive/events.ts sweepStaleChannels) run where the readings are
   *  applied, off the request thread; undefined while that place is not running (then the caller sweeps). */
  sweepStale?(): Promise<number> | undefined;
}

/** Where a stored batch of readings is announced for the consumer (functions/src/events/readings-queue.ts). */
export interface ReadingsQueue {
  send(message: { company: string; batch: string }): Promise<void>;
}

/** A forecast upload's rows with their predictions, as the stored JSON, and the item's summary. */
export interface ForecastFileResult {
  summary: Record<string, unknown>;
  json: Uint8Array;
}

/** A model trained on an uploaded history (domain/forecast/training.ts): its XGBoost JSON and summary. */
export interface TrainedModelFile {
  json: string;
  training: ForecastModelTraining;
  /** The validation rows (features, y, t), which calibrate the model once it is stored. */
  validation: ForecastKeptRow[];
}

export interface UploadFiles {
  forecastFromFile(file: UploadedFile, run: ForecastRun): Promise<ForecastFileResult>;
  /** A history's columns kept by its preview (forecast-preview-columns.ts), predicted and written. */
  forecastFromColumns(columns: ForecastColumns, run: ForecastRun): Promise<ForecastFileResult>;
  /** `kept` receives a forecast history's columns when the preview read them in one pass. */
  previewUpload(
    type: CalculationType,
    file: UploadedFile,
    values: Record<string, unknown>,
    bounds: PeriodBounds,
    kept?: (columns: ForecastColumns) => void,
  ): Promise<UploadPreviewView>;
}

/** The signed-in user a request acts for. Company scoping starts from here. */
export type Actor = Pick<User, "id" | "company" | "email" | "role"> & {
  /** The user as authentication read it for this request, without its password hash (get_me
   *  answers from it instead of reading the user again). */
  profile?: Omit<User, "password_hash">;
  /** This request already holds a heavy-work slot (domain/heavy-work.ts): a heavy route's may be
   *  handed on to a job or a streamed file (RouteSlot). */
  heavySlot?: boolean | RouteSlot;
};

/** The slot a heavy route took before its body and the store (http/heavy-bodies.ts, the contract's
 *  `cost`): given back when its answer is made, unless handed on first to what outlives the answer
 *  (a job, a streamed file), which then gives it back where it ends (domain/heavy-work.ts HeavySlot). */
export interface RouteSlot {
  /** The slot, now the caller's to give back; undefined once handed on. */
  handOn(): ((() => Promise<void>) & { reservations: AttemptReservation[] }) | undefined;
}

/** The acting user of a request whose route reads the user with its own first reads
 *  (domain/company/auth.ts, authenticateWithFirstRead): who the token names, and the checked user. */
export interface PendingActor {
  id: string;
  /** The token's company: it keys the reads made beside the user's. */
  company: string;
  /** The user read (its read started on the first call) and checked as authentication does. */
  actor(): Promise<Actor>;
}

/** A user already read and checked, for the routes that take a PendingActor. */
export const checkedActor = (actor: Actor): PendingActor => ({
  id: actor.id,
  company: actor.company,
  actor: () => Promise.resolve(actor),
});

/**
 * The user read beside `read` (started in the same turn, one BatchGet): the user's checks answer
 * first, so a refused user never learns what `read` found (a 404 of the project, say).
 */
export async function withActor<T>(who: PendingActor, read: Promise<T>): Promise<[Actor, T]> {
  const actor = who.actor();
  // Its failure is answered once the user has passed the checks.
  read.catch(() => undefined);
  return [await actor, await read];
}

export const systemClock: Clock = { now: () => new Date() };
