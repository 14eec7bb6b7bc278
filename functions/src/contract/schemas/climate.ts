// A climate project's shapes (methodology section 13, D67–D80): the stateless evaluation of a
// monitoring period from its devices' minutes (POST v1/climate-projects/evaluate/), in the names of
// section 13.6's JSON block. The core (wasm-core/src/climate-project.ts) checks the figures and their
// order (segments of an hour from minute 0 to 60, a flare's efficiency option, the NMHC rule).
import * as z from "zod";
import { PERIOD_ACTION_NAMES } from "@core/climate-approval";
import { DEVICE_KIND_EXPECTED, DEVICE_KINDS } from "@core/climate-devices";
import { CLIMATE_DEFAULTS, ETA_OPTIONS, FLOW_BASES, MAX_PERIOD_HOURS } from "@core/climate-project";
import { SENSOR_KIND_NAMES, SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import { idString, isIsoDate, isoDate, requiredName } from "./common";
import { LIMITS } from "./limits";
import { DEVIATION_CODES } from "../climate-deviations";

/** «1 000 000», «−100» for a bound's message. */
const bound = (n: number) => n.toLocaleString("ru-RU").replace(/\s/g, "\u00A0").replace("-", "−");
/** a figure from −`max` to `max` (or `min`…`max`), a 400 naming the field past it:
 *  a flow of 1e308 once answered 200 with null totals. */
const within = (min: number, max: number) =>
  z
    .number()
    .gte(min, `не меньше ${bound(min)}`)
    .lte(max, `не больше ${bound(max)}`);
/** A minute's or an hour's figure within what a meter of its kind can send at all (SENSOR_KINDS'
 *  `possible`, @core/monitoring: the readings' push refuses the same). */
const reading = (kind: SensorKind, description: string) => {
  const { min, max } = SENSOR_KINDS[kind].possible;
  return within(min, max).nullable().optional().meta({ description, minimum: min, maximum: max });
};
/** A period's or a parameter's figure: far past any mine's, short of what the core's sums hold. */
const FIGURE_MAX = 1e12;
const figure = (description: string) =>
  within(-FIGURE_MAX, FIGURE_MAX).nullable().optional().meta({ description, minimum: -FIGURE_MAX, maximum: FIGURE_MAX });
const minute = z.int().gte(0, "минута от 0 до 60").lte(60, "минута от 0 до 60");

export const climateSegmentSchema = z.object({
  from: minute.meta({ description: "the segment's first minute of the hour" }),
  to: minute.meta({ description: "the minute after its last" }),
  q: reading("flow", "mixture flow, m³/min at the device's flow basis"),
  c: reading("methane_high", "CH4, % vol (dry)"),
  p: reading("pressure", "gas pressure, kPa absolute (flow at actual conditions)"),
  t: reading("temperature", "gas temperature, °C (flow at actual conditions)"),
  t_eg: reading("exhaust_temperature", "exhaust temperature, °C: the minute's minimum (enclosed flare)"),
  flame: reading("flame", "1 flame proven, 0 no flame, null no valid reading (open flare)"),
  run: reading("run_status", "1 running, 0 stopped, null no valid reading (engine, boiler)"),
});

export const climateHourBlockSchema = z.object({
  label: z
    .string()
    .max(LIMITS.climate.blockLabel)
    .meta({ description: "the block's hours, «2026-06-01T00» or «2026-06-01T06..2026-06-30T23»" }),
  repeat: z.int().gte(1, "от 1 часа").lte(MAX_PERIOD_HOURS, `не более ${MAX_PERIOD_HOURS} часов`),
  segments: z
    .array(climateSegmentSchema)
    .min(1, "укажите минуты часа")
    .max(LIMITS.climate.segmentsPerHour, `не более ${LIMITS.climate.segmentsPerHour} отрезков в часе`),
  e_gen_mwh: reading("electricity", "electricity generated in the hour, MWh gross (engine)"),
  heat_gj: reading("heat", "heat delivered to consumers in the hour, GJ"),
  eta_meas: reading("destruction_efficiency", "the analyser's hourly destruction efficiency, fraction (enclosed flare, measured option)"),
});

export const climateDeviceSchema = z.object({
  id: z.string().min(1, "укажите устройство").max(LIMITS.climate.deviceId),
  kind: z.enum(DEVICE_KINDS, DEVICE_KIND_EXPECTED),
  flow_basis: z.enum(FLOW_BASES, "ожидается standard_20C, normal_0C или actual"),
  eta_option: z.enum(ETA_OPTIONS, "ожидается default или measured").nullable().optional(),
  hours: z
    .array(climateHourBlockSchema)
    .min(1, "укажите часы устройства")
    .max(LIMITS.climate.blocksPerDevice, `не более ${LIMITS.climate.blocksPerDevice} блоков часов`),
});

/** Section 13.6's parameters (each device kind's default efficiency among them), any of them overridden. */
const paramsShape = Object.fromEntries(
  Object.keys(CLIMATE_DEFAULTS).map((name) => [name, within(-FIGURE_MAX, FIGURE_MAX).optional()]),
) as Record<string, z.ZodOptional<z.ZodNumber>>;

export const climateEvaluateSchema = z.object({
  params: z.strictObject(paramsShape, "неизвестный параметр").optional().meta({ description: "section 13.6's defaults overridden" }),
  period: z.object({
    e_own_mwh: figure("own auxiliaries' electricity in the period, MWh"),
    e_grid_aux_mwh: figure("grid electricity bought for project equipment, MWh"),
    fuels: z
      .array(
        z.object({
          name: z.string().max(LIMITS.climate.fuelName),
          t: within(-FIGURE_MAX, FIGURE_MAX),
          ef_t_co2_per_t: within(-FIGURE_MAX, FIGURE_MAX),
        }),
      )
      .max(LIMITS.climate.fuels)
      .optional(),
    leakage_t_co2e: figure("leakage LE, t CO2-eq"),
    deficit_prev_t_co2e: figure("the deficit carried from the project's earlier periods, t CO2-eq"),
    nmhc_pct_vol: reading("methane_high", "non-methane hydrocarbons the gas analysis shows, % vol (over 1 % is refused)"),
  }),
  devices: z
    .array(climateDeviceSchema)
    .min(1, "укажите устройство")
    .max(LIMITS.climate.devices, `не более ${LIMITS.climate.devices} устройств`),
});

const counts = z.record(z.string(), z.int());
const n = z.number();

export const climateHourSchema = z.object({
  label: z.string(),
  repeat: z.int(),
  valid: z.boolean(),
  missing_min: counts.meta({ description: "minutes without a measured value, by gas channel (an hour not counted)" }),
  substituted_min: counts.meta({ description: "minutes filled by D71, by gas channel" }),
  v_ch4_m3: n,
  m_ch4_t: n,
  eta: n.nullable(),
  eta_basis: z.string(),
  be_ch4_t_co2e: n,
  pe_um_t_co2e: n,
  pe_md_t_co2: n,
  er_ch4_t_co2e: n,
  e_gen_mwh: n.optional(),
  e_cred_mwh: n.optional(),
  heat_gj: n.optional(),
  heat_cred_gj: n.optional(),
});

export const climateEvaluationSchema = z.object({
  rules_version: z.string().meta({ description: "the platform's rules, 2026.7" }),
  params: z.record(z.string(), n),
  totals: z.record(z.string(), n).meta({ description: "BE, PE, LE, ER, the deficit carried and carbon_units (whole tonnes)" }),
  devices: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(DEVICE_KINDS),
      summary: z.record(z.string(), n),
      blocks: z.array(climateHourSchema).meta({ description: "the figures of one hour of each block" }),
    }),
  ),
  deviations: z.array(
    z.object({
      device: z.string(),
      label: z.string().nullable(),
      hours: z.int(),
      kind: z.enum(DEVIATION_CODES),
      detail: z.record(z.string(), z.unknown()),
    }),
  ),
});

// ——— Stored climate projects (v1/climate-projects/): a company's, versioned; each device's
// meters named by their codes in the facility's sensor register (D56), bound to the kinds 13.1 asks. ———

/** Each channel of a device (13.1) and the register's sensor kinds that may serve it. */
export const CLIMATE_CHANNEL_KINDS = {
  q: ["flow"],
  c: ["methane_high", "methane"],
  p: ["pressure"],
  t: ["temperature"],
  flame: ["flame"],
  t_eg: ["exhaust_temperature"],
  run: ["run_status"],
  eta_meas: ["destruction_efficiency"],
  e_gen: ["electricity"],
  heat: ["heat"],
} as const;
export type ClimateChannel = keyof typeof CLIMATE_CHANNEL_KINDS;

const sensorCode = () =>
  z
    .string("укажите код датчика из реестра площадки")
    .check(z.trim(), z.minLength(1, "укажите код датчика из реестра площадки"), z.maxLength(LIMITS.monitoring.sensorCode));
const optionalCode = () => sensorCode().nullable().optional();

export const climateSensorsSchema = z.strictObject(
  {
    q: sensorCode().meta({ description: "mixture flow meter (kind flow)" }),
    c: sensorCode().meta({ description: "CH4 meter (methane_high or methane)" }),
    p: optionalCode().meta({ description: "gas pressure (flow at actual conditions)" }),
    t: optionalCode().meta({ description: "gas temperature (flow at actual conditions)" }),
    flame: optionalCode().meta({ description: "flame detector (open flare: required)" }),
    t_eg: optionalCode().meta({ description: "exhaust temperature (enclosed flare: required)" }),
    run: optionalCode().meta({ description: "run status (engine, boiler: required)" }),
    eta_meas: optionalCode().meta({ description: "the analyser's hourly efficiency (enclosed flare, measured option)" }),
    e_gen: optionalCode().meta({ description: "gross generation meter, MWh per hour (engine)" }),
    heat: optionalCode().meta({ description: "heat delivered to consumers, GJ per hour" }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `нет такого канала: ${issue.keys.join(", ")}` : undefined) },
);

export const climateProjectDeviceSchema = z.object({
  name: z
    .string()
    .check(z.trim(), z.maxLength(LIMITS.climate.deviceId, `не длиннее ${LIMITS.climate.deviceId} символов`))
    .optional()
    .meta({ description: "the device's name in the report («Ф-1»); by default its kind and number" }),
  point: idString().meta({ description: "the facility's emission point (drainage station) that feeds it" }),
  kind: z.enum(DEVICE_KINDS, DEVICE_KIND_EXPECTED),
  flow_basis: z.enum(FLOW_BASES, "ожидается standard_20C, normal_0C или actual"),
  eta_option: z.enum(ETA_OPTIONS, "ожидается default или measured").nullable().optional(),
  sensors: climateSensorsSchema,
});

const methodologyText = () =>
  z
    .string(`заполните поле`)
    .check(
      z.trim(),
      z.minLength(1, `заполните поле`),
      z.maxLength(LIMITS.climate.methodologyText, `не длиннее ${LIMITS.climate.methodologyText} символов`),
    );

export const climateMethodologySchema = z.object({
  code: methodologyText().meta({ description: "«CDM-ACM0008»" }),
  name: methodologyText(),
  version: methodologyText().meta({ description: "as declared at validation («08.0»)" }),
  source: methodologyText().meta({ description: "where the executor's copy comes from" }),
  tools: z
    .array(z.object({ code: methodologyText(), name: methodologyText(), version: methodologyText() }))
    .max(LIMITS.climate.tools, `не более ${LIMITS.climate.tools}`),
});

/** D51, D75: the grid's emission factor with its source — required where a period
 *  credits or buys electricity, never a default of the platform. */
const gridFactor = () =>
  z.number("ожидается число").gte(0, "не меньше 0").lte(5, "не больше 5 т CO2/МВт·ч").meta({ description: "EF_grid, t CO2/MWh" });
const gridSource = () =>
  z
    .string("ожидается текст")
    .check(
      z.trim(),
      z.minLength(1, "укажите источник EF_grid"),
      z.maxLength(LIMITS.climate.methodologyText, `не длиннее ${LIMITS.climate.methodologyText} символов`),
    );
const gridFactorFields = {
  ef_grid_t_per_mwh: gridFactor().nullable().optional().meta({
    description:
      "EF_grid, t CO2/MWh (D51, D75): required where the period credits or buys electricity (an engine's meter, an own-use meter, e_grid_aux_mwh > 0)",
  }),
  ef_grid_source: gridSource().nullable().optional().meta({ description: "where EF_grid comes from, as the report prints it" }),
};

/** The EF_grid a project proposes to its periods' form: a value and its source. */
export const climateGridDefaultSchema = z.object({ t_per_mwh: gridFactor(), source: gridSource() });

const projectFields = {
  name: requiredName("укажите название проекта", LIMITS.climate.projectName),
  facility: idString().meta({ description: "the facility (mine) whose devices and register it uses" }),
  start: isoDate().meta({ description: "the project's start, yyyy-MM-dd on the company's clock" }),
  end: isoDate().nullable().optional().meta({ description: "the end of its crediting period, yyyy-MM-dd; none: open" }),
  methodology: climateMethodologySchema,
  devices: z
    .array(climateProjectDeviceSchema)
    .min(1, "укажите устройство")
    .max(LIMITS.climate.devices, `не более ${LIMITS.climate.devices} устройств`),
  e_own_sensor: optionalCode().meta({ description: "own auxiliaries' electricity meter (kind electricity), MWh per hour" }),
  ef_grid: climateGridDefaultSchema
    .nullable()
    .optional()
    .meta({ description: "the EF_grid and its source the period form proposes (each period still states its own)" }),
};

const datesInOrder = z.superRefine<{ start?: string; end?: string | null }>((body, ctx) => {
  if (body.start && body.end && body.end < body.start) {
    ctx.addIssue({ code: "custom", message: "окончание раньше начала проекта", path: ["end"] });
  }
});

/** the assessment («Снижение выбросов») and its stream whose chosen option the project
 *  puts into practice; the project keeps that option's expected reductions. */
export const climateFromAssessmentSchema = z.object({
  assessment: idString("from_assessment.assessment").meta({ description: "a stored abatement assessment of the company" }),
  stream: z
    .string("from_assessment.stream: укажите поток")
    .min(1, "from_assessment.stream: укажите поток")
    .max(LIMITS.climate.deviceId, `from_assessment.stream: не длиннее ${LIMITS.climate.deviceId} символов`),
});

/** What a project keeps of the assessment it was started from: the option chosen for the stream and
 *  its expected reductions a year (section 11), as they were when the project was made. */
export const climateExpectedSchema = z.object({
  assessment: z.string(),
  assessment_name: z.string(),
  stream: z.string(),
  option_code: z.string(),
  option_label: z.string(),
  device_kind: z.enum(DEVICE_KINDS),
  er_t_co2e_per_year: z.number().meta({ description: "the option's expected ER, t CO2-eq a year" }),
  carbon_units_per_year: z.int(),
});

export const climateProjectBodySchema = z
  .object({
    ...projectFields,
    from_assessment: climateFromAssessmentSchema
      .optional()
      .meta({ description: "start the project from an assessment's chosen option: its expected reductions are kept with it" }),
  })
  .check(datesInOrder);

/** A field it does not know is refused, never quietly dropped. */
export const climateProjectPatchSchema = z
  .strictObject(
    {
      ...Object.fromEntries(Object.entries(projectFields).map(([key, schema]) => [key, schema.optional()])),
      archived: z.boolean().optional().meta({ description: "true: archived (listed apart, still readable); false: back" }),
      version: z.int("ожидается целое число").meta({ description: "the version read: a stale one is 409" }),
    } as {
      [K in keyof typeof projectFields]: z.ZodOptional<(typeof projectFields)[K]>;
    } & { archived: z.ZodOptional<z.ZodBoolean>; version: z.ZodInt },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "такого поля нет у проекта" : undefined) },
  )
  .check(datesInOrder);

export const climateProjectSchema = z.object({
  id: z.string(),
  company: z.string(),
  name: z.string(),
  facility: z.string(),
  start: z.string(),
  end: z.string().nullable(),
  methodology: climateMethodologySchema,
  devices: z.array(
    z.object({
      name: z.string(),
      point: z.string(),
      kind: z.enum(DEVICE_KINDS),
      flow_basis: z.enum(FLOW_BASES),
      eta_option: z.enum(ETA_OPTIONS).nullable(),
      sensors: z.record(z.string(), z.string().nullable()).meta({ description: "channel → sensor code" }),
    }),
  ),
  e_own_sensor: z.string().nullable(),
  ef_grid: climateGridDefaultSchema.nullable().optional().meta({ description: "the EF_grid the period form proposes; none: not set" }),
  expected: climateExpectedSchema
    .nullable()
    .optional()
    .meta({ description: "the assessment option it was started from and its expected reductions; none: not started from one" }),
  rules_version: z.string().meta({ description: "the platform's rules the project is computed by (2026.7)" }),
  archived: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string(),
  version: z.int(),
});

export const climateProjectSummarySchema = climateProjectSchema
  .pick({ id: true, name: true, facility: true, start: true, end: true, archived: true, updated_at: true, version: true })
  .extend({ facility_name: z.string(), devices: z.int() });

// ——— A monitoring period of a stored project (POST v1/climate-projects/{id}/periods/). ———

const WHOLE_HOUR = /^\d{4}-\d{2}-\d{2}(T\d{2}:00)?$/;

/** A whole hour on the company's clock: «2026-06-01T00:00» or a date («2026-06-01», its midnight). */
const wholeHour = () =>
  z.string("укажите час в формате ГГГГ-ММ-ДДTЧЧ:00 (время компании)").check(
    z.regex(WHOLE_HOUR, "укажите целый час в формате ГГГГ-ММ-ДДTЧЧ:00 (время компании)"),
    // The day first (its text as the domain's: «такой даты нет в календаре»), then the hour.
    z.refine((v) => !WHOLE_HOUR.test(v) || isIsoDate(v.slice(0, 10)), "такой даты нет в календаре"),
    z.refine(
      (v) => !WHOLE_HOUR.test(v) || !isIsoDate(v.slice(0, 10)) || Number(v.slice(11, 13) || 0) <= 23,
      "такого часа нет: час от 00 до 23",
    ),
  );

export const climatePeriodBodySchema = z
  .object({
    start: wholeHour().meta({
      description: "the period's first hour on the company's clock, yyyy-MM-ddTHH:00 (or a date: its midnight)",
    }),
    end: wholeHour().meta({ description: "the hour after its last, yyyy-MM-ddTHH:00 (or a date: its midnight)" }),
    period: z
      .object({
        e_grid_aux_mwh: figure("grid electricity bought for project equipment, MWh"),
        fuels: z
          .array(
            z.object({
              name: z.string().min(1, "укажите топливо").max(LIMITS.climate.fuelName),
              t: within(0, FIGURE_MAX),
              ef_t_co2_per_t: within(0, FIGURE_MAX),
            }),
          )
          .max(LIMITS.climate.fuels, `не более ${LIMITS.climate.fuels}`)
          .optional(),
        leakage_t_co2e: figure("leakage LE, t CO2-eq"),
        nmhc_pct_vol: figure(
          "non-methane hydrocarbons of the gas by its analysis, % vol (D74): over 1 % is refused «НМУВ > 1 % — методология не поддерживается»",
        ),
        ...gridFactorFields,
      })
      .optional(),
  })
  .meta({ description: "A monitoring period: [start, end) in whole hours of the company's clock" });

/** The approval a period stands under (four eyes, D20/D32/D33 as a year's): the n-th approval of the
 *  period, who and when, and the SHA-256 of the snapshot it froze (RFC 8785 JSON of the project's plan,
 *  the legal entity, the period's inputs, hours and figures). */
export const climatePeriodApprovalSchema = z.object({
  number: z.int().meta({ description: "the n-th approval of the period" }),
  at: z.string(),
  by: z.string(),
  by_name: z.string().optional(),
  sha256: z.string().meta({ description: "SHA-256 of the frozen snapshot's canonical JSON" }),
});

/** A step of the period's history. */
export const climatePeriodStepSchema = z.object({
  action: z.enum(["compute", "recompute", ...PERIOD_ACTION_NAMES]),
  by: z.string(),
  by_name: z.string().optional(),
  by_role: z.string().optional(),
  at: z.string(),
  reason: z.string().optional(),
});

/** The flag of readings written into an approved period's hours after its approval. */
export const climateReadingsChangedSchema = z.object({
  at: z.string().meta({ description: "when the readings were written (the first time since the approval)" }),
  sensors: z.array(z.string()).meta({ description: "the meters' codes whose readings in the period's hours were written" }),
});

/** POST v1/climate-projects/{id}/periods/{period}/review/: approve or withdraw the approval. */
export const climatePeriodReviewSchema = z.object({
  action: z.enum(PERIOD_ACTION_NAMES, "approve или withdraw"),
  reason: z.optional(z.string("ожидается текст").max(LIMITS.climate.reason, `не более ${LIMITS.climate.reason} символов`)),
  version: z.int("укажите версию периода"),
});

/** POST v1/climate-projects/{id}/periods/{period}/recompute/: the period computed again from the stored minutes. */
export const climatePeriodRecomputeSchema = z.object({
  version: z.int("укажите версию периода"),
  period: z
    .object(gridFactorFields)
    .optional()
    .meta({ description: "EF_grid and its source stated anew; the period's other figures stay" }),
});

export const climatePeriodSchema = climateEvaluationSchema.extend({
  id: z.string(),
  company: z.string(),
  project: z.string(),
  start: z.string().meta({ description: "yyyy-MM-ddTHH:00 on the company's clock" }),
  end: z.string(),
  start_utc: z.string(),
  end_utc: z.string(),
  hours: z.int(),
  period: z
    .record(z.string(), z.unknown())
    .meta({ description: "the period's inputs as given, with e_own_mwh from its meter and the deficit carried in" }),
  carbon_units: z.int(),
  created_at: z.string(),
  created_by: z.string(),
  computed_at: z.string().meta({ description: "when its figures were computed (created, or computed again)" }),
  computed_by: z.string().meta({ description: "who computed its figures: never its approver (four eyes)" }),
  version: z.int().meta({ description: "the period's version: an approval, a withdrawal or a recomputation asks for it" }),
  approval: climatePeriodApprovalSchema.nullable().meta({ description: "the approval it stands under, null when not approved" }),
  history: z.array(climatePeriodStepSchema).meta({ description: "computed, approved, withdrawn: who, when and why" }),
  readings_changed: climateReadingsChangedSchema
    .nullable()
    .meta({ description: "readings of its meters in its hours written after its approval: flagged, its figures unmoved" }),
  read_through: z.object({ batch: z.string(), received_at: z.string() }).nullable().optional().meta({
    description:
      "the newest batch of the facility's readings applied when its figures were computed (none: no batch yet; absent: computed before this was kept)",
  }),
});

export const climatePeriodSummarySchema = climatePeriodSchema
  .pick({
    id: true,
    project: true,
    start: true,
    end: true,
    start_utc: true,
    end_utc: true,
    hours: true,
    carbon_units: true,
    created_at: true,
    created_by: true,
    computed_at: true,
    computed_by: true,
    version: true,
    approval: true,
    history: true,
    readings_changed: true,
    read_through: true,
  })
  .extend({ totals: z.record(z.string(), z.number()) });

/** a day's stored minutes of the project's meters, which the screen's «Проверить расчет»
 *  folds and evaluates in the browser with the core's code (@core/climate-hours, @core/climate-project). */
export const climateDayMinutesSchema = z.object({
  date: z.string().meta({ description: "yyyy-MM-dd on the company's clock" }),
  start_utc: z.string().meta({ description: "ISO instant of the day's first minute" }),
  hours: z.int().meta({ description: "the day's hours on the company's clock" }),
  zone: z.string().meta({ description: "the company's clock (IANA zone), by which the hours are labelled" }),
  devices: climateProjectSchema.shape.devices,
  e_own_sensor: z.string().nullable(),
  meters: z.array(
    z.object({
      code: z.string(),
      kind: z.enum(SENSOR_KIND_NAMES),
      valid_from_utc: z.string().nullable().meta({ description: "its поверка dates as instants [from, to); null: open" }),
      valid_to_utc: z.string().nullable(),
      times: z.array(z.number()).meta({ description: "its readings in the day, in the order read: ms since the epoch" }),
      values: z.array(z.number()),
    }),
  ),
});
export type ClimateDayMinutes = z.output<typeof climateDayMinutesSchema>;
