// A form's caps are the server's: each limit the web's forms read from limits.ts is the one the route's
// schema checks (it takes a text of that length and refuses a longer one), and the admin forms
// write no cap of their own.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { coefficientBody } from "../routes/admin";
import { ownModelBody } from "../routes/forecast-models";
import { documentCreateSchema } from "./document";
import {
  CALENDAR_DECREE_MAX,
  COEFFICIENT_REASON_MAX,
  DOCUMENT_TEXT_MAX,
  MODEL_DESCRIPTION_MAX,
  SOURCE_URL_MAX,
  UNCERTAINTY_SOURCE_MAX,
} from "./limits";
import { calendarDecreeSchema } from "./production-calendar";
import { uncertaintySchema } from "./uncertainty";

const ROOT = resolve(import.meta.dirname, "../../../..");

/** Whether the field's schema takes a text of `length` characters. */
const takes = (field: z.ZodType, length: number) => field.safeParse("я".repeat(length)).success;

describe("the forms' caps are the schemas'", () => {
  const cases: Array<[string, z.ZodType, number]> = [
    ...Object.entries(DOCUMENT_TEXT_MAX).map(([name, max]): [string, z.ZodType, number] => [
      `document ${name}`,
      documentCreateSchema.shape[name as keyof typeof DOCUMENT_TEXT_MAX],
      max,
    ]),
    ["document source_url", documentCreateSchema.shape.source_url, SOURCE_URL_MAX],
    ...Object.entries(CALENDAR_DECREE_MAX).map(([name, max]): [string, z.ZodType, number] => [
      `decree ${name}`,
      calendarDecreeSchema.shape[name as keyof typeof CALENDAR_DECREE_MAX],
      max,
    ]),
    ["coefficient reason", coefficientBody.shape.reason, COEFFICIENT_REASON_MAX],
    ["uncertainty source", uncertaintySchema.shape.source, UNCERTAINTY_SOURCE_MAX],
    ["model description", ownModelBody.shape.description, MODEL_DESCRIPTION_MAX],
  ];
  it.each(cases)("%s: takes its cap, refuses one more", (_, field, max) => {
    const url = (length: number) => `https://${"a".repeat(length - 8)}`;
    if (field === documentCreateSchema.shape.source_url) {
      expect(field.safeParse(url(max)).success).toBe(true);
      expect(field.safeParse(url(max + 1)).success).toBe(false);
      return;
    }
    expect(takes(field, max)).toBe(true);
    expect(takes(field, max + 1)).toBe(false);
  });

  it("leaves no cap or length rule written as a number in the admin forms", () => {
    const dir = join(ROOT, "web/src/features/admin");
    const literals = readdirSync(dir)
      .filter((name) => name.endsWith(".tsx") && !name.endsWith(".test.tsx"))
      .flatMap((name) =>
        [...readFileSync(join(dir, name), "utf8").matchAll(/(?:maxLength=\{|\bmin: |\bmax: |maxLength: )\d+/g)].map(
          (m) => `${name}: ${m[0]}`,
        ),
      );
    expect(literals).toEqual([]);
  });
});

/**
 * A bound written as a number where the contract's schemas, the handlers or the web's forms and lists
 * set one: a schema's `.max(…)`, `.min(…)`, `.length(…)`, `z.maxLength(…)`, `z.lte(…)` and the like, a
 * field's `maxLength`, a table's `pageSize`, a request's `limit`, a constant named as a page or a cap.
 * 0 and 1 (not empty, not negative) are no bounds of the table, nor a percentage's 100 (its message
 * says «%»), nor Math.min and Math.max.
 */
const BOUND_LITERAL =
  /(?:(?<!Math)\.(?:max|min|length)\(|z\.(?:maxLength|minLength|lte|gte|lt|gt)\(|\b(?:maxLength|minLength|pageSize|limit)\s*[=:]\s*\{?)\s*(\d[\d_]*)\b(?![^\n]*%(?:"| об\.))|\b[A-Z_]*(?:PAGE|_MAX|_MIN|LIMIT)[A-Z_]*\s*=\s*(\d[\d_]*)\s*;/g;

function boundLiterals(text: string): string[] {
  return [...text.matchAll(BOUND_LITERAL)].filter((m) => Number((m[1] ?? m[2]).replaceAll("_", "")) > 1).map((m) => m[0]);
}

/**
 * A text cut at a length (`.slice(0, N)`) or a pattern's part repeated at most N times (`{1,N}`) written
 * as a number: a stored file name, a description, an id in a storage key. Below 64 they are a format's
 * own (a date's 10 characters, a hash's 27, a cell quoted in a message at 40).
 */
const CUT_LITERAL = /\.slice\(0,\s*(\d+)\)|\{\d+,(\d+)\}/g;

function cutLiterals(text: string): string[] {
  return [...text.matchAll(CUT_LITERAL)].filter((m) => Number(m[1] ?? m[2]) >= 64).map((m) => m[0]);
}

/**
 * A named number of the domain (`const MAX_ROWS = 2_000;`, `4 * 1024`, `{ pdf: 100, xlsx: 2_000 }`) or a
 * length or count compared with a number (`.length > 200`, `.size <= 10`): where the domain keeps a bound of its own.
 * Times (`…_MS`, `…_SECONDS`, `MINUTE`), shares and probabilities (a decimal point), 0 and 1 are none.
 */
const DOMAIN_NAMED = /^(?:export\s+)?const\s+([A-Z][A-Z0-9_]*)\s*=\s*(\{(?:\s*\w+:\s*[\d_]+\s*,?)+\s*\}|[\d_\s*]+)\s*(?:as const\s*)?;/gm;
const DOMAIN_COMPARED = /\.(?:length|size)\s*[<>]=?\s*(\d[\d_]*)\b(?!\s*[*/+-])/g;

function domainNumbers(text: string): string[] {
  const named = [...text.matchAll(DOMAIN_NAMED)]
    .filter(
      ([, name, value]) =>
        !/(?:_MS|_SECONDS|^MINUTE)$/.test(name) &&
        (value.startsWith("{") ||
          Number(
            value
              .replaceAll("_", "")
              .split("*")
              .reduce((a, b) => a * Number(b), 1),
          ) > 1),
    )
    .map(([, name]) => name);
  const compared = [...text.matchAll(DOMAIN_COMPARED)].filter((m) => Number(m[1].replaceAll("_", "")) > 1).map((m) => m[0]);
  return [...named, ...compared];
}

/**
 * The domain's numbers that no user or caller meets as a bound, by why (docs/api.md, «Limits»): each
 * stays beside the code it tunes. A bound a request, an upload or a list can reach is LIMITS', never here.
 */
const NOT_LIMITS: Record<string, readonly string[]> = {
  "the dispatch export's template shows its first sensors as an example (the reader takes a column for every sensor of the register)": [
    "monitoring/ingest/dispatch-template.ts: TEMPLATE_SENSORS",
  ],
  "a file longer than the dispatch template can be is not compared with its example lines (no file is refused by it)": [
    "monitoring/ingest/dispatch-template.ts: TEMPLATE_BYTES",
  ],
  "the consumer's slices, rounds, lanes and retries, and what a stored day keeps of its corrections and batch marks (no reading is refused for them)":
    [
      "monitoring/minutes/consumer.ts: MAX_CORRECTIONS",
      "monitoring/minutes/consumer.ts: MAX_BATCH_MARKS",
      "monitoring/minutes/consumer.ts: SLICE_WRITES",
      "monitoring/minutes/consumer.ts: WRITES_AT_ONCE",
      "monitoring/minutes/consumer.ts: RETRIES",
      "monitoring/minutes/consumer.ts: DRAIN_ROUND",
      "monitoring/minutes/consumer.ts: LANES_AT_ONCE",
      "monitoring/minutes/consumer.ts: QUEUE_SCAN",
      "monitoring/minutes/consumer.ts: PASS_READINGS",
      "monitoring/minutes/consumer.ts: REANNOUNCE",
      "monitoring/ingest/reconciliation.ts: READ_WINDOW_DAYS",
      "monitoring/ingest/stored-readings.ts: MINUTES_HORIZON_DAYS",
      "monitoring/ingest/stored-readings.ts: MINUTES_KEPT_DAYS",
      "monitoring/minutes/minutes.ts: MINUTE_CORRECTIONS",
      "monitoring/minutes/minutes.ts: DAY_CORRECTIONS",
    ],
  "the bytes read at once from a stored file, or to tell its format": [
    "monitoring/ingest/dispatch-file.ts: BLOCK_BYTES",
    "monitoring/ingest/files.ts: RANGE_BYTES",
    "monitoring/ingest/files.ts: HEAD_BYTES",
    "files/direct-uploads.ts: HEAD_BYTES",
    "files/uploads.ts: VIDEO_SNIFF_BYTES",
    "files/uploads.ts: .length >= 5",
    "files/uploads.ts: .length >= 12",
    "files/uploads.ts: .length >= 4",
  ],
  "a format's own: a dispatch export's header names the time and at least one sensor": ["monitoring/ingest/dispatch-file.ts: .length < 2"],
  "what a process keeps in memory for the next request (a cache: a miss reads again)": [
    "forecast/models.ts: MODEL_CACHE_BYTES",
    "forecast/preview-columns.ts: MAX_KEPT_BYTES",
    "forecast/preview-columns.ts: MAX_KEPT_PER_COMPANY",
    "forecast/results.ts: RECENT_FORECASTS",
    "heavy-reads.ts: HEAVY_READ_CACHE_BYTES",
    "inventory/approved.ts: KEPT",
    "signed-tokens.ts: CHECKED_TOKENS",
    "monitoring/minutes/minutes.ts: MOVED_DAYS_KEPT",
    "monitoring/ingest/kept-register.ts: KEPT_REGISTERS",
    "monitoring/minutes/minute-window.ts: MINUTE_WINDOW_FACILITIES",
    "monitoring/minutes/minute-window.ts: MINUTES_LOGGED",
    "monitoring/ingest/dispatch-file.ts: .size > 10_000",
  ],
  "a page of storage read at a time, a retry's attempts, a scheduler's share (work waits, nothing is refused)": [
    "climate/periods.ts: QUEUED_LOOKUP",
    // the facility's newest batches read for those still queued («данные обрабатываются»; a count, nothing refused).
    "monitoring/ingest/processing.ts: PROCESSING_LOOKUP",
    "climate/signatures.ts: PLACE_ATTEMPTS",
    "inventory/checks.ts: NAMING_READ",
    // a detected event's write tried again after another writer's (event-writes.ts, shared by the checks).
    "monitoring/derive/event-writes.ts: WRITE_ATTEMPTS",
    "monitoring/derive/cutoff-audit.ts: WRITE_ATTEMPTS",
    // an entry's writes tried again after a dispatcher's registration (gassing-record.ts).
    "monitoring/derive/gassing-record.ts: WRITE_ATTEMPTS",
    "monitoring/derive/webhooks.ts: WEBHOOK_SENDS",
    // a check's signature tried again after another duty's given at the same moment.
    "monitoring/instruments/sensor-checks.ts: SIGN_ATTEMPTS",
    // a working's kept means written again after a conflict; a facility's workings computed four at once.
    "monitoring/live/forecast-means.ts: MEANS_TRIES",
    // how far a working's kept means may lag before a round writes them again (a cache's cadence).
    "monitoring/live/forecast-means.ts: KEEP_LAG_MINUTES",
    "monitoring/live/forecaster.ts: WORKINGS_AT_ONCE",
    "monitoring/derive/webhooks.ts: DUE_PAGE",
    "monitoring/derive/webhooks.ts: HELD_PER_COMPANY",
    // a live head's write tried again after another writer's (its next change merges it).
    "monitoring/live/live-head.ts: HEAD_TRIES",
  ],
  "how many names a message lists before «и еще N»": [
    "climate/report-missing.ts: .length > 10",
    "monitoring/minutes/consumer.ts: .length > 3",
    "monitoring/ingest/dispatch-file.ts: .length > 3",
    "monitoring/ingest/reconciliation.ts: .length > 10",
  ],
  "a rule's or a model's own figures: the regulation's term, the live model's window and step, how far back a derivation follows, a what-if's points, a secret's shown prefix":
    [
      "inventory/review.ts: REWORK_WORKING_DAYS",
      "monitoring/live/live.ts: STALE_INTERVALS",
      "monitoring/live/live.ts: LIVE_STEP_MIN",
      "monitoring/live/live.ts: LIVE_ROWS",
      "monitoring/live/live.ts: ALERT_HISTORY_DAYS",
      "monitoring/live/live.ts: SILENT_MINUTES",
      "monitoring/derive/events.ts: FOLLOW_OPEN_DAYS",
      "monitoring/derive/forecast-events.ts: FOLLOW_DAYS",
      "forecast/what-if.ts: WHAT_IF_STEPS",
      "monitoring/derive/webhooks.ts: SHOWN_PREFIX",
      "heavy-work.ts: JOB_FILE_DAYS",
      // the completed holds a server keeps to say when a refused slot is expected back.
      "heavy-work.ts: HOLDS_KEPT",
      // D93: a year's measured months below which there is no verdict (a rule of the methodology).
      "inventory/measured-vs-estimated.ts: MIN_SCOPE_MONTHS",
      // the gaps a sensor's live head keeps, the window the tiles' expected interval reads.
      "monitoring/live/live-head.ts: LIVE_HEAD_GAPS",
      // the days read beyond the longest interval for a sensor's latest check.
      "monitoring/instruments/check-states.ts: LOOKBACK_MARGIN_DAYS",
    ],
  "a format's version, a default, a hash's parameters": [
    "inventory/sums.ts: INVENTORY_SUMS_LAYOUT",
    "inventory/targets.ts: DEFAULT_SIGNIFICANCE_PCT",
    "company/passwords.ts: PASSWORD_COST",
    "company/passwords.ts: R",
    "company/passwords.ts: KEY_LENGTH",
  ],
};

describe("one table of limits", () => {
  it("finds a bound written as a number, and leaves the table's reads and arithmetic alone", () => {
    expect(boundLiterals('email: z.string("email: укажите логин").max(320, "email: слишком длинный логин"),')).toEqual([".max(320"]);
    expect(boundLiterals('z.string().check(z.maxLength(64, "facility: ожидается идентификатор площадки"))')).toEqual(["z.maxLength(64"]);
    expect(boundLiterals("<Input maxLength={500} />")).toEqual(["maxLength={500"]);
    expect(boundLiterals("pagination={{ pageSize: 10, hideOnSinglePage: true }}")).toEqual(["pageSize: 10"]);
    expect(boundLiterals("export const ENTRY_PAGE_SIZE = 3;")).toEqual(["ENTRY_PAGE_SIZE = 3;"]);
    expect(boundLiterals("const PERSON_MAX = 150;")).toEqual(["PERSON_MAX = 150;"]);
    expect(boundLiterals('.max(LIMITS.email, "слишком длинный e-mail")')).toEqual([]);
    expect(boundLiterals('.min(1, "укажите проект")')).toEqual([]);
    expect(boundLiterals("Math.max(0, Math.min(100, share))")).toEqual([]);
    expect(boundLiterals('z.lte(100, "не более 100 %")')).toEqual([]);
    expect(boundLiterals('.max(100, "от 0 до 100 % об.")')).toEqual([]);
  });

  it("finds a text cut or a pattern's repeat written as a number of 64 or more, and leaves a format's short cuts alone", () => {
    expect(cutLiterals("name: file.name.slice(0, 255),")).toEqual([".slice(0, 255)"]);
    expect(cutLiterals("const KEY_RE = /^uploads\\/([A-Za-z0-9_-]{1,64})\\/x$/;")).toEqual(["{1,64}"]);
    expect(cutLiterals("description.trim().slice(0, 500)")).toEqual([".slice(0, 500)"]);
    expect(cutLiterals("new Date(t).toISOString().slice(0, 10)")).toEqual([]);
    expect(cutLiterals("`значение «${cell.slice(0, 40)}» не число`")).toEqual([]);
    expect(cutLiterals("file.name.slice(0, LIMITS.name.file)")).toEqual([]);
    expect(cutLiterals("new RegExp(`^[A-Za-z0-9_-]{1,${LIMITS.id}}$`)")).toEqual([]);
  });

  it("no code of the server cuts a text or bounds a stored key's part at a number of its own", () => {
    const files = execFileSync("git", ["ls-files", "functions/src"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
      .filter((path) => !path.endsWith("contract/schemas/limits.ts"));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((path) => cutLiterals(readFileSync(join(ROOT, path), "utf8")).map((literal) => `${path}: ${literal}`));
    expect(found).toEqual([]);
  });

  it("no schema, handler or form of the web writes a bound as a number", () => {
    const files = execFileSync("git", ["ls-files", "functions/src/contract", "functions/src/http", "web/src"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\n")
      .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.startsWith("web/src/testing/"))
      .filter((path) => !path.endsWith("contract/schemas/limits.ts"));
    expect(files.length).toBeGreaterThan(200);
    const found = files.flatMap((path) => boundLiterals(readFileSync(join(ROOT, path), "utf8")).map((literal) => `${path}: ${literal}`));
    expect(found).toEqual([]);
  });

  it("finds the domain's named numbers and compared lengths, and leaves times, shares and the table's reads alone", () => {
    expect(domainNumbers("export const MAX_SERIES_ROWS = 2000;")).toEqual(["MAX_SERIES_ROWS"]);
    expect(domainNumbers("const BLOCK_BYTES = 256 * 1024;")).toEqual(["BLOCK_BYTES"]);
    expect(domainNumbers("export const JOB_PASSPORT_LINES = { pdf: 100, xlsx: 2_000 } as const;")).toEqual(["JOB_PASSPORT_LINES"]);
    expect(domainNumbers("if (presented.length > 200) return undefined;")).toEqual([".length > 200"]);
    expect(domainNumbers("if (this.hourStarts.size > 10_000) this.hourStarts.clear();")).toEqual([".size > 10_000"]);
    expect(domainNumbers("const fits = note.length <= 300;")).toEqual([".length <= 300"]);
    expect(domainNumbers("export const MAX_SERIES_ROWS = LIMITS.calculations.seriesRows;")).toEqual([]);
    expect(domainNumbers("if (value.length > LIMITS.id) throw invalid;")).toEqual([]);
    expect(domainNumbers("const DAY_MS = 86_400_000;\nconst MINUTE = 60_000;\nexport const UPLOAD_BUDGET_SECONDS = 20;")).toEqual([]);
    expect(domainNumbers("export const FORECAST_EVENT_P = 0.5;\nexport const HEAVY_READS_AT_ONCE = 1;")).toEqual([]);
    expect(domainNumbers("if (part.length >= 4 * PART_READINGS) flush();\nif (runs.length > 1) merge();")).toEqual([]);
  });

  it("the domain keeps no bound of its own outside the table, only the numbers no user or caller meets", () => {
    const files = execFileSync("git", ["ls-files", "functions/src/domain"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((path) => /\.ts$/.test(path) && !/\.test\.ts$/.test(path));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) =>
      domainNumbers(readFileSync(join(ROOT, path), "utf8")).map((number) => `${path.slice("functions/src/domain/".length)}: ${number}`),
    );
    const allowed = new Set(Object.values(NOT_LIMITS).flat());
    expect(found.filter((number) => !allowed.has(number))).toEqual([]);
    // The list stays what the domain holds: an entry gone from the code goes from the list.
    expect([...allowed].filter((number) => !found.includes(number))).toEqual([]);
  });
});
