// «Скачать шаблон» of the dispatch export's dialogs («Загрузить выгрузку АГК», «Сверить с
// выгрузкой АГК»): an example of the file the reader takes (dispatch-file.ts) for the mine's own register —
// a column per sensor in service (by code, at most TEMPLATE_SENSORS), three lines of yesterday's minutes
// «ДД.ММ.ГГГГ ЧЧ:ММ:СС» on the company's clock, values of each kind with a decimal comma and digits grouped
// by a space («12 345,6») — in UTF-8 with a byte order mark and «;», as Russian Excel opens it. Every value
// of it reads back (the reconciliation of it refuses nothing); its values are an example, to be replaced by
// the export's own: sent back unchanged for storage, it is refused (isUnchangedTemplate).
import { instantOfWallTime, isoDateIn, wallTimeIn, zoneOf } from "@core/company-clock";
import { SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import type { Actor, Deps } from "../../context";
import { Invalid } from "../../errors";
import { getFacility } from "../../company/facilities";
import { DispatchReader } from "./dispatch-file";
import { ruDate } from "@core/dates";

/** The columns the template shows at most: the register's first sensors in service by code. */
export const TEMPLATE_SENSORS = 8;

/** A file longer than this is not the template (its 8 columns and 3 lines are under 500 B). */
export const TEMPLATE_BYTES = 4096;

/** The template's example minutes: 10:00, 10:01 and 10:02 of a day. */
const EXAMPLE_MINUTES = [600, 601, 602];

export const TEMPLATE_UPLOADED =
  "Файл — шаблон выгрузки АГК без изменений: его строки — пример (10:00–10:02, значения примера), не показания. Замените их строками выгрузки и загрузите файл снова";

/** Whether an uploaded export is the template sent back unchanged: every line one of its example minutes
 *  and every value its column's example, with at most the template's lines and columns. Such a file is
 *  refused by «Загрузить выгрузку АГК», never stored as readings (a reconciliation of it stores nothing
 *  and reads it whole). A file of more lines than the template's is the mine's own and is not read here. */
function isUnchangedTemplate(bytes: Uint8Array, kindOf: (code: string) => SensorKind | undefined, zone: string): boolean {
  const minutes = new Set<number>();
  let examples = 0;
  let other = false;
  const reader = new DispatchReader(
    { zone },
    {
      reading: (_line, code, t, value) => {
        const kind = kindOf(code);
        if (kind === undefined || SENSOR_KINDS[kind].example !== value) other = true;
        else examples++;
        minutes.add(t);
        return undefined;
      },
      refuse: () => {
        other = true;
      },
    },
  );
  try {
    reader.push(bytes);
    reader.end();
  } catch {
    return false;
  }
  if (other || examples === 0 || minutes.size > EXAMPLE_MINUTES.length) return false;
  const minuteOfDay = (t: number) => {
    const [hours, mins] = wallTimeIn(new Date(t), zone).slice(11).split(":").map(Number);
    return hours * 60 + mins;
  };
  return [...minutes].every((t) => t % 60_000 === 0 && EXAMPLE_MINUTES.includes(minuteOfDay(t)));
}

/** Refuses `bytes` where they are the template unchanged (isUnchangedTemplate); a file longer than the
 *  template can be is not read. */
export async function refuseUnchangedTemplate(deps: Deps, actor: Actor, facilityId: string, bytes: Uint8Array): Promise<void> {
  if (bytes.byteLength > TEMPLATE_BYTES) return;
  const [sensors, company] = await Promise.all([
    deps.repos.sensors.listOfFacility(actor.company, facilityId),
    deps.repos.companies.get(actor.company),
  ]);
  const kinds = new Map<string, SensorKind>([
    ...NO_REGISTER.map((s) => [s.code, s.kind] as const),
    ...sensors.map((s) => [s.code, s.kind] as const),
  ]);
  if (isUnchangedTemplate(bytes, (code) => kinds.get(code), zoneOf(company))) throw new Invalid(TEMPLATE_UPLOADED);
}

/** The columns of a register without sensors in service: a methane meter and an anemometer. */
const NO_REGISTER: readonly { code: string; kind: SensorKind }[] = [
  { code: "М-1", kind: "methane" },
  { code: "V-1", kind: "air_velocity" },
];

/** A value as the export writes it: a decimal comma, digits grouped by a plain space. */
const cell = (value: number) => value.toLocaleString("ru-RU", { maximumFractionDigits: 3 }).replace(/[\u00a0\u202f]/g, " ");

/** «ДД.ММ.ГГГГ ЧЧ:ММ:СС» of a wall-clock date (ISO) and minute of the day. */
const wallText = (date: string, minute: number) =>
  `${ruDate(date)} ${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00`;

/** GET v1/facilities/{id}/sensors/dispatch-template/: the example export (another company's facility 404). */
export async function dispatchTemplate(deps: Deps, actor: Actor, facilityId: string): Promise<{ fileName: string; body: Uint8Array }> {
  const facility = await getFacility(deps, actor, facilityId);
  const [sensors, company] = await Promise.all([
    deps.repos.sensors.listOfFacility(actor.company, facility.id),
    deps.repos.companies.get(actor.company),
  ]);
  const zone = zoneOf(company);
  const active = sensors
    .filter((s) => s.is_active)
    .sort((a, b) => a.code.localeCompare(b.code, "ru"))
    .slice(0, TEMPLATE_SENSORS);
  const columns = active.length > 0 ? active : NO_REGISTER;
  // Yesterday on the company's clock, from 10:00: a time already passed, whatever the hour of the download.
  const today = isoDateIn(deps.clock.now(), zone);
  const [y, m, d] = today.split("-").map(Number);
  const yesterday = isoDateIn(new Date(instantOfWallTime(y, m, d, 12, 0, zone) - 86_400_000), zone);
  const lines = [["Время", ...columns.map((s) => (/[";]/.test(s.code) ? `"${s.code.replaceAll('"', '""')}"` : s.code))].join(";")];
  for (const minute of EXAMPLE_MINUTES)
    lines.push([wallText(yesterday, minute), ...columns.map((s) => cell(SENSOR_KINDS[s.kind].example))].join(";"));
  return {
    fileName: `Шаблон — выгрузка АГК, ${facility.name}.csv`,
    body: new TextEncoder().encode(`\uFEFF${lines.join("\r\n")}\r\n`),
  };
}
