// D56: the mine's sensor list (its АГК channels, from an .xlsx or CSV the dispatch system exports or the
// template) imported into a facility's register by the same safe upload as a calculation's file: the
// template (contract/templates.ts, SENSOR_LIST), the same reader (files/tabular.ts), a dry run that lists
// every row the save would refuse with its row and column (calculations/upload-preview.ts, previewTable),
// and a save that writes nothing unless every row is good — and undoes its own writes when one fails.
import { periodDate } from "@core/measured-release";
import { headerKey } from "@core/registry";
import { SENSOR_KIND_NAMES, SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import { SENSOR_PLACE_NAMES, SENSOR_PLACES, type SensorPlace } from "@core/sensor-places";
import { METHANE_PLACE_LABELS, NORM_PLACES, type NormPlace } from "@core/methane-limits";
import type { Actor, Deps } from "../../context";
import { CellInvalid, Conflict, invalidAt } from "../../errors";
import { getFacility } from "../../company/facilities";
import { heavyWork } from "../../heavy-work";
import { previewTable } from "../../calculations/upload-preview";
import { checkEach, readUpload, type TableRow, type UploadReader, type UploadedFile } from "../../../files/tabular";
import type { EmissionPoint, Sensor } from "../../../ports";
import { SENSOR_LIST_COLUMNS, type SensorListColumn } from "../../../contract/templates";
import { NORM_PLACE_NOT_OTHER, SENSOR_ROLES, sensorCreateSchema, type SensorCreateInput } from "../../../contract/schemas/sensor";
import { LIMITS, MAX_SENSORS_PER_FACILITY } from "../../../contract/schemas/limits";
import type { UploadPreviewView } from "../../../contract/schemas/upload-preview";
import { codeKey, logSensor, newSensor, placeProblem, registerOfInput, takeSensorRoom, withCodes } from "./register";

/** The date columns: an Excel date cell reads as its date in the preview, as the save takes it. */
const DATE_COLUMNS = ["in_service_from", "in_service_to"] as const;

/** The words a list may name a kind by (compared by headerKey): the register's name, its label with and
 *  without the range, and what engineers write (the kind's spec, SENSOR_KINDS' words). */
const KINDS = new Map<string, SensorKind>(
  SENSOR_KIND_NAMES.flatMap((kind) =>
    [kind, SENSOR_KINDS[kind].label, SENSOR_KINDS[kind].label.replace(/\s*\(.*$/, ""), ...SENSOR_KINDS[kind].words].map(
      (word) => [headerKey(word), kind] as const,
    ),
  ),
);
const ROLES = new Map<string, keyof typeof SENSOR_ROLES>(
  Object.entries(SENSOR_ROLES).flatMap(([role, word]) => [
    [headerKey(role), role as keyof typeof SENSOR_ROLES],
    [headerKey(word), role as keyof typeof SENSOR_ROLES],
  ]),
);
const CONDITIONS = new Map<string, "standard" | "actual">([
  [headerKey("standard"), "standard"],
  [headerKey("стандартные"), "standard"],
  [headerKey("стандартных"), "standard"],
  [headerKey("actual"), "actual"],
  [headerKey("рабочие"), "actual"],
  [headerKey("рабочих"), "actual"],
  [headerKey("фактические"), "actual"],
]);

/** The words a list may name a place by (compared by headerKey): its label, the register's name and what
 *  dispatchers write. */
const PLACE_WORDS: Record<SensorPlace, readonly string[]> = {
  face: ["у забоя", "забой", "призабойное пространство"],
  face_10_20m: ["в 10-20 м от забоя", "10–20 м от забоя", "10-20 м"],
  longwall_return: ["исходящая очистной выработки", "исходящая лавы"],
  section_return: ["исходящая участка", "исходящая выемочного участка"],
  wing_return: ["исходящая крыла", "исходящая шахты"],
  intake: ["свежая струя", "поступающая"],
  shaft: ["ствол", "канал вентилятора"],
  drainage_pipeline: ["дегазационный", "дегазационный трубопровод", "дегазация"],
  suction_pipeline: ["газоотсасывающий", "гзу"],
  other: ["другое", "другое место"],
};
const PLACES = new Map<string, SensorPlace>(
  SENSOR_PLACE_NAMES.flatMap((place) =>
    [place, SENSOR_PLACES[place], SENSOR_PLACES[place].replace(/\s*\(.*$/, ""), ...PLACE_WORDS[place]].map(
      (word) => [headerKey(word), place] as const,
    ),
  ),
);

/** the words a list may name a norm's row by (a meter at «другое место»): its key, its
 *  words, «норма …» and what dispatchers write. */
const NORM_WORDS: Record<NormPlace, readonly string[]> = {
  working: ["в выработке", "выработка", "исходящая выработки"],
  wing_outgoing: ["исходящая крыла", "исходящая шахты", "в исходящей струе крыла", "в исходящей струе шахты"],
  intake: ["поступающая", "поступающая струя", "свежая струя"],
  suction_pipeline: ["газоотсасывающий", "газоотсасывающий трубопровод"],
};
const NORMS = new Map<string, NormPlace>(
  NORM_PLACES.flatMap((norm) =>
    [norm, METHANE_PLACE_LABELS[norm], `норма ${METHANE_PLACE_LABELS[norm]}`, ...NORM_WORDS[norm]].map(
      (word) => [headerKey(word), norm] as const,
    ),
  ),
);

/** D103's «свежий воздух перед датчиком»: yes or no. */
const YES_NO = new Map<string, boolean>(
  [
    ["да", true],
    ["yes", true],
    ["true", true],
    ["1", true],
    ["нет", false],
    ["no", false],
    ["false", false],
    ["0", false],
  ].map(([word, value]) => [headerKey(word as string), value as boolean]),
);

/** The sensor of each good row, with its row in the file and the point it measures (if any). */
export interface ImportedRow {
  row: number;
  input: SensorCreateInput;
  point: EmissionPoint | undefined;
}

const columnOf = new Map<string, SensorListColumn>(SENSOR_LIST_COLUMNS.map((c) => [c.key, c]));

/** The reader of a sensor list against the facility's points and register: each row's cells read as
 *  the register's fields and checked by the sensor's own schema, the row's code neither twice in the
 *  file nor a sensor in service already. */
export function sensorListReader(points: readonly EmissionPoint[], existing: readonly Sensor[]): UploadReader<ImportedRow[]> {
  const pointsByName = new Map<string, EmissionPoint[]>();
  for (const point of points) {
    const key = headerKey(point.name);
    pointsByName.set(key, [...(pointsByName.get(key) ?? []), point]);
  }
  const inService = new Map(existing.filter((s) => s.is_active).map((s) => [s.code.toLocaleLowerCase("ru"), s]));
  const activePoints = points.filter((p) => p.is_active).map((p) => `«${p.name}»`);
  return {
    spec: {
      columns: SENSOR_LIST_COLUMNS.map((c) => ({
        name: c.key,
        label: c.label,
        required: c.required,
        kind: c.kind,
        unit: c.unit,
        headers: [...new Set([c.header, c.label, c.key, ...c.aliases].map(headerKey))],
      })),
      maxRows: MAX_SENSORS_PER_FACILITY,
    },
    rows(table, refused) {
      const refuse = (row: number, column: string, message: string): never => {
        const header = table.headers[column] ?? columnOf.get(column)?.header ?? column;
        throw new CellInvalid({ sheet: table.sheet, row, header }, message);
      };
      const text = (r: TableRow, column: string) => {
        const value = r.values[column];
        return value === null || value === undefined || String(value).trim() === "" ? undefined : String(value).trim();
      };
      const firstRowOfCode = new Map<string, number>();
      return checkEach(
        table.rows,
        (r): ImportedRow => {
          const body: Record<string, unknown> = {};
          const code = text(r, "code");
          body.code = code ?? "";
          const kindText = text(r, "kind");
          if (kindText === undefined) refuse(r.row, "kind", "укажите вид датчика");
          const kind = KINDS.get(headerKey(kindText!));
          if (!kind) {
            refuse(
              r.row,
              "kind",
              `вид «${kindText!.slice(0, 40)}» не найден: ${SENSOR_KIND_NAMES.map((k) => SENSOR_KINDS[k].label).join(", ")}`,
            );
          }
          body.kind = kind;
          const pointText = text(r, "point");
          const named = pointText === undefined ? [] : (pointsByName.get(headerKey(pointText)) ?? []);
          const point = named.find((p) => p.is_active) ?? named[0];
          if (pointText !== undefined && !point) {
            refuse(
              r.row,
              "point",
              `источника «${pointText.slice(0, LIMITS.name.point)}» нет у площадки` +
                (activePoints.length ? `: ${activePoints.join(", ")}` : ""),
            );
          }
          if (point && !point.is_active)
            refuse(r.row, "point", `источник «${point.name}» в архиве: восстановите его на странице «Профиль»`);
          if (point) body.point = point.id;
          const placeText = text(r, "place");
          if (placeText !== undefined) {
            body.place = PLACES.get(headerKey(placeText));
            if (!body.place)
              refuse(
                r.row,
                "place",
                `место «${placeText.slice(0, 40)}» не найдено: ${SENSOR_PLACE_NAMES.map((p) => SENSOR_PLACES[p]).join(", ")}`,
              );
          }
          const normText = text(r, "norm_place");
          if (normText !== undefined) {
            body.norm_place = NORMS.get(headerKey(normText));
            if (!body.norm_place)
              refuse(
                r.row,
                "norm_place",
                `норма «${normText.slice(0, 40)}» не найдена: ${NORM_PLACES.map((n) => METHANE_PLACE_LABELS[n]).join(", ")}`,
              );
          }
          const role = text(r, "role");
          if (role !== undefined) {
            body.role = ROLES.get(headerKey(role));
            if (!body.role) refuse(r.row, "role", `роль «${role.slice(0, 40)}» не найдена: ${Object.values(SENSOR_ROLES).join(", ")}`);
          }
          for (const field of ["working", "section"] as const) {
            const value = text(r, field);
            if (value !== undefined) body[field] = value;
          }
          for (const field of ["warning", "alarm", "area_m2", "airflow_order"] as const) {
            const value = r.values[field];
            if (typeof value === "number") body[field] = value;
          }
          // D103: «да» where fresh air enters before the meter.
          const fresh = text(r, "fresh_air_joins");
          if (fresh !== undefined) {
            const answer = YES_NO.get(headerKey(fresh));
            if (answer === undefined) refuse(r.row, "fresh_air_joins", `ожидается «да» или «нет», найдено «${fresh.slice(0, 40)}»`);
            body.fresh_air_joins = answer;
          }
          const conditions = text(r, "conditions");
          if (conditions !== undefined) {
            body.conditions = CONDITIONS.get(headerKey(conditions));
            if (!body.conditions)
              refuse(r.row, "conditions", `условия «${conditions.slice(0, 40)}»: ожидается «стандартные» или «рабочие»`);
          }
          for (const field of DATE_COLUMNS) {
            const value = text(r, field);
            if (value === undefined) continue;
            body[field] = periodDate(value);
            if (!body[field]) refuse(r.row, field, `ожидается дата ДД.ММ.ГГГГ, найдено «${value.slice(0, 40)}»`);
          }
          const parsed = sensorCreateSchema.safeParse(body);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            const field = String(issue.path[0] ?? "code");
            refuse(r.row, columnOf.has(field) ? field : "code", issue.message);
          }
          const input = parsed.data!;
          const key = input.code.toLocaleLowerCase("ru");
          const twin = inService.get(key);
          if (twin) refuse(r.row, "code", `у площадки уже есть датчик «${twin.code}»`);
          const earlier = firstRowOfCode.get(key);
          if (earlier !== undefined) refuse(r.row, "code", `код «${input.code}» уже есть в строке ${earlier}`);
          firstRowOfCode.set(key, r.row);
          const register = registerOfInput(input, point);
          // a norm's row only at «другое место» (a row whose place is its point's, not given, too).
          if (register.norm_place && register.place !== "other") refuse(r.row, "norm_place", NORM_PLACE_NOT_OTHER);
          if (point) {
            const problem = placeProblem(register, point);
            if (problem) refuse(r.row, "place", problem);
          }
          return { row: r.row, input, point };
        },
        refused,
      );
    },
  };
}

async function readerOfFacility(deps: Deps, actor: Actor, facilityId: string) {
  const [points, existing] = await Promise.all([
    deps.repos.emissionPoints.listOfFacility(actor.company, facilityId),
    deps.repos.sensors.listOfFacility(actor.company, facilityId),
  ]);
  return sensorListReader(points, existing);
}

function fileOf(file: UploadedFile | undefined): UploadedFile {
  if (!file) throw invalidAt("file_data", "выберите файл .xlsx или .csv со списком датчиков");
  return file;
}

/** The dry run: the list as the save would read it and every row it would refuse; nothing stored. */
export async function previewSensorList(
  deps: Deps,
  actor: Actor,
  facilityId: string,
  file: UploadedFile | undefined,
): Promise<UploadPreviewView> {
  await getFacility(deps, actor, facilityId);
  const chosen = fileOf(file);
  const reader = await readerOfFacility(deps, actor, facilityId);
  return heavyWork(deps, actor, () => previewTable(chosen, reader, DATE_COLUMNS));
}

/** The save: every row read and checked first (the first refused one answers 400 with its row and
 *  column, and nothing is written), room taken for all of them at once, then each sensor stored; a
 *  write that fails removes the ones this import stored before it. Each sensor is in the change log. */
export async function importSensorList(deps: Deps, actor: Actor, facilityId: string, file: UploadedFile | undefined): Promise<Sensor[]> {
  const facility = await getFacility(deps, actor, facilityId);
  const chosen = fileOf(file);
  const reader = await readerOfFacility(deps, actor, facilityId);
  const rows = await heavyWork(deps, actor, () => readUpload(chosen, reader));
  const now = deps.clock.now().toISOString();
  const sensors = rows.map((r) => newSensor(actor, facilityId, registerOfInput(r.input, r.point), now));
  // the list's codes held (withCodes) and the register read again under them: a
  // sensor of one of them stored since the file was read refuses the import, nothing stored.
  await withCodes(
    deps,
    actor,
    facilityId,
    sensors.map((s) => s.code),
    async () => {
      const inService = new Map(
        (await deps.repos.sensors.listOfFacility(actor.company, facilityId)).filter((s) => s.is_active).map((s) => [codeKey(s.code), s]),
      );
      for (const [i, sensor] of sensors.entries()) {
        const twin = inService.get(codeKey(sensor.code));
        if (twin) throw new Conflict(`Строка ${rows[i].row}: датчик «${twin.code}» заведен, пока файл проверялся: загрузите список снова`);
      }
      const giveBack = await takeSensorRoom(deps, actor, facilityId, sensors.length);
      const stored: Sensor[] = [];
      try {
        for (const sensor of sensors) {
          await deps.repos.sensors.create(sensor);
          stored.push(sensor);
        }
      } catch (error) {
        for (const sensor of stored) await deps.repos.sensors.remove(actor.company, facilityId, sensor.id);
        await giveBack();
        throw error;
      }
    },
  );
  for (const sensor of sensors) await logSensor(deps, actor, facility.name, "sensor.create", null, sensor);
  return sensors;
}
