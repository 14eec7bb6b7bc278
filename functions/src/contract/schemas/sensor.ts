// D56: a facility's sensor register and its gateway keys as the API accepts and answers them
// (v1/facilities/{facility}/sensors/, v1/facilities/{facility}/gateway-keys/).
import * as z from "zod";
import { SENSOR_KIND_NAMES, SENSOR_KINDS, levelProblem, type SensorKind } from "@core/monitoring";
import { SENSOR_PLACE_NAMES, SENSOR_PLACES } from "@core/sensor-places";
import { METHANE_PLACE_LABELS, NORM_PLACES } from "@core/methane-limits";
import { isoDate, requiredName } from "./common";
import { INVISIBLE } from "../certificate-text";
import { GATEWAY_KEY_LABEL_MAX, LIMITS, SENSOR_CODE_MAX, SENSOR_WORKING_MAX } from "./limits";

/** D56's roles of a sensor in the mine's АГК. */
export const SENSOR_ROLES = { signalling: "сигнализирующий", cut_off: "отключающий", recording: "регистрирующий" } as const;
export type SensorRole = keyof typeof SENSOR_ROLES;

const code = z.string("введите код датчика, как его называет АГК шахты").check(
  z.trim(),
  z.minLength(1, "введите код датчика, как его называет АГК шахты"),
  z.maxLength(SENSOR_CODE_MAX, `не длиннее ${SENSOR_CODE_MAX} символов`),
  z.refine((v) => !/[;\r\n"]/.test(v), "код не может содержать «;», кавычки и переводы строк"),
  // «а\u200Bб» read as «аб» in the register, the journal and the files.
  z.refine((v) => !INVISIBLE.test(v), "код не может содержать невидимые символы (нулевой ширины, мягкий перенос)"),
);
const kind = z.enum(SENSOR_KIND_NAMES, {
  error: `выберите вид датчика (${SENSOR_KIND_NAMES.map((k) => SENSOR_KINDS[k].label).join(", ")})`,
});
const role = z.enum(Object.keys(SENSOR_ROLES) as [SensorRole, ...SensorRole[]], {
  error: `выберите роль датчика (${Object.values(SENSOR_ROLES).join(", ")})`,
});
const level = () =>
  z.optional(
    z.nullable(
      z
        .number("ожидается число в единицах датчика (% об., ppm)")
        .check(z.gt(0, "больше 0"), z.lte(SENSOR_KINDS.carbon_monoxide.max, "не больше 1 000 000 ppm")),
    ),
  );
const area = z.optional(
  z.nullable(
    z
      .number("ожидается площадь сечения выработки, м²")
      .check(z.gt(0, "больше 0 м²"), z.lte(LIMITS.monitoring.areaM2, `не больше ${LIMITS.monitoring.areaM2.toLocaleString("ru-RU")} м²`)),
  ),
);
const conditions = z.enum(["standard", "actual"], { error: "standard (20 °C, 101,325 кПа) или actual (по датчикам P и T)" });
const serviceDate = () => z.optional(z.nullable(isoDate()));
const working = z.optional(
  z.string("ожидается строка").check(z.trim(), z.maxLength(SENSOR_WORKING_MAX, `не длиннее ${SENSOR_WORKING_MAX} символов`)),
);
/** the extraction section or development working as the mine names it («Выемочный участок 12-3»). */
const section = z.optional(
  z.string("ожидается строка").check(z.trim(), z.maxLength(SENSOR_WORKING_MAX, `не длиннее ${SENSOR_WORKING_MAX} символов`)),
);
const place = z.enum(SENSOR_PLACE_NAMES, {
  error: `выберите место датчика (${SENSOR_PLACE_NAMES.map((p) => SENSOR_PLACES[p]).join(", ")})`,
});
/** the norm's row a methane meter at «другое место» is read against (D87); null: the working's. */
const normPlace = z.optional(
  z.nullable(
    z.enum(NORM_PLACES, {
      error: `выберите норму загазирования (${NORM_PLACES.map((p) => `${p}: ${METHANE_PLACE_LABELS[p]}`).join(", ")})`,
    }),
  ),
);
/** D103: the meter's position on its section's air path (the place's by default: face 10, 10–20 m 20, the
 *  longwall's return 30, the section's 40, wing 50, shaft 60); null: its place's. */
const airflowOrder = z.optional(
  z.nullable(
    z
      .int("ожидается целое число: порядок датчика по струе")
      .check(
        z.gte(0, "порядок по струе — от 0"),
        z.lte(LIMITS.monitoring.airflowOrder, `порядок по струе — не больше ${LIMITS.monitoring.airflowOrder}`),
      ),
  ),
);
/** D103: fresh air enters before this meter (the pair it closes is not compared). */
const freshAirJoins = z.optional(z.boolean("ожидается да или нет: поступает ли свежий воздух перед датчиком"));

/** a row is named only for a meter at «другое место»: every other place has its own. */
export const NORM_PLACE_NOT_OTHER = "норма указывается только для места «Другое место»: у остальных мест норма своя (D87)";
/** Optional: a channel names a point only where it measures that point. */
const point = z.optional(
  z.nullable(z.string("выберите источник выбросов площадки").check(z.minLength(1, "выберите источник выбросов площадки"))),
);

interface SensorRules {
  kind?: string;
  place?: string;
  norm_place?: string | null;
  warning?: number | null;
  alarm?: number | null;
  area_m2?: number | null;
  in_service_from?: string | null;
  in_service_to?: string | null;
}
const rules = z.superRefine<SensorRules>((s, ctx) => {
  if (s.in_service_from && s.in_service_to && s.in_service_to < s.in_service_from) {
    ctx.addIssue({ code: "custom", message: "дата вывода из эксплуатации раньше даты ввода", path: ["in_service_to"] });
  }
  // A patch without its kind is checked against the stored kind (ingest/register.ts, checkedRegister).
  for (const level of ["warning", "alarm"] as const) {
    const value = s[level];
    const problem = s.kind && value != null ? levelProblem(s.kind as SensorKind, value) : undefined;
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: [level] });
  }
  if (s.warning != null && s.alarm != null && s.alarm < s.warning) {
    ctx.addIssue({ code: "custom", message: "аварийный уровень ниже предупредительного", path: ["alarm"] });
  }
  // A patch without its place is checked against the stored place (ingest/register.ts, checkedRegister).
  if (s.norm_place && s.place && s.place !== "other") {
    ctx.addIssue({ code: "custom", message: NORM_PLACE_NOT_OTHER, path: ["norm_place"] });
  }
  if (s.kind === "air_velocity" && s.area_m2 == null) {
    ctx.addIssue({ code: "custom", message: "для анемометра укажите площадь сечения выработки, м²", path: ["area_m2"] });
  }
});

/** A sensor's fields a create and a patch take alike (a patch's code and kind made optional). */
const sensorDetails = {
  role: z.optional(role),
  working,
  section,
  place: z.optional(place),
  norm_place: normPlace,
  airflow_order: airflowOrder,
  fresh_air_joins: freshAirJoins,
  warning: level(),
  alarm: level(),
  area_m2: area,
  conditions: z.optional(conditions),
  in_service_from: serviceDate(),
  in_service_to: serviceDate(),
};

export const sensorCreateSchema = z
  .object({
    code,
    kind,
    point,
    ...sensorDetails,
  })
  .check(rules);

/** A field it does not know is refused, never quietly dropped. */
export const sensorPatchSchema = z
  .strictObject(
    {
      code: z.optional(code),
      kind: z.optional(kind),
      point,
      ...sensorDetails,
      version: z.int("ожидается целое число"),
    },
    {
      error: (issue) => (issue.code === "unrecognized_keys" ? "такого поля нет у датчика" : undefined),
    },
  )
  .check(rules);

/** What of a sensor's register entry reads its readings (D56): kept per change with the instant it holds from. */
const registerFields = {
  code: z.string(),
  kind: z.enum(SENSOR_KIND_NAMES),
  point: z
    .nullable(z.string())
    .meta({ description: "The emission point this channel measures (its own place's channel); null: it measures no point" }),
  role: z.enum(Object.keys(SENSOR_ROLES) as [SensorRole, ...SensorRole[]]),
  working: z.string().meta({ description: "The working (longwall, heading) it belongs to; empty when none" }),
  section: z.string().meta({
    description: "The extraction section or development working, as the mine names it; gassings are grouped by it; empty when none",
  }),
  place: z.enum(SENSOR_PLACE_NAMES).meta({ description: "Where in the working it hangs (the safety rules' places of methane control)" }),
  norm_place: z.optional(z.nullable(z.enum(NORM_PLACES))).meta({
    description:
      "D87: at place `other`, the norm's row a methane meter is read against (working 1 %, wing_outgoing 0,75 %, intake 0,5 %, suction_pipeline 3,5 %); null or absent: the working's 1 %. Only at `other`",
  }),
  airflow_order: z.optional(z.nullable(z.int())).meta({
    description:
      "D103: the meter's position on its section's air path; null or absent: its place's (face 10, face_10_20m 20, longwall_return 30, section_return 40, wing_return 50, shaft 60)",
  }),
  fresh_air_joins: z.optional(z.boolean()).meta({
    description: "D103: fresh air enters before this meter; the pair it closes is not compared by the airway check",
  }),
  warning: z.nullable(z.number()).meta({ description: "W in the kind's unit (% vol; ppm for carbon monoxide)" }),
  alarm: z.nullable(z.number()).meta({ description: "A in the kind's unit (% vol; ppm for carbon monoxide)" }),
  area_m2: z.nullable(z.number()).meta({ description: "The airway's cross-section (anemometers), m²" }),
  conditions: z.enum(["standard", "actual"]),
  in_service_from: z.nullable(z.string()),
  in_service_to: z.nullable(z.string()),
};

export const sensorRevisionSchema = z.object({
  ...registerFields,
  valid_from: z.string().meta({ description: "ISO instant from which readings are read with this entry" }),
});

export const sensorSchema = z.object({
  id: z.string(),
  company: z.string(),
  facility: z.string(),
  ...registerFields,
  is_active: z.boolean().meta({ description: "false once retired (its readings and history stay)" }),
  revisions: z.array(sensorRevisionSchema).meta({ description: "The register as it was, oldest first (D56)" }),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.int(),
});

export const gatewayKeyCreateSchema = z.object({
  label: requiredName("назовите ключ (например, «Шлюз диспетчерской»)", GATEWAY_KEY_LABEL_MAX),
});

/** A gateway key as listed: never the key, only its first characters to tell keys apart. */
export const gatewayKeySchema = z.object({
  id: z.string(),
  facility: z.string(),
  label: z.string(),
  prefix: z.string().meta({ description: "The key's first characters" }),
  created_at: z.string(),
  created_by: z.string().meta({ description: "Who created it (e-mail)" }),
  revoked_at: z.nullable(z.string()),
});

/** The answer to a create: the key itself, shown this once (stored hashed). */
export const createdGatewayKeySchema = gatewayKeySchema.extend({
  key: z.string().meta({ description: "Authorization: Gateway <key>; shown once, never again" }),
});

export type SensorCreateInput = z.infer<typeof sensorCreateSchema>;
export type SensorPatchInput = z.infer<typeof sensorPatchSchema>;
export type GatewayKeyCreateInput = z.infer<typeof gatewayKeyCreateSchema>;
