// What a host keeps running for the domain (issue 85): its change stream, its timers and the
// long-lived objects the domain's modules use (caches, queues, watches), each named here and made by
// the host (events/runtime.ts hostRuntime, one per process or thread); the domain reaches them as
// Deps.runtime and holds none of its own, so two servers in one process (tests) share nothing.
import type { JWTPayload } from "jose";
import type * as z from "zod";
import type { GbdtModel, NearLimit, ProbabilityCheck } from "@core/gbdt";
import type { liveTileSchema, liveViewSchema } from "../contract/schemas/monitoring";
import type { ByteBudgetCache } from "../domain/byte-budget-cache";
import type { AppliedReadings, ChangeStream } from "./changes";
import type { ApprovedFigures } from "./inventory";
import type { Timers } from "./clock";
import type { ForecastColumns, ForecastKeptRow, ForecastModelVersion } from "./forecast";
import type { LiveModelBinding, MinuteReadings, MinutesHead, Sensor } from "./monitoring";

/** The host's runtime (events/runtime.ts makes one per process or thread). */
export interface Runtime extends KeptObjects {
  /** What happened, published to the host's subscribers (ports/changes.ts). */
  changes: ChangeStream;
  timers: Timers;
}

/** The objects the domain's modules keep for as long as the host runs, made empty by the host. */
export interface KeptObjects {
  /** Each signing secret imported once as a WebCrypto key (domain/signed-tokens.ts). */
  signingKeys: Map<Uint8Array, Promise<HmacKey>>;
  /** The tokens checked lately, by the token and its checks (domain/signed-tokens.ts). */
  checkedTokens: Map<string, { secret: Uint8Array; payload: JWTPayload }>;
  /** A hash of nothing at each password cost, verified against for an unknown e-mail (domain/company/passwords.ts). */
  dummyPasswordHashes: Map<number, Promise<string>>;
  /** The whole-year answers and the companies' data versions they are of (domain/heavy-reads.ts). */
  heavyReads: HeavyReads;
  /** The heavy-work slots held in this process, per user and per company (domain/heavy-work.ts). */
  heavySlotsHere: { user: Map<string, number>; company: Map<string, number> };
  /** Report files rendered at once, each company in its turn (domain/heavy-work.ts heavyFile). */
  fileTurns: CompanyTurns;
  /** The approved versions' figures read lately (domain/inventory/approved.ts). */
  approvedFigures: Map<string, ApprovedFigures>;
  /** The models parsed for scoring in this process (domain/forecast/models.ts). */
  parsedModels: ByteBudgetCache<GbdtModel>;
  /** The default lagged models, checked once (domain/forecast/models.ts). */
  laggedModels: { models?: Promise<ForecastModelVersion[]> };
  /** The columns a forecast's preview read, for its save (domain/forecast/preview-columns.ts). */
  previewColumns: PreviewColumns;
  /** The forecasts' rows and stored JSON read lately, by blob key (domain/forecast/results.ts). */
  recentForecasts: { rows: Map<string, Promise<ForecastKeptRow[]>>; json: Map<string, Promise<ForecastJson>> };
  /** The drains of the table's queue of readings, one after another (domain/monitoring/minutes/consumer.ts). */
  readingDrains: {
    chain?: Promise<DrainOutcome>;
    /** The running drain told that a batch was queued meanwhile: it reads the queue again now. */
    queuedMeanwhile?: () => void;
  };
  /** The facilities' open days whose day items written before issue 98 are moved into minutes, or being
   *  moved, by company, facility and day (domain/monitoring/minutes/minutes.ts openDayMoved). */
  movedDays: Map<string, Promise<void>>;
  /** The facilities' sensor registers read lately, by company and facility, each with the stamp it was
   *  read under (domain/monitoring/ingest/kept-register.ts). */
  sensorRegisters: Map<string, KeptRegister>;
  /** The facilities' recent minute items, by company and facility (domain/monitoring/minutes/minute-window.ts). */
  minuteWindows: Map<string, MinuteWindow>;
  /** The live tiles' watches, by company and facility (domain/monitoring/live/live-watch.ts). */
  liveWatches: Map<string, LiveWatch>;
  /** The forecaster's queue (domain/monitoring/live/forecaster.ts). */
  forecastQueue: ForecastQueue;
  /** The alert rules chosen lately, per binding and meter (domain/monitoring/live/live.ts). */
  alertRules: Map<
    string,
    {
      at: number;
      alert: Omit<LiveAlert, "raised">;
      probability: ProbabilityCheck | null;
      judged: { after: number | null; rows: number };
      near: NearLimit;
      lead: string | null;
    }
  >;
  /** What ends each open live stream (http/monitoring.ts closeLiveStreams). */
  liveStreams: Set<() => void>;
}

/** A facility's minutes a host keeps: every minute stored from `from` (UTC ms) on as of its head's
 *  version `seen`, by its first instant, but those `stale` (another wrote them, at least to the version
 *  named, since they were read: read again). `head` is the head as last read or written (what the next
 *  log is conditioned on); `logging` and `syncing` this host's logs and syncs, one after another. */
export interface MinuteWindow {
  from: number;
  seen: number;
  minutes: Map<number, MinuteReadings>;
  stale: Map<number, number>;
  /** When this host last read or wrote it (UTC ms): one unused for a while may be let go. */
  usedAt: number;
  /** The sensors' ids its minutes share (minutes/minute-window.ts withSharedSensors). */
  sensors?: string[];
  head?: MinutesHead;
  logging?: Promise<void>;
  syncing?: Promise<MinuteWindow>;
}

export type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** What the host keeps of whole-year answers: the answers, each company's data version they are
 *  of, the answers being made while a calculation write was on its way (not kept once made) and the
 *  companies' version reads in flight. */
export interface HeavyReads {
  readonly answers: ByteBudgetCache<unknown>;
  readonly keptVersion: Map<string, string>;
  readonly unsettled: Map<string, Promise<unknown>>;
  readonly versionReads: Map<string, VersionReads>;
}

/** A company's data version being read, and the read asked for after it. */
export interface VersionReads {
  current: Promise<string | undefined>;
  next?: Promise<string | undefined>;
}

/** Each company's work run at most some number at a time, the rest in the order they came. */
export interface CompanyTurns {
  run<T>(company: string, work: () => Promise<T>): Promise<T>;
  /** The company's work running now. */
  running(company: string): number;
}

/** The previews' columns by `${company}\n${upload key}`, oldest first, and their bytes. */
export interface PreviewColumns {
  kept: Map<string, KeptColumns>;
  bytes: number;
}

export interface KeptColumns {
  company: string;
  digest: string;
  columns: ForecastColumns;
  bytes: number;
  until: number;
}

/** A forecast's stored JSON with its rows' bounds (domain/forecast/rows.ts). */
export interface ForecastJson {
  json: Uint8Array;
  bounds: { starts: Uint32Array; ends: Uint32Array };
}

/** What a drain of the readings' queue leaves for later: when the earliest batch passed over for its
 *  back-off may be tried again (UTC ms), if any is. */
export interface DrainOutcome {
  retryAt?: number;
}

export type LiveView = z.output<typeof liveViewSchema>;
type LiveAlert = z.output<typeof liveTileSchema>["forecasts"][number]["alert"];

/** A facility's register as read, the stamp read before it, and when (UTC ms). */
export interface KeptRegister {
  stamp: string | undefined;
  at: number;
  sensors: Promise<readonly Sensor[]>;
}

/** What a facility's tiles are computed from: its sensors, bindings and the window's readings. */
export interface LiveInputs {
  facility: { id: string; name: string };
  sensors: Sensor[];
  bindings: LiveModelBinding[];
  readings: ReadonlyMap<string, Omit<AppliedReadings, "sensor">>;
}

/** One facility's watch, shared by every page of the host watching it. */
export interface LiveWatch {
  watchers: Set<(view: LiveView) => void>;
  inputs?: Promise<LiveInputs>;
  pending: (readonly AppliedReadings[])[];
  /** The register the latest change was applied with, taken by the next recompute. */
  register?: readonly Sensor[];
  reload: boolean;
  running?: Promise<void>;
  last?: LiveView;
  /** Recompute without a change: the clock moved («нет данных N мин»). */
  tick: boolean;
  poke: () => void;
  stop: () => void;
}

/** The facilities whose forecasts are to be computed, with their changed sensors, and the run. */
export interface ForecastQueue {
  /** By company and facility: the sensors changed, and the register the latest change was applied with. */
  pending: Map<string, { company: string; facility: string; sensors: Set<string>; register?: readonly Sensor[] }>;
  running?: Promise<void>;
}
