// The АГК operator's day: the operator's journal of a facility's company day
// (GET v1/telemetry/journal/), the gassings the rules make the dispatcher register
// (GET v1/telemetry/gassings/, POST v1/telemetry/gassings/{id}/register/) and, the gassing
// book («Книга учета загазирований»): each entry's cause, type, losses, who cleared the gas and who
// investigated, the measures, the confirmations of the section's head, the head of the АБ section and
// the chief engineer (POST v1/telemetry/gassings/{id}/confirm/), and the book as xlsx and PDF.
import * as z from "zod";
import { LIMITS } from "./limits";
import { idString, isoDate, processingSchema } from "./common";
import { isoTime } from "./dates";

import { NOTIFICATIONS, NOTIFICATION_LABELS } from "@core/monitoring-events";
import { SUSPECT_REASONS, type SuspectReason } from "@core/monitoring-suspect";
import {
  DUTIES,
  DUTY_LABELS,
  GASSING_TYPES,
  GASSING_TYPE_LABELS,
  ONSETS,
  ONSET_LABELS,
  gassingDurationText,
  type GassingType,
} from "@core/gassing-book";
import { LIMIT_STANDINGS, METHANE_PLACES } from "@core/methane-limits";

export { NOTIFICATIONS, NOTIFICATION_LABELS };

export { GASSING_TYPES, GASSING_TYPE_LABELS, gassingDurationText, type GassingType };

/** What the book asks before an entry is closed: the closing's refusal at each empty one, in Russian. */
export const CLOSING_FIELDS = {
  cause: "не указана причина загазирования",
  type: "не указан вид загазирования (технологическое или аварийное)",
  measures: "не указаны принятые меры",
  onset: "резкий рост / за пределом шкалы: не указано, внезапный выброс это, отказ датчика или другое",
  correction_reason: "показания исправлены после обнаружения: не указана причина (например, «ложное срабатывание: …»)",
} as const;

const bookText = (max: number) => z.optional(z.string("ожидается строка").max(max, `не длиннее ${max.toLocaleString("ru-RU")} символов`));
/** an instant the book keeps (when the gas was cleared, when work resumed), ISO 8601. */
const bookInstant = (what: string) => z.optional(isoTime(`${what}: ожидается момент ISO 8601`));
const loss = (what: string) =>
  z.optional(z.number(`${what}: ожидается число`).check(z.gte(0, `${what}: не меньше 0`), z.lte(1e6, `${what}: не больше 1 000 000`)));

const lossesSchema = z.object({
  development_m: z.nullable(z.number()).meta({ description: "Development (проходка) lost, m; null: never entered (printed «—»)" }),
  coal_t: z.nullable(z.number()).meta({ description: "Coal output lost, t; null: never entered (printed «—»)" }),
});

const confirmationSchema = z.nullable(
  z.object({
    by: z.string().meta({ description: "Surname and initials of the user with that duty" }),
    at: z.string(),
  }),
);

/** when an addressee was notified and by whom; null: not notified. */
const noticeSchema = z.nullable(
  z.object({
    at: z
      .string()
      .meta({ description: "When they were notified (ISO); a tick kept before an earlier release reads the registration's time" }),
    by: z.nullable(z.string()).meta({ description: "Who notified them (surname and initials, as written); null: not given" }),
  }),
);

const notifiedSchema = z.object({
  chief_engineer: noticeSchema,
  head_ab: noticeSchema,
  head_section: noticeSchema,
  rostekhnadzor: noticeSchema,
});

/** an addressee's notification as given: `{at, by?}`; null or false: not notified (until the
 *  entry is closed); true (the form before an earlier release, kept for compatibility): now, by the signed-in user. */
const noticeInput = z.optional(
  z.union(
    [
      z.boolean(),
      z.null(),
      z.object({
        at: isoTime("когда оповещен: ожидается момент ISO 8601"),
        by: bookText(LIMITS.text.companyText).meta({ description: "Who notified them: surname and initials" }),
      }),
    ],
    "ожидается {at, by?} (когда и кем оповещен), null или true/false",
  ),
);

/** D97: a gassing's start, end and maximum as a correction compares them. */
const figuresSchema = z.object({
  start: z.string().meta({ description: "ISO instant: its first minute at or above the norm" }),
  end: z.nullable(z.string()).meta({ description: "ISO instant: the first of the 2 minutes below; null while it lasts" }),
  max: z.number().meta({ description: "Its highest minute mean, % vol" }),
});

/** D89, D97: a correction of the readings after the gassing was found. */
const correctionSchema = z.object({
  at: z.string().meta({ description: "When the correcting readings were written (ISO)" }),
  batch: z.nullable(z.string()).meta({ description: "D97: the batch (a push or a file) whose readings corrected it; null: not kept" }),
  batches: z.array(z.string()).meta({ description: "The batches (or parts of a file's batch) whose readings corrected it" }),
  sent_by: z.nullable(z.string()).meta({ description: "Who sent them: a user's surname and initials, or «ключ шлюза «…»»" }),
  before: figuresSchema.meta({ description: "The gassing as found (the entry's figures)" }),
  after: z.nullable(figuresSchema).meta({
    description:
      "D97: the gassing the corrected readings give over the entry's span (earliest start, latest end, highest maximum); null only when no minute reaches the norm; equal to `before` where a batch restored the readings",
  }),
  after_closing: z.boolean().meta({
    description: "D97: written after the entry was closed: the entry keeps its closed figures and lists it «после закрытия»",
  }),
});

/** D97: an entry the platform opened before D97 for the same gassing after a correction moved its start. */
const splitEntrySchema = z.object({
  id: z.string(),
  start: z.string(),
  end: z.nullable(z.string()),
  max: z.number(),
  found_at: z.nullable(z.string()),
  registered_by: z.nullable(z.string()).meta({ description: "Surname and initials; null: not registered" }),
  registered_at: z.nullable(z.string()),
  closed: z.boolean(),
  closed_by: z.nullable(z.string()),
  closed_at: z.nullable(z.string()),
});

export const gassingSchema = z.object({
  id: z.string().meta({ description: "Stable: the same minutes give the same gassing" }),
  facility: z.string(),
  start: z.string().meta({ description: "ISO instant: the first minute mean at or above the limit" }),
  end: z.nullable(z.string()).meta({ description: "ISO instant: the first of the 2 valid minutes below; null while it lasts" }),
  max: z.number().meta({ description: "The highest minute mean of every reading (D88), % vol" }),
  over_span: z.nullable(z.number()).meta({
    description: "D88: the meter's span, % vol, where the maximum is past it (printed «более 4 % (за пределом шкалы)»); null within it",
  }),
  sudden: z.boolean().meta({
    description:
      "D88: a minute of it jumped over the kind's step or read past the span (D58 sets it aside for the volumes, the book reads it): «резкий рост / за пределом шкалы: внезапный выброс или отказ датчика?»; closing asks `onset`",
  }),
  max_at: z.string(),
  sensors: z.array(z.string()).meta({ description: "The sensors' codes, by code" }),
  places: z.array(z.string()).meta({ description: "each sensor's place in words, as `sensors`; empty where not known" }),
  doubt: z.nullable(z.string()).meta({
    description:
      "D94, in the book's and the journal's lists: its sensors' minutes «под сомнением» during it (after a failed check until " +
      "the next passed one, or out of verification; kept and used), «М-7: показания под сомнением: … — 120 мин»; null when none",
  }),
  limits: z.array(z.number()).meta({ description: "Each sensor's norm, % vol, by where it hangs (D87): never its W/A setpoints" }),
  working: z.string().meta({ description: "The sensors' workings, by name; empty when none" }),
  section: z.string().meta({
    description: "The extraction section or development working its sensors were grouped by (their working where none); empty when none",
  }),
  kind: z.enum(["общее", "местное"]).meta({
    description: "общее: two or more АГК sensors of one development working or one extraction section above the norm at once; местное: one",
  }),
  carried_over: z.boolean().meta({ description: "It began before the period listed (a day of the journal) and was in force in it" }),
  duration_min: z.nullable(z.int()).meta({ description: "Minutes from start to end; null while it lasts" }),
  found_at: z.nullable(z.string()).meta({
    description: "D89: when the readings first gave it (ISO): the entry is kept from then; null on an entry made before an earlier release",
  }),
  corrections: z.array(correctionSchema).meta({
    description:
      "D89, D97: each later correction of the readings that moved its start, end or maximum, or removed it, in order; the entry keeps start, end and max as found («показания исправлены после обнаружения»), a closed one as closed",
  }),
  split_entries: z.array(splitEntrySchema).meta({
    description:
      "D97: entries opened before D97 for this same gassing (its meters, its minutes) after a correction moved its start, «создана исправлением показаний»: kept with their registrations, shown in this one row",
  }),
  correction_reason: z.string().meta({ description: "D89: why a corrected entry is closed («ложное срабатывание: …»)" }),
  registered_by: z.nullable(z.string()).meta({ description: "Surname and initials, never the e-mail; null: not registered yet" }),
  registered_at: z.nullable(z.string()),
  notified: notifiedSchema,
  comment: z.string(),
  cause: z.string(),
  type: z.nullable(z.enum(GASSING_TYPES)),
  onset: z.nullable(z.enum(ONSETS)).meta({ description: "D88: what a sudden gassing was: outburst, sensor_fault, other; null: not given" }),
  losses: lossesSchema,
  cleared_by: z.string().meta({ description: "Who cleared the gas (free text: names, positions)" }),
  cleared_at: z.nullable(z.string()).meta({ description: "when the gas was cleared (ISO); null until given" }),
  resumed_at: z.nullable(z.string()).meta({ description: "when work resumed (ISO); null until given" }),
  investigated_by: z.string().meta({ description: "Who investigated the cause" }),
  measures: z.string(),
  closed: z.boolean(),
  closed_by: z.nullable(z.string()).meta({ description: "Surname and initials" }),
  closed_at: z.nullable(z.string()),
  confirmations: z.object({ head_section: confirmationSchema, head_ab: confirmationSchema, chief_engineer: confirmationSchema }),
});

/** A field a body does not have is refused naming it, never quietly dropped (as the checks' and the
 *  handovers' bodies): a misspelt addressee answered 200 and recorded nothing. */
const unknownIn = (what: string) => (issue: z.core.$ZodRawIssue) =>
  issue.code === "unrecognized_keys" ? `такого поля нет у ${what}: ${(issue.keys as string[]).join(", ")}` : undefined;

export const gassingRegisterSchema = z.strictObject(
  {
    notified: z
      .optional(
        z.strictObject(
          {
            chief_engineer: noticeInput,
            head_ab: noticeInput,
            head_section: noticeInput,
            rostekhnadzor: noticeInput,
          },
          { error: unknownIn("оповещений (chief_engineer, head_ab, head_section, rostekhnadzor)") },
        ),
      )
      .meta({ description: "Each addressee's notification; absent (a close-only or a fill-in body): as kept" }),
    comment: bookText(LIMITS.text.comment),
    cause: bookText(LIMITS.text.comment),
    type: z.optional(z.enum(GASSING_TYPES, `вид загазирования: ${GASSING_TYPES.join(", ")}`)),
    onset: z.optional(
      z.enum(ONSETS, `резкий рост: ${ONSETS.map((o) => `${o} (${ONSET_LABELS[o]})`).join(", ")}`).meta({
        description: "D88: what a sudden gassing was; closing such an entry needs it",
      }),
    ),
    losses: z.optional(
      z.strictObject(
        { development_m: loss("потери проходки, м"), coal_t: loss("потери добычи, т") },
        { error: unknownIn("потерь (development_m, coal_t)") },
      ),
    ),
    cleared_by: bookText(LIMITS.text.companyText),
    cleared_at: bookInstant("когда разгазировано"),
    resumed_at: bookInstant("когда возобновлены работы"),
    investigated_by: bookText(LIMITS.text.companyText),
    measures: bookText(LIMITS.text.comment),
    correction_reason: bookText(LIMITS.text.comment).meta({ description: "D89: a corrected entry's reason; closing it needs one" }),
    close: z.optional(z.boolean("ожидается true или false")),
  },
  { error: unknownIn("записи книги загазирований") },
);

/** a confirmation of a closed entry by the user who has that duty. */
export const gassingConfirmSchema = z.object({
  duty: z.enum(DUTIES, `подтверждает: ${DUTIES.map((d) => `${d} (${DUTY_LABELS[d]})`).join(", ")}`),
});

const facilityParam = idString("укажите площадку").meta({ description: "Facility id" });
const format = z.optional(z.enum(["xlsx", "pdf"], "xlsx или pdf")).meta({ description: "none: JSON; xlsx or pdf: the file" });

export const journalQuerySchema = z.object({
  facility: facilityParam,
  date: isoDate().meta({
    description:
      "D99: the shift day's date, ГГГГ-ММ-ДД on the company's clock: the journal runs from that day's first shift's start to the next day's",
  }),
  format,
});

export const gassingListQuerySchema = z.object({
  facility: facilityParam,
  from: isoDate().meta({ description: "The first company day" }),
  to: isoDate().meta({ description: "The last company day (inclusive)" }),
  format: z.optional(z.enum(["xlsx", "pdf"], "xlsx или pdf")).meta({ description: "none: JSON; xlsx or pdf: the gassing book" }),
});

/** The limit a sensor is read against and where it comes from. */
export const limitSourceSchema = z.object({
  by: z.enum(["alarm", "place"]).meta({
    description:
      "place: a methane meter's norm by where it hangs (D87; its kind and W/A never choose it); alarm: the register's A of a meter of another gas",
  }),
  place: z
    .nullable(z.enum(METHANE_PLACES))
    .meta({ description: "The norm's row (D87) a methane meter is read against; null for another gas's A" }),
  act: z.nullable(z.string()).meta({ description: "The act of the place's limit (null for the sensor's own A)" }),
  point: z.nullable(z.string()),
  edition: z.nullable(z.string()),
  text_read: z.boolean(),
  standing: z.nullable(z.enum(LIMIT_STANDINGS)),
});

export const journalSensorSchema = z.object({
  sensor: z.string(),
  code: z.string(),
  kind: z.string(),
  working: z.string(),
  place: z.string().meta({ description: "Where in its working it hangs (the register's place, in words)" }),
  warning: z.nullable(z.number()),
  alarm: z.nullable(z.number()),
  unit: z.string().meta({ description: "The unit of its figures (% об. for methane, oxygen, carbon dioxide; ppm for carbon monoxide)" }),
  limit: z.nullable(z.number()).meta({
    description:
      "The limit it is read against: a methane meter's norm by its place (D87), another gas's A, in its unit; null: none (another gas without A)",
  }),
  limit_source: z.nullable(limitSourceSchema).meta({ description: "Where the limit comes from; null without a limit" }),
  hourly: z.array(z.nullable(z.number())).meta({
    description:
      "Each hour's mean of valid minute means (D59), in its unit, indexed by the wall hour (0–23) it starts at: the shift day's hours (D99), so with a first shift at 08:00 index 2 is 02:00–03:00 of the next calendar day",
  }),
  shifts: z.array(z.nullable(z.number())),
  day: z.nullable(z.number()).meta({ description: "D99: «за сутки», the shift day's mean of valid minute means" }),
  completeness: z.number().meta({ description: "Valid minutes / the day's minutes up to now, 0–1" }),
  checks: z.array(z.string()).meta({
    description:
      "D94: the sensor's record at the day's end (or now): «датчик не прошел проверку 03.03.2026», «проверка просрочена на 2 дн.»; empty when none",
  }),
  doubt: z.nullable(z.string()).meta({
    description:
      "D94: the day's minutes that are «показания под сомнением» (after a failed check until the next passed, out of verification) and why; kept and counted, never substituted; null when none",
  }),
});

/** A reading questioned (a `suspect` event) as the journal lists it (D102–D105). */
export const questionSchema = z.object({
  sensor: z.string(),
  code: z.string(),
  working: z.string(),
  reason: z.enum(SUSPECT_REASONS as [SuspectReason, ...SuspectReason[]]),
  text: z.string(),
  start: z.string(),
  end: z.nullable(z.string()),
  answer: z.nullable(z.object({ text: z.string(), by: z.string(), at: z.string() })),
});

export const journalSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  date: z.string(),
  zone: z.string(),
  running: z.boolean().meta({ description: "The day is still going: its figures are up to now" }),
  demo: z.boolean(),
  shift_list: z
    .array(
      z.object({
        number: z.int(),
        name: z.string().meta({ description: "«Смена 2 (12:00–18:00)»" }),
        from: z.string(),
        to: z.string(),
        hours: z.array(z.int()).meta({
          description:
            "D99: the shift's local hours (0–23, each its start's wall hour) in the order worked (a 02:00–08:00 shift: 2, 3, 4, 5, 6, 7); every hour of the shift day is in exactly one shift",
        }),
      }),
    )
    .meta({
      description:
        "D90, D99: the shift day's shifts by the facility's calendar in force on it (three 8-hour shifts from 00:00 without one), the last running to the next day's first shift's start; `sensors[].shifts` are their means in this order",
    }),
  sensors: z.array(journalSensorSchema),
  gassings: z.array(gassingSchema),
  questions: z.optional(z.array(questionSchema)).meta({
    description:
      "D102–D105, item 7: the day's readings questioned (suspect events), each with its answer (what was done, who, when) or null",
  }),
  processing: processingSchema,
  issued_at: z.string(),
});

export const gassingListSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  from: z.string(),
  to: z.string(),
  zone: z.string(),
  results: z.array(gassingSchema),
  processing: processingSchema,
  issued_at: z.string(),
});

export type OperatorJournal = z.output<typeof journalSchema>;
export type GassingRegister = z.output<typeof gassingListSchema>;
export type GassingRegistrationBody = z.input<typeof gassingRegisterSchema>;
export type GassingConfirmBody = z.input<typeof gassingConfirmSchema>;

/** a permissible methane concentration by place, with its act, point and edition. */
export const methaneLimitSchema = z.object({
  place: z.enum(METHANE_PLACES),
  limit_pct: z.number().meta({ description: "% vol" }),
  act: z.string(),
  point: z.nullable(z.string()).meta({ description: "The act's point (and appendix); null where it could not be read" }),
  text_read: z.boolean().meta({ description: "Whether the point and value were read in the act's text (false: not checked)" }),
  kind: z.enum(["edition", "rule"]).meta({
    description:
      "edition: the permissible concentrations of a period (one per place and day); rule: Decree 315's norm without an end date, standing where no edition holds",
  }),
  edition: z.string(),
  valid_from: z.string(),
  valid_to: z.nullable(z.string()).meta({ description: "The first day it no longer holds; null when the act names none" }),
  confirmed: z.boolean(),
  confirmed_by: z.nullable(z.string()).meta({ description: "The administrator who confirmed the edition (null: the product's own)" }),
  confirmed_at: z.nullable(z.string()),
  in_force: z.boolean().meta({ description: "It holds today on the server's clock" }),
  applied: z.boolean().meta({ description: "Today's limit of its place is read against this row" }),
  standing: z.nullable(z.enum(LIMIT_STANDINGS)).meta({
    description:
      "Why it applies today: edition (holds today), rule (Decree 315, no edition holds), last_edition (no edition or rule holds: the last one's values, not confirmed); null where it does not apply",
  }),
});

const limitPct = z.number("ожидается число, % об.").check(z.gt(0, "больше 0 % об."), z.lte(100, "не больше 100 % об."));

export const methaneLimitEditionSchema = z.object({
  act: z
    .string("укажите акт")
    .check(z.trim(), z.minLength(1, "укажите акт"), z.maxLength(LIMITS.text.methaneAct, `не длиннее ${LIMITS.text.methaneAct} символов`)),
  edition: z
    .string("укажите редакцию")
    .check(
      z.trim(),
      z.minLength(1, "укажите редакцию"),
      z.maxLength(LIMITS.text.methaneEdition, `не длиннее ${LIMITS.text.methaneEdition} символов`),
    ),
  valid_from: isoDate(),
  valid_to: z.optional(z.nullable(isoDate())),
  rows: z
    .array(
      z.object({
        place: z.enum(METHANE_PLACES, { error: `место: ${METHANE_PLACES.join(", ")}` }),
        limit_pct: limitPct,
        point: z.optional(z.nullable(z.string().max(LIMITS.text.methanePoint, `не длиннее ${LIMITS.text.methanePoint} символов`))),
      }),
    )
    .max(METHANE_PLACES.length, `не более ${METHANE_PLACES.length} мест`),
});

export type MethaneLimitRow = z.output<typeof methaneLimitSchema>;
