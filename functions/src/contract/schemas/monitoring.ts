// The mine's readings as a push sends them (POST v1/telemetry/readings/, methodology D57) and a
// batch's status (GET v1/telemetry/batches/{batch}/).
import * as z from "zod";
import { LIMITS } from "./limits";
import { idString, isoDate, pageParams, processingSchema } from "./common";
import { dayOrTime } from "./dates";
import { LIVE_FEATURE_COLUMNS } from "../live-features";
import { METHANE_KIND_NAMES, SENSOR_KIND_NAMES } from "@core/monitoring";
import { SENSOR_PLACE_NAMES } from "@core/sensor-places";
import { NORM_PLACES } from "@core/methane-limits";
import { SUSPECT_REASONS, type SuspectReason } from "@core/monitoring-suspect";

/** JSON: `{facility?, readings: [{sensor, t, value}]}`; the handler reads it line by line itself, so a
 *  bad reading is refused with its number while the others are kept (domain/monitoring/ingest/readings.ts). */
export const readingsBodySchema = z.object({
  facility: z.optional(z.string()).meta({ description: "With a user's token: the facility whose sensors these are" }),
  readings: z.array(
    z.object({
      sensor: z.string().meta({ description: "The sensor's code in the register («М-12»)" }),
      t: z.string().meta({ description: "ISO 8601 instant with its zone («2026-03-01T05:00:00Z», «…+07:00»)" }),
      value: z.number().meta({ description: "In the sensor's unit" }),
    }),
  ),
});

export const batchAcceptedSchema = z.object({
  batch: z.string(),
  status_url: z.string().meta({ description: "GET it with a user's token for the batch's state" }),
});

export const batchStatusSchema = z.object({
  batch: z.string(),
  facility: z.string(),
  state: z.enum(["queued", "done", "failed"]).meta({
    description:
      "queued: stored, not yet in the roll-ups; done: every reading applied; failed: set aside after its retries, `failure` says why (the readings it could store are applied and counted)",
  }),
  received_at: z.string(),
  lines: z.int().meta({ description: "Readings the request held" }),
  accepted: z.int().meta({ description: "New readings stored" }),
  duplicate: z.int().meta({ description: "The same (sensor, instant, value) stored before: kept once" }),
  corrected: z.int().meta({ description: "A new value for a stored (sensor, instant): the old one kept in the log" }),
  refused: z.array(z.object({ line: z.int(), reason: z.string().meta({ description: "In Russian" }) })),
  refused_values: z.optional(z.int()).meta({
    description: "A dispatch file's batch: values refused whose lines' other values were read",
  }),
  refused_lines: z.optional(z.int()).meta({ description: "A dispatch file's batch: lines refused whole (their time, their bytes)" }),
  incomplete_lines: z.optional(z.int()).meta({
    description: "A dispatch file's batch: lines with fewer cells than the header, the cells they have read",
  }),
  readings_sha256: z.string().meta({ description: "SHA-256 of the batch's accepted readings as stored" }),
  file_name: z.optional(z.string().meta({ description: "A dispatch file's batch: the file's name as uploaded" })),
  sent_by: z.optional(
    z.string().meta({
      description:
        "D89: who sent it — the user by surname and initials, or «ключ шлюза «…»» by the key's label; absent on a batch stored before, the demo's or the reconciliation's",
    }),
  ),
  failure: z.optional(z.string().meta({ description: "A failed batch: why it was not applied, in Russian" })),
});

/** GET v1/telemetry/batches/?facility=: a batch as the facility's list of loads («Загрузки АГК») gives
 *  it, newest first: its status without the refused lines, their count in their place. */
export const batchListedSchema = batchStatusSchema.omit({ refused: true }).extend({
  refused_count: z.int().meta({ description: "Lines refused (the batch's own status lists them)" }),
});

/** POST v1/telemetry/files/: a dispatch export uploaded straight to storage, named by its key. */
export const readingsFileBodySchema = z.object({
  facility: z.string("укажите площадку").min(1, "укажите площадку").max(LIMITS.id, "слишком длинный идентификатор"),
  file_upload: z
    .string("укажите ключ файла из ответа upload-url")
    .min(1, "укажите ключ файла из ответа upload-url")
    .max(LIMITS.name.file, "ожидается ключ файла из ответа upload-url"),
  name: z.optional(z.string("ожидается строка").max(LIMITS.name.file, `не длиннее ${LIMITS.name.file} символов`)),
});

/** POST v1/telemetry/reconciliations/: a dispatch export uploaded as for POST v1/telemetry/files/,
 *  compared with what is stored instead of applied. */
export const reconciliationBodySchema = readingsFileBodySchema.pick({ facility: true, file_upload: true }).extend({
  name: readingsFileBodySchema.shape.name,
});

export const RECONCILIATION_STATES = ["queued", "running", "done", "failed"] as const;
/** what a done reconciliation says of the file — nothing of it read, part of it read
 *  (never a match then), read whole and equal to the store, read whole and differing. */
export const RECONCILIATION_VERDICTS = ["match", "differences", "unread", "partly_read"] as const;

const reconciliationCounts = {
  in_file: z.int().meta({ description: "Readings the file holds (one per sensor and instant: of two, the later line's)" }),
  stored: z.int().meta({ description: "Readings stored within the file's first and last instant of each sensor" }),
  missing: z.int().meta({ description: "In the file, not stored" }),
  extra: z.int().meta({ description: "Stored within the file's first and last instant of that sensor, not in the file" }),
  different: z.int().meta({ description: "The same sensor and instant stored with another value" }),
  unread: z.optional(z.int()).meta({
    description:
      "stored at an instant the file has a line or value for that was not read (a value refused, a line cut short, a line whose time was not read, between the lines read around it): not compared, never counted `extra`; absent for none",
  }),
};

/** GET v1/telemetry/reconciliations/{id}/: a reconciliation's state and, once done, its counts per sensor and
 *  day on the company's clock. */
export const reconciliationSchema = z.object({
  id: z.string(),
  facility: z.string(),
  state: z.enum(RECONCILIATION_STATES),
  verdict: z.nullable(z.enum(RECONCILIATION_VERDICTS)).meta({
    description:
      "Once done: `unread` — no reading of the file was read (every line refused, or none), `partly_read` — lines or values were refused (`refused`; only what was read is compared), `differences` — read whole, and readings are missing, extra or different, `match` — read whole and equal to the store; null before done and when failed",
  }),
  file_name: z.string(),
  created_at: z.string(),
  from: z.nullable(z.string()).meta({ description: "The file's first reading (ISO 8601); null before done or for a file of none" }),
  to: z.nullable(z.string()).meta({ description: "The file's last reading" }),
  totals: z.object(reconciliationCounts),
  days_count: z.int().meta({ description: "Rows of sensor and day in all: `days` is the page `offset` and `limit` ask" }),
  days: z.array(
    z.object({
      sensor: z.string().meta({ description: "The sensor's id" }),
      sensor_code: z.string(),
      day: z.string().meta({ description: "yyyy-MM-dd on the company's clock" }),
      ...reconciliationCounts,
      examples: z
        .array(
          z.object({
            t: z.string(),
            file: z.nullable(z.number()).meta({ description: "The file's value (null: not in the file)" }),
            stored: z.nullable(z.number()).meta({ description: "The stored value (null: not stored)" }),
          }),
        )
        .meta({ description: `The first ${LIMITS.monitoring.reconciliationExamples} readings of the day that differ` }),
    }),
  ),
  refused_count: z.int().meta({ description: "Lines or values of the file not read (the same refusals as POST v1/telemetry/files/)" }),
  refused: z.array(z.object({ line: z.int(), reason: z.string() })),
  unknown_sensors: z.array(z.string()).meta({ description: "Codes the file names that are not in the facility's register" }),
  detail: z.optional(z.string().meta({ description: "Failed: why; done with unknown sensors: which, in Russian" })),
  fill: z.optional(batchAcceptedSchema.meta({ description: "The batch «Догрузить недостающие» made, once made" })),
});

/** GET v1/telemetry/reconciliations/{id}/'s page of rows (a 74 MB export's 7 260 rows
 *  were one answer of 9,8 MB). */
export const reconciliationQuerySchema = z.object(pageParams());

/** D63: what an accepted month holds, and whether the readings moved it since by more than 0,1 %. */
const acceptedSchema = z.object({
  calculation: z.string(),
  project: z.string(),
  ch4_t: z.number().meta({ description: "t CH4 when accepted" }),
  accepted_at: z.string(),
  accepted_by: z.string(),
  reason: z.string().meta({ description: "Why a month below 95 % completeness was accepted; empty otherwise" }),
  changed: z.boolean().meta({ description: "«данные АГК изменились после принятия»: the month now differs by more than 0,1 %" }),
  difference_pct: z.number().meta({ description: "(now − accepted) / accepted × 100" }),
  version: z.int().meta({ description: "How many times the month was accepted" }),
  again_reason: z.string().meta({ description: "Why the month was last accepted again; empty when accepted once" }),
  history: z
    .array(
      z.object({
        calculation: z.string(),
        calculation_version: z.int().meta({ description: "The calculation's version that held these figures; 0 when it was archived" }),
        ch4_t: z.number(),
        volume_thousand_m3: z.number(),
        readings_sha256: z.string(),
        accepted_at: z.string(),
        accepted_by: z.string(),
        reason: z.string(),
      }),
    )
    .meta({ description: "The earlier acceptances' figures, oldest first; their readings stay in the verification pack's store" }),
  calculation_archived: z
    .boolean()
    .meta({ description: "The calculation accepted was archived (or is gone): the month may be accepted again" }),
  year_frozen: z
    .boolean()
    .meta({ description: "The year is in review, approved or sent: a changed month is accepted again only after it is reopened" }),
});

export const offerSchema = z.object({
  point: z.string(),
  point_name: z.string(),
  month: z.string().meta({ description: "yyyy-MM on the company's clock" }),
  volume_thousand_m3: z.number(),
  ef_ch4: z.number().meta({ description: "Flow-weighted CH4 content, % vol" }),
  ch4_t: z.number(),
  minutes: z.object({ expected: z.int(), valid: z.int(), substituted: z.int(), missing: z.int() }),
  completeness: z.number().meta({ description: "(valid + substituted) / expected, 0–1" }),
  longest_gap_min: z.int(),
  readings_sha256: z.string().meta({ description: "SHA-256 of the readings used (sensor code, instant, value per line)" }),
  demo: z.boolean().meta({ description: "The readings are the demo's simulated ones: «демонстрационные данные»" }),
  in_progress: z.boolean().meta({
    description: "The month has not ended on the company's clock: shown, not offered (minutes.expected counts its minutes so far)",
  }),
  month_minutes: z.int().meta({ description: "The whole month's minutes on the company's clock" }),
  basis_asked: z.boolean().meta({
    description: "D92: the register places the drainage station's meter after a take-off: accepting the month takes `basis`",
  }),
  doubt: z
    .nullable(
      z.object({
        text: z.string().meta({ description: "«показания под сомнением: М-В — датчик не прошел проверку 03.03.2026 — 2 880 мин»" }),
        sensors: z.array(z.object({ code: z.string(), minutes: z.int(), why: z.array(z.string()) })),
      }),
    )
    .meta({
      description:
        "D94: the month's channels carry minutes after a failed check until the next passed one, or out of verification: " +
        "kept and used, never substituted; accepting the month takes `reason`",
    }),
  accepted: z.nullable(acceptedSchema),
});

/** a point's own channels (those that measure it) and what it lacks for a month. */
export const pointChannelsSchema = z.object({
  point: z.string(),
  point_name: z.string(),
  channels: z
    .array(z.object({ code: z.string(), kind: z.enum(SENSOR_KIND_NAMES), place: z.enum(SENSOR_PLACE_NAMES) }))
    .meta({ description: "The sensors in service that name the point: its month is computed from these alone" }),
  lacks: z.array(z.string()).meta({ description: "The channels it lacks for a month, in Russian; empty when it has them" }),
});

export const offerAcceptSchema = z.object({
  facility: idString("укажите площадку"),
  point: idString("укажите источник выбросов"),
  months: z
    .array(z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "месяцы в виде ГГГГ-ММ"), "укажите месяцы")
    .min(1, "укажите хотя бы один месяц")
    .max(LIMITS.monitoring.offerMonths, `не более ${LIMITS.monitoring.offerMonths} месяцев`),
  project: idString("укажите проект"),
  reason: z.optional(z.string().max(LIMITS.text.justification, `не длиннее ${LIMITS.text.justification.toLocaleString("ru-RU")} символов`)),
  basis: z.optional(
    z.enum(["gross", "net"], "ожидается gross (валовый выброс) или net (чистый выброс)").meta({
      description:
        "D92: asked only where the register places the drainage station's meter after a take-off to use (`meter_after_takeoff`); else a drainage month is gross",
    }),
  ),
});

const EVENT_KIND_NAMES = ["threshold", "stale", "forecast", "fault", "suspect"] as const;

/** D65: an event of a facility's sensor, advisory (protective cut-off stays with the mine's АГК). */
export const eventSchema = z.object({
  id: z.string().meta({ description: "Stable: the same (sensor, kind, level, start) found again has the same id" }),
  facility: z.string(),
  sensor: z.string(),
  sensor_code: z.string().meta({ description: "The sensor's code in the register at the event's start" }),
  working: z.string().meta({ description: "The sensor's working at the event's start; empty when none" }),
  kind: z.enum(EVENT_KIND_NAMES).meta({
    description:
      "threshold: a level crossed; stale: no readings; forecast: a forecast alert; fault: readings set aside (out of range, jumps); suspect: readings questioned (D102–D105), its minutes «под сомнением»",
  }),
  level: z
    .nullable(z.enum(["pre_warning", "warning", "alarm"]))
    .meta({ description: "0,9·W, W or A; null for a stale channel and a fault" }),
  threshold: z.nullable(z.number()).meta({ description: "The level's value, % vol" }),
  start: z.string().meta({ description: "ISO instant: the first minute at or above the level (stale: without a reading)" }),
  end: z.nullable(z.string()).meta({ description: "ISO instant it closed (2 minutes below, or readings back); null while open" }),
  peak: z.nullable(z.number()).meta({ description: "The highest minute mean, % vol" }),
  peak_at: z.nullable(z.string()),
  minutes_above: z
    .int()
    .meta({ description: "Minutes at or above the level (stale: minutes without a reading; fault: minutes set aside)" }),
  shift: z.object({ date: z.string(), number: z.int() }).meta({ description: "The shift it started in, on the company's clock (D64)" }),
  forecast: z
    .nullable(z.object({ horizon_min: z.int(), probability: z.number(), came_true: z.nullable(z.boolean()) }))
    .meta({ description: "A forecast event's horizon, P(C(t+h) ≥ limit), and whether the reading at t+h reached it (null until known)" }),
  fault: z
    .nullable(z.object({ range_minutes: z.int(), jump_minutes: z.int() }))
    .meta({ description: "A sensor fault's minutes set aside: out of the meter's range, and jumps larger than its step (D58)" }),
  suspect: z
    .optional(
      z.nullable(
        z.object({
          reason: z.enum(SUSPECT_REASONS as [SuspectReason, ...SuspectReason[]]).meta({
            description:
              "stuck: unchanged within one resolution step (D102); airway: less gas than upstream brings (D103); hand: a hand measurement apart (D105)",
          }),
          text: z.string().meta({ description: "«показания не меняются 360 мин», «на исходящей меньше метана, чем приносит воздух с …»" }),
          other_sensor: z.nullable(z.string()).meta({ description: "D103: the upstream meter of the pair; null otherwise" }),
          other_code: z.nullable(z.string()).meta({ description: "The other meter's code in the register" }),
          asks_hand_measurement: z
            .boolean()
            .meta({ description: "D103, D105: a hand measurement is asked at the meter (and the other one)" }),
        }),
      ),
    )
    .meta({
      description:
        "A suspect event's reason and sentence; its minutes [start, end) are «под сомнением» (D94's flag); null or absent for the other kinds",
    }),
  acknowledged_by: z.nullable(z.string()),
  acknowledged_at: z.nullable(z.string()),
  comment: z.string().meta({ description: "What was done; required when a suspect event is answered (D102–D105)" }),
});

const bound = () => z.optional(dayOrTime("A date (00:00 on the company's clock) or an ISO instant"));

export const eventListQuerySchema = z.object({
  facility: idString("укажите площадку").meta({ description: "Facility id" }),
  from: bound(),
  to: bound(),
  level: z.optional(z.enum(["pre_warning", "warning", "alarm"], "pre_warning, warning или alarm")),
  kind: z.optional(z.enum(EVENT_KIND_NAMES, "threshold, stale, forecast, fault или suspect")),
  working: z.optional(z.string().max(LIMITS.monitoring.sensorWorking, `не длиннее ${LIMITS.monitoring.sensorWorking} символов`)),
  shift: z.optional(
    z
      .string()
      .regex(/^[1-9]$/, "номер смены, 1–9")
      .meta({ description: "The shift's number on its day (D64)" }),
  ),
  limit: z
    .optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(LIMITS.monitoring.eventsPage)))
    .meta({ description: `Events of the page, at most ${LIMITS.monitoring.eventsPage} (the default)` }),
  offset: z.optional(z.coerce.number().check(z.int(), z.gte(0))).meta({ description: "Events of the order skipped: the page's first" }),
});

export const eventListSchema = z.object({
  results: z.array(eventSchema),
  count: z.int(),
  demo: z.boolean().meta({ description: "Some of the events listed come from the demo's simulated readings: «демонстрационные данные»" }),
});

export const eventAcknowledgeSchema = z.object({
  comment: z.optional(
    z.string("ожидается строка").max(LIMITS.text.comment, `не длиннее ${LIMITS.text.comment.toLocaleString("ru-RU")} символов`),
  ),
});

/** several events acknowledged at once with one comment, as a dispatcher does. */
export const EVENTS_ACKNOWLEDGED_AT_ONCE = 200;
export const eventsAcknowledgeSchema = z.object({
  events: z
    .array(idString("ожидается идентификатор события"), "укажите события")
    .min(1, "укажите хотя бы одно событие")
    .max(EVENTS_ACKNOWLEDGED_AT_ONCE, `не более ${EVENTS_ACKNOWLEDGED_AT_ONCE} событий за раз`),
  comment: eventAcknowledgeSchema.shape.comment,
});

/** a methane meter on a live tile (D64's levels, D65's staleness). */
const liveMeterSchema = z.object({
  sensor: z.string(),
  code: z.string().meta({ description: "The sensor's code in the register" }),
  kind: z.enum(METHANE_KIND_NAMES),
  place: z.enum(SENSOR_PLACE_NAMES).meta({ description: "Where it hangs: the norm it is read against is this place's (D87)" }),
  norm_place: z.nullable(z.enum(NORM_PLACES)).meta({
    description: "at place `other`, the norm's row the register names; null: the place's own (the working's at `other`)",
  }),
  value: z.nullable(z.number()).meta({
    description: "The latest reading, % vol; null without one in the last 24 h (stale_minutes then counts from its latest kept)",
  }),
  at: z.nullable(z.string()).meta({ description: "When it was read (ISO)" }),
  warning: z.nullable(z.number()),
  alarm: z.nullable(z.number()),
  state: z.enum(["none", "normal", "pre_warning", "warning", "alarm", "gassing"]).meta({
    description:
      "none: no reading, or silent (stale_minutes) with its last reading below 0,9·W — a silent meter is never normal; pre_warning ≥ 0,9·W; warning ≥ W; alarm ≥ A (D64); gassing: the gassing book holds an entry of the meter in force (D98), whatever its W and A",
  }),
  state_label: z.string().meta({
    description:
      "The state in words («норма», «нет данных 27 мин», «≥ 0,9·W (0,9 %): близко к предупредительному», «≥ W (1 %): предупредительный», «≥ A (1,5 %): аварийный», «загазирование: 0,80 % при норме 0,75 %»)",
  }),
  levels_label: z.nullable(z.string()).meta({
    description:
      "D98: in a gassing, the W/A state the reading also reached, said beside it («≥ W (0,7 %): предупредительный»); null otherwise",
  }),
  gassing_since: z.nullable(z.string()).meta({
    description: "D98: the start of the book's entry in force of the meter (ISO); null without one",
  }),
  stale_minutes: z
    .nullable(z.int())
    .meta({ description: "D65: minutes since the last reading once two expected intervals passed without one; null while fresh" }),
});

const liveFlowSchema = z.nullable(
  z.object({
    code: z.string(),
    value: z.nullable(z.number()).meta({
      description: "m³/min (an anemometer's speed × its cross-section × 60); null: the sensor sent nothing in the last 24 h",
    }),
    at: z.nullable(z.string()).meta({ description: "Its latest reading (ISO); null where none is kept" }),
    stale_minutes: z.nullable(z.int()).meta({
      description:
        "«нет данных N мин»: minutes since its latest reading once two expected intervals passed without one; null while fresh or none is kept",
    }),
  }),
);

/** D101: a channel of a working other than its methane meters and the flows the tile shows (CO, O2, CO2,
 *  another anemometer or flow meter, the shearer's run state and position, …): its latest reading and its
 *  silence, each in words. */
const liveChannelSchema = z.object({
  sensor: z.string(),
  code: z.string(),
  kind: z.enum(SENSOR_KIND_NAMES),
  kind_label: z.string().meta({ description: "The kind in words («Оксид углерода (CO)»)" }),
  unit: z.string(),
  value: z.nullable(z.number()).meta({ description: "The latest reading in its unit; null without one in the last 24 h" }),
  at: z.nullable(z.string()).meta({ description: "Its latest reading kept (ISO); null where none is kept" }),
  warning: z.nullable(z.number()),
  alarm: z.nullable(z.number()),
  stale_minutes: z.nullable(z.int()).meta({
    description:
      "Minutes since its latest reading once two expected intervals passed without one (or since the latest kept); null while fresh",
  }),
  state_label: z.string().meta({
    description:
      "Its state in words: «нет данных 21 ч», «нет показаний за сутки», «≥ A (20 ppm): аварийный» (CO and CO2 against their W and A), else «в работе»",
  }),
});

/** D65: the two alert rules' back-test on the working's own history. */
const alertRuleSchema = z.object({
  caught: z.int(),
  missed: z.int(),
  lead_median: z.nullable(z.number()).meta({ description: "Minutes before the event, median of those caught" }),
  false_per_day: z.number(),
});

const liveForecastSchema = z.object({
  horizon: z.int().meta({ description: "Minutes ahead" }),
  horizon_label: z.string(),
  model: z.object({ id: z.string(), method: z.string(), version: z.int(), label: z.string() }),
  sensor: z.string().meta({ description: "The methane meter forecast (its code)" }),
  issued_at: z.nullable(z.string()).meta({ description: "The minute it is computed from (ISO)" }),
  for: z.nullable(z.string()).meta({ description: "issued_at + horizon (ISO)" }),
  result: z.nullable(z.number()).meta({ description: "% vol; null when the latest minutes lack what the model needs" }),
  model_result: z.optional(z.nullable(z.number())).meta({
    description:
      "Where `result` is the last reading or the training mean because the model was not more accurate on the history: the model's own figure, % vol; absent otherwise",
  }),
  shown: z.optional(z.enum(["model", "persistence", "mean", "time_of_day"])).meta({
    description:
      "D108 (e): what `result` is — the model's, or where it beats no baseline the best of them: the last reading, the training mean or the time-of-day mean (the facts of the same hour on the days before); absent in a forecast stored before",
  }),
  lo: z.nullable(z.number()),
  hi: z.nullable(z.number()),
  p_exceed: z.nullable(z.number()).meta({
    description:
      "D108 (a, c): the chance (0–1) that any minute mean reaches the limit within the horizon (the window's maximum; at 0 the current value); null where it is not shown — the model not calibrated, or the chance not judged better than the base rate",
  }),
  probability: z
    .optional(
      z.object({
        event: z.optional(z.enum(["window_max", "value"])).meta({
          description: "D108 (a): the event the chance is of: any minute within the horizon (window_max), or the current value at 0",
        }),
        event_text: z.optional(z.string()).meta({ description: "the event in Russian words, as the tile says it" }),
        gain: z.optional(
          z.nullable(
            z.object({ lo: z.nullable(z.number()), hi: z.nullable(z.number()), holds: z.boolean(), blocks: z.int() }).meta({
              description:
                "D108 (b): the day-block bootstrap's 90 % interval of Brier − base Brier; the chance is shown only where it holds",
            }),
          ),
        ),
        reliable: z.boolean().meta({
          description:
            "true only where P was judged better than the base rate; false (not better, or too early to judge): the tile says why instead of showing it",
        }),
        judgement: z.enum(["better", "not_better", "too_early"]).meta({
          description: "too_early — fewer than 200 rows or 20 facts at the limit to judge on; P is not shown then either",
        }),
        brier: z.nullable(z.number()),
        base_brier: z.nullable(z.number()),
        rows: z.int(),
        events: z.int().meta({ description: "of the rows, facts at or above the limit" }),
        judged_on: z
          .nullable(z.enum(["history", "calibration"]))
          .meta({ description: "the working's facts after the model's own period, else the calibration's; null: no check at all" }),
        judged_after: z.nullable(z.string()).meta({
          description:
            "the end of the model's own period (training and calibration rows, ISO); the tile judges P and the alert rule on the working's rows after it only; null: the model keeps no date-time period",
        }),
      }),
    )
    .meta({
      description:
        "P's Brier score against the base rate's (the calibration's share of rows at the limit), and whether P is shown; absent where the model is not calibrated",
    }),
  near_limit: z
    .optional(
      z.object({
        rows: z.int(),
        coverage: z.nullable(z.number()),
        reliable: z.boolean(),
        by_forecast: z.optional(z.object({ rows: z.int(), coverage: z.nullable(z.number()) })),
        by_fact: z.optional(z.object({ rows: z.int(), coverage: z.nullable(z.number()) })),
      }),
    )
    .meta({
      description:
        "D96 (c): the interval on the working's rows after the model's own period whose forecast was at or above `warning` (`rows`, `coverage`, also `by_forecast`) and whose fact was at or above the limit (`by_fact`): how many, what share it held; reliable only where both hold 85–95 % (90 % band) on 100 and 30 rows or more. Absent without a reading",
    }),
  limit_note: z.optional(z.nullable(z.string())).meta({
    description:
      "D96 (c): «У предела прогноз занижает: в среднем на 0,30 %; ориентир — тренд, не потолок» where on those rows the forecast shown averaged below the facts at or above the limit; null otherwise",
  }),
  warning: z.optional(z.number()).meta({ description: "The meter's W (or 0,8 % without one): where «near the limit» starts" }),
  lead_note: z.optional(z.nullable(z.string())).meta({
    description:
      "«Прогноз на 1 ч не предупреждает раньше датчика: …» where on the working's rows after the model's period the forecast ≥ W warned of the onsets no earlier (median lead) than the current reading ≥ W; null otherwise",
  }),
  limit: z.number().meta({ description: "The meter's A (or 1,0 % without one)" }),
  level: z.number().meta({ description: "The interval's level, %" }),
  columns: z
    .optional(
      z.array(
        z.object({
          column: z.string().meta({ description: "x1 … x15, p_atm, or one of the model's named features" }),
          label: z.string(),
          sensor: z.nullable(z.string()),
          silent_minutes: z.optional(z.nullable(z.int())).meta({
            description:
              "minutes since its sensor's last reading once it has sent nothing for 8 minutes (the forecast is made without it); null otherwise",
          }),
        }),
      ),
    )
    .meta({
      description:
        "The data columns the model was trained on, each with the code of the sensor that feeds it; sensor null: none set, the forecast is computed without it (and note names it)",
    }),
  note: z.string().meta({ description: "Why there is no figure or interval, and the model's columns no sensor feeds; empty otherwise" }),
  notes: z.optional(z.array(z.string())).meta({
    description: "D108, item f: the same notes one by one (the tile shows each on a line of its own); absent in a forecast stored before",
  }),
  made_without: z.optional(z.array(z.string())).meta({
    description: "the codes of the sensors feeding the model that have sent nothing for 8 minutes: the forecast is made without them",
  }),
  alert: z.object({
    rule: z.enum(["forecast", "reading"]).meta({ description: "«P ≥ 0,5» is on; reading: «current ≥ 0,9·limit» alone" }),
    reason: z.string().meta({ description: "Why, from the back-test on the working's history (D65)" }),
    days: z.number().meta({ description: "Days of history the back-test read" }),
    events: z.int(),
    forecast: z.nullable(alertRuleSchema),
    reading: z.nullable(alertRuleSchema),
    raised: z.boolean().meta({ description: "The rule on is raised now" }),
  }),
});

export const liveTileSchema = z.object({
  working: z.string().meta({ description: "The working the tile's sensors belong to; empty for a place's tile" }),
  place: z.nullable(z.enum(SENSOR_PLACE_NAMES)).meta({
    description:
      "the place of a tile of sensors without a working (the shaft's, the drainage line's, the main return's): its methane meters and flows, no forecast; null for a working's tile",
  }),
  meters: z.array(liveMeterSchema),
  air_flow: liveFlowSchema.meta({ description: "The working's air flow, m³/min" }),
  drainage_flow: liveFlowSchema.meta({ description: "The drainage mixture flow, m³/min" }),
  channels: z.array(liveChannelSchema).meta({
    description: "D101: every other active channel of the working the register holds, by code; empty on a place's tile",
  }),
  forecasts: z.array(liveForecastSchema),
  forecast_note: z.string().meta({ description: "«Модель прогноза не выбрана…» when none is bound; empty otherwise" }),
  updated_at: z.nullable(z.string()).meta({ description: "The latest reading of any of its sensors (ISO)" }),
});

export const liveViewSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  now: z.string(),
  tiles: z.array(liveTileSchema),
  processing: processingSchema,
  advisory: z.string(),
  etag: z.string().meta({ description: "Changes whenever a tile does (the ETag header)" }),
});

/** D106: a meter on a section's scheme. */
const schemeMeterSchema = z.object({
  sensor: z.string(),
  code: z.string(),
  kind: z.enum(SENSOR_KIND_NAMES),
  kind_label: z.string(),
  place: z.enum(SENSOR_PLACE_NAMES),
  place_label: z.string(),
  order: z.int().meta({ description: "D103: its position on the air path (the register's `airflow_order`, else its place's)" }),
  fresh_air_joins: z.boolean().meta({ description: "D103: fresh air enters before it (a junction drawn before the meter)" }),
  value: z.nullable(z.number()).meta({ description: "The latest reading in the kind's unit; null without one" }),
  value_text: z.string().meta({ description: "«0,37 % об.», «—»" }),
  at: z.nullable(z.string()),
  state: z.enum(["normal", "pre_warning", "warning", "alarm", "gassing", "silent"]).meta({
    description: "silent (D65) before gassing (an open entry of the book, D98) before the levels (0,9·W, W, A); normal otherwise",
  }),
  state_label: z.string(),
  questioned: z.nullable(z.string()).meta({
    description: "D102–D105: the sentence of an open (or unanswered, the last day) suspect event on it or naming it; null otherwise",
  }),
  out_of_verification: z.nullable(z.string()).meta({ description: "D94: «вне поверки с ДД.ММ.ГГГГ»; null while verified" }),
});

/** D106: the facility's sections drawn in airflow order. */
export const schemeSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  now: z.string(),
  sections: z.array(
    z.object({
      name: z.string().meta({ description: "The section (else the working) the path is of; «Крыло, ствол» for the mine's returns" }),
      mine_returns: z.boolean().meta({ description: "The path of the wing return and shaft meters without a section" }),
      meters: z.array(schemeMeterSchema).meta({ description: "In airflow order (D103): from the air entering to the return" }),
      shearer: z
        .nullable(
          z.object({
            run_code: z.nullable(z.string()),
            running: z.nullable(z.boolean()).meta({ description: "The run channel's latest reading is 1; null without one" }),
            position_code: z.nullable(z.string()),
            position_m: z.nullable(z.number()).meta({ description: "The shearer's position along the face, m" }),
          }),
        )
        .meta({ description: "The section's shearer (its `run_status` and `shearer_position` channels); null without them" }),
    }),
  ),
  advisory: z.string(),
});

export const liveBindingSchema = z.object({
  working: z.string(),
  horizon: z.int(),
  method: z.enum(["xgboost", "lightgbm"]),
  model: z.string(),
  sensor: z.nullable(z.string()),
  features: z.optional(z.partialRecord(z.enum(LIVE_FEATURE_COLUMNS), z.string())).meta({
    description:
      "The sensor each data column is read from where the binding sets it (x2, x12, x13, p_atm have no default; x1, x7, x8, x15 default to the working's first sensor of their kind)",
  }),
  channels: z.optional(z.record(z.string(), z.string())).meta({
    description: "the sensor of the working each of the model's named features (its `features`) is read from, by the feature's name",
  }),
  bound_at: z.string(),
  bound_by: z.string(),
});

export const liveBindBodySchema = z.object({
  facility: idString("укажите площадку"),
  working: z.string("укажите выработку").min(1, "укажите выработку"),
  horizon: z.int("горизонт прогноза в минутах"),
  method: z.optional(z.enum(["xgboost", "lightgbm"], { error: "xgboost или lightgbm" })),
  model: z.nullable(idString("выберите модель прогноза или null, чтобы снять ее")),
  sensor: z.optional(z.nullable(idString())),
  features: z.optional(
    z.partialRecord(
      z.enum(LIVE_FEATURE_COLUMNS, { error: `столбцы ${LIVE_FEATURE_COLUMNS.join(", ")}` }),
      idString("укажите датчик столбца"),
    ),
  ),
  channels: z.optional(
    z.record(z.string(), idString("укажите датчик выработки")).meta({
      description: "The sensor of the working each of the model's named features is read from, by the feature's name: every one, required",
    }),
  ),
});

/** A shift's report: the facility, the local date and the shift's number on it (D64), the file's format. */
export const shiftReportQuerySchema = z.object({
  facility: idString("укажите площадку").meta({ description: "Facility id" }),
  date: isoDate().meta({ description: "The shift's local date, ГГГГ-ММ-ДД on the company's clock" }),
  shift: z
    .string("укажите номер смены")
    .regex(/^[1-9]$/, "номер смены, 1–9")
    .meta({ description: "The shift's number on its date" }),
  format: z.optional(z.enum(["xlsx", "pdf"], "xlsx или pdf")).meta({ description: "xlsx (default) or pdf" }),
});

/** a working's last 24 h for its chart: each methane meter's minute means with its levels, and
 *  each bound model's forecasts over the same rows (each at the time it is for) with their interval. */
export const liveChartSchema = z.object({
  working: z.string(),
  from: z.string(),
  to: z.string(),
  meters: z.array(
    z.object({
      code: z.string(),
      warning: z.nullable(z.number()),
      alarm: z.nullable(z.number()),
      t: z.array(z.string()).meta({ description: "Minutes with a valid mean (ISO)" }),
      v: z.array(z.number()).meta({ description: "Their means, % vol" }),
      gassing: z
        .nullable(
          z.object({
            since: z.string().meta({ description: "The book's entry's start (ISO)" }),
            norm: z.number().meta({ description: "The norm of the meter's place, % vol (D87)" }),
            label: z.string().meta({ description: "«загазирование: 0,80 % при норме 0,75 %»" }),
          }),
        )
        .meta({ description: "D98: the gassing book's entry of the meter in force now, as the tile says it; null without one" }),
    }),
  ),
  forecasts: z.array(
    z.object({
      horizon: z.int(),
      horizon_label: z.string(),
      sensor: z.string(),
      t: z.array(z.string()).meta({ description: "The time each forecast is for (issued + horizon, ISO)" }),
      result: z.array(z.nullable(z.number())),
      lo: z.array(z.nullable(z.number())),
      hi: z.array(z.nullable(z.number())),
    }),
  ),
});
