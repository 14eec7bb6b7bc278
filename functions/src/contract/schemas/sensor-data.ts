// What the mine's readings give per sensor (methodology D58–D62), as the «Датчики» screens read it:
// completeness by sensor and month of a year (GET v1/facilities/{id}/sensors/completeness/), a sensor's
// gaps and substitutions in a month (…/sensors/{sensor}/gaps/) and a sensor's day minute by minute with
// its quality flags and levels (…/sensors/{sensor}/day/). Read with a user's token only.
import { SENSOR_PLACE_NAMES } from "@core/sensor-places";
import * as z from "zod";
import { SENSOR_KIND_NAMES } from "@core/monitoring";
import { LIMITS } from "./limits";
import { isoDate } from "./dates";

const minutes = z
  .object({ expected: z.int(), valid: z.int(), substituted: z.int(), missing: z.int() })
  .meta({ description: "D62: expected = the minutes in service in the period; missing = expected − valid − substituted" });

/** The sensor as the screens name it (its register as it is now). */
const sensorHead = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(SENSOR_KIND_NAMES),
  unit: z.string(),
  point: z.nullable(z.string()).meta({ description: "The emission point it measures; null: none" }),
  point_name: z.string(),
  working: z.string().meta({ description: "The working it belongs to; empty when none" }),
  section: z.string().meta({ description: "The extraction section or development working; empty when none" }),
  place: z.enum(SENSOR_PLACE_NAMES).meta({ description: "Where in the working it hangs" }),
  is_active: z.boolean(),
});

export const yearQuery = z.object({ year: z.string().regex(/^\d{4}$/, "год в виде ГГГГ") });
export const monthQuery = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "месяц в виде ГГГГ-ММ"),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(LIMITS.monitoring.gapsListed))),
  offset: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
});
export const dayQuery = z.object({
  date: isoDate(),
});

export const sensorCompletenessSchema = sensorHead.extend({
  months: z
    .array(
      z.object({
        month: z.string().meta({ description: "yyyy-MM on the company's clock" }),
        minutes,
        completeness: z.number().meta({ description: "(valid + substituted) / expected, 0–1" }),
        longest_gap_min: z.int(),
      }),
    )
    .meta({ description: "The year's months the sensor was in service in, up to now" }),
  demo: z.boolean().meta({ description: "The readings are the demo's simulated ones: «демонстрационные данные»" }),
});

export const gapSchema = z.object({
  start: z.string().meta({ description: "ISO instant of the gap's first minute" }),
  end: z.string().meta({ description: "ISO instant just after its last minute" }),
  minutes: z.int(),
  state: z
    .enum(["substituted", "missing"])
    .meta({ description: "D60: substituted, or «нет данных» (longer than 24 h, or no valid value in the month)" }),
  rule: z.enum(["mean", "first_after", "last_before", "too_long", "no_data"]).meta({
    description:
      "D60 (40 CFR 98.325(b)): mean of the valid values immediately before and after; the first after (none before); the last before (none after); too_long: over 24 h, not substituted; no_data: no valid value in the month",
  }),
  before: z.nullable(z.number()).meta({ description: "The valid minute value immediately before" }),
  after: z.nullable(z.number()).meta({ description: "The valid minute value immediately after" }),
  value: z.nullable(z.number()).meta({ description: "The value each of its minutes takes; null when not substituted" }),
  flags: z
    .object({ none: z.int(), range: z.int(), stuck: z.int(), jump: z.int() })
    .meta({ description: "D58: of its minutes, those without a reading and those flagged out of range, stuck, or a jump" }),
});

export const sensorGapsSchema = z.object({
  sensor: sensorHead,
  month: z.string(),
  minutes,
  completeness: z.number(),
  longest_gap_min: z.int(),
  gaps: z.array(gapSchema).meta({ description: `In time order, at most ${LIMITS.monitoring.gapsListed} from offset` }),
  count: z.int().meta({ description: "Every gap of the month" }),
  demo: z.boolean().meta({ description: "The readings are the demo's simulated ones: «демонстрационные данные»" }),
});

export const sensorDayViewSchema = z.object({
  sensor: sensorHead,
  date: z.string().meta({ description: "yyyy-MM-dd on the company's clock" }),
  start: z.string().meta({ description: "ISO instant of the day's first minute" }),
  window: z
    .object({ from: z.int(), to: z.int() })
    .meta({ description: "The day's minutes [from, to) the sensor was in service and that have passed: the others are not counted" }),
  levels: z.object({
    pre_warning: z.nullable(z.number()).meta({ description: "0,9·W (D64)" }),
    warning: z.nullable(z.number()).meta({ description: "W, as the register held that day" }),
    alarm: z.nullable(z.number()).meta({ description: "A, as the register held that day" }),
  }),
  value: z.array(z.nullable(z.number())).meta({ description: "Each minute's mean of its readings in range (D59); null without one" }),
  flag: z.array(z.int()).meta({ description: "Each minute's D58 flag: 0 valid, 1 out of range, 2 stuck, 3 jump, 4 no reading" }),
  used: z
    .array(z.nullable(z.number()))
    .meta({ description: "The value each minute counts with: the valid one or its substitute (D60); null when «нет данных»" }),
  state: z.array(z.int()).meta({ description: "0 valid, 1 substituted, 2 no data" }),
  summary: z.object({
    minutes,
    flagged: z.object({ range: z.int(), stuck: z.int(), jump: z.int() }),
    // two means, each named for what it is (the day's «mean» was the first, the
    // journal's the second, and both were «Среднее»).
    mean_with_substituted: z.nullable(z.number()).meta({
      description: "The mean of the day's valid and substituted minutes (D60), as the month's volume counts them",
    }),
    mean_valid: z.nullable(z.number()).meta({
      description: "The mean of the day's valid minute means only (D59), as the operator's journal gives the day",
    }),
    min: z.nullable(z.number()),
    max: z.nullable(z.number()),
    above_pre_warning: z.int(),
    above_warning: z.int(),
    above_alarm: z.int(),
  }),
  demo: z.boolean().meta({ description: "The readings are the demo's simulated ones: «демонстрационные данные»" }),
});
