// Stored climate projects (methodology section 13, D67): a company's item, versioned,
// in the change log, never part of an inventory. A project names its facility, its devices (the
// emission point that feeds each, its kind, flow basis and efficiency option) and, per device, the
// meters section 13.1 asks for by their codes in the facility's sensor register (D56), each of the
// kind its channel takes. What a device's kind requires is checked here, so a period is never
// computed from a plan that lacks a meter the rules need.
import {
  creditsElectricity,
  DEVICE_KIND_NAMES,
  DEVICE_KIND_SPECS,
  type DeviceKind,
  deviceKindOf,
  kindChannels,
} from "@core/climate-devices";
import { deviceOfOption } from "@core/climate-options";
import { CLIMATE_RULES_VERSION } from "@core/climate-project";
import { SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import type * as z from "zod";
import {
  CLIMATE_CHANNEL_KINDS,
  type ClimateChannel,
  type climateProjectBodySchema,
  type climateProjectPatchSchema,
  type climateProjectSummarySchema,
} from "../../contract/schemas/climate";
import type { ClimateProject, Sensor } from "../../ports";
import { recordChange } from "../audit";
import type { Actor, Deps } from "../context";
import { invalidAt, NotFound } from "../errors";
import { firstVersion } from "../ids";
import { CLIMATE_PERIOD_NOT_FOUND } from "./period-record";
import { ruDate } from "@core/dates";

export type ClimateProjectBody = z.output<typeof climateProjectBodySchema>;
export type ClimateProjectPatch = z.output<typeof climateProjectPatchSchema>;
export type ClimateProjectSummary = z.output<typeof climateProjectSummarySchema>;
type StoredDevice = ClimateProject["devices"][number];

export const CLIMATE_PROJECT_NOT_FOUND = "Климатический проект не найден";

/** Each channel's name in the monitoring plan (13.1). */
export const CHANNEL_NAMES: Readonly<Record<ClimateChannel, string>> = {
  q: "расход газовоздушной смеси",
  c: "содержание метана",
  p: "давление газа",
  t: "температура газа",
  flame: "датчик пламени",
  t_eg: "температура отходящих газов",
  run: "работа агрегата",
  eta_meas: "измеренный КПД",
  e_gen: "выработка электроэнергии",
  heat: "отпуск тепла",
};

/** The channels a device must have (13.1, its kind's module): flow and CH4 always, P and T for a flow
 *  at actual conditions, and what its kind requires (in its efficiency option). */
function requiredChannels(device: Pick<StoredDevice, "kind" | "flow_basis" | "eta_option">): ClimateChannel[] {
  const kind = deviceKindOf(device.kind);
  return kind ? kindChannels(kind, device.flow_basis, device.eta_option).flatMap((c) => (c.required ? [c.channel] : [])) : [];
}

/** Whether a device of the kind uses the channel: naming one it has no use for is refused, never quietly kept. */
function usesChannel(kind: DeviceKind, channel: ClimateChannel): boolean {
  return ["q", "c", "p", "t"].includes(channel) || channel in (deviceKindOf(kind)?.channels ?? {});
}

/** The kinds whose efficiency has a measured option, in the dative («закрытому факелу»). */
const WITH_ETA_OPTION = DEVICE_KIND_SPECS.filter((k) => k.efficiency.measured === "option");

const kindNames = (kinds: readonly SensorKind[]) => kinds.map((k) => `«${SENSOR_KINDS[k].label}»`).join(" или ");

/** The facility's register by code: the sensor in service first, a retired one otherwise. */
export async function registerByCode(
  deps: Pick<Deps, "repos">,
  actor: Pick<Actor, "company">,
  facility: string,
): Promise<Map<string, Sensor>> {
  const byCode = new Map<string, Sensor>();
  for (const sensor of await deps.repos.sensors.listOfFacility(actor.company, facility)) {
    const known = byCode.get(sensor.code);
    if (!known || (!known.is_active && sensor.is_active)) byCode.set(sensor.code, sensor);
  }
  return byCode;
}

/** The meters of the project's monitoring plan by their codes (each device's, the own-use meter's):
 *  a period reads each one's minutes. */
export function planMeters(project: Pick<ClimateProject, "devices" | "e_own_sensor">): Set<string> {
  const meters = new Set(project.devices.flatMap((d) => Object.values(d.sensors).filter((code): code is string => Boolean(code))));
  if (project.e_own_sensor) meters.add(project.e_own_sensor);
  return meters;
}

/** The body checked against the facility: its points, its register and what each device's kind needs;
 *  the devices as stored (a name for each, every channel present, null where none). */
async function checkedPlan(
  deps: Deps,
  actor: Actor,
  body: Pick<ClimateProjectBody, "facility" | "devices" | "e_own_sensor">,
): Promise<{ devices: StoredDevice[]; e_own_sensor: string | null; facility_name: string }> {
  const facility = await deps.repos.facilities.get(actor.company, body.facility);
  if (!facility) throw invalidAt("facility", "площадка не найдена");
  const points = new Map((await deps.repos.emissionPoints.listOfFacility(actor.company, facility.id)).map((p) => [p.id, p]));
  const register = await registerByCode(deps, actor, facility.id);
  const sensorOf = (field: string, code: string, kinds: readonly SensorKind[]) => {
    const sensor = register.get(code);
    if (!sensor) throw invalidAt(field, `датчика «${code}» нет в реестре площадки «${facility.name}»`);
    if (!kinds.includes(sensor.kind)) {
      throw invalidAt(field, `датчик «${code}» — «${SENSOR_KINDS[sensor.kind].label}», нужен ${kindNames(kinds)}`);
    }
    return sensor;
  };
  const counts = new Map<DeviceKind, number>();
  const names = new Set<string>();
  const devices = body.devices.map((device, index): StoredDevice => {
    const at = `devices[${index}]`;
    if (!points.has(device.point)) throw invalidAt(`${at}.point`, "источник выбросов не найден на площадке");
    const hasOption = WITH_ETA_OPTION.some((k) => k.id === device.kind);
    if (device.eta_option && !hasOption) {
      throw invalidAt(`${at}.eta_option`, `вариант КПД задают только ${WITH_ETA_OPTION.map((k) => k.label_to).join(" и ")}`);
    }
    const eta_option = hasOption ? (device.eta_option ?? "default") : null;
    const shaped = { kind: device.kind, flow_basis: device.flow_basis, eta_option };
    const sensors: Record<string, string | null> = {};
    for (const channel of Object.keys(CLIMATE_CHANNEL_KINDS) as ClimateChannel[]) {
      const code = device.sensors[channel] ?? null;
      if (code === null) {
        if (requiredChannels(shaped).includes(channel)) {
          throw invalidAt(`${at}.sensors.${channel}`, `укажите датчик: ${CHANNEL_NAMES[channel]}`);
        }
      } else {
        if (!usesChannel(device.kind, channel)) {
          throw invalidAt(`${at}.sensors.${channel}`, `${CHANNEL_NAMES[channel]} не используется для устройства этого вида`);
        }
        sensorOf(`${at}.sensors.${channel}`, code, CLIMATE_CHANNEL_KINDS[channel]);
      }
      sensors[channel] = code;
    }
    const n = (counts.get(device.kind) ?? 0) + 1;
    counts.set(device.kind, n);
    const name = device.name?.trim() || `${DEVICE_KIND_NAMES[device.kind]} ${n}`;
    if (names.has(name)) throw invalidAt(`${at}.name`, `устройство «${name}» уже есть в проекте`);
    names.add(name);
    return { name, point: device.point, ...shaped, sensors };
  });
  const e_own_sensor = body.e_own_sensor ?? null;
  if (e_own_sensor !== null) {
    // Own use nets a generation meter's electricity (D75): only a kind that has one.
    if (!devices.some((d) => creditsElectricity(d.kind))) {
      throw invalidAt("e_own_sensor", "собственные нужды учитываются только при выработке электроэнергии ГПУ");
    }
    sensorOf("e_own_sensor", e_own_sensor, ["electricity"]);
  }
  return { devices, e_own_sensor, facility_name: facility.name };
}

/** What the company's change log keeps of a project: its plan as read, not its internal ids. */
async function logProject(deps: Deps, actor: Actor, action: string, before: ClimateProject | null, after: ClimateProject) {
  const facilities = new Map((await deps.repos.facilities.list(actor.company)).map((f) => [f.id, f.name]));
  const view = (p: ClimateProject) => ({
    name: p.name,
    facility_name: facilities.get(p.facility) ?? "",
    start: p.start,
    end: p.end,
    methodology: `${p.methodology.code} ${p.methodology.version}`,
    devices: p.devices
      .map(
        (d) =>
          `${d.name}: ${Object.entries(d.sensors)
            .flatMap(([channel, code]) => (code ? [`${channel} ${code}`] : []))
            .join(", ")}`,
      )
      .join("; "),
    e_own_sensor: p.e_own_sensor,
    expected: p.expected
      ? `«${p.expected.assessment_name}», поток ${p.expected.stream}: ${p.expected.option_label}, ${p.expected.er_t_co2e_per_year.toLocaleString("ru-RU", { maximumFractionDigits: 3 })} т CO2-экв. в год`
      : null,
    archived: p.archived,
  });
  await recordChange(
    deps,
    actor,
    {
      action,
      target_type: "climate_project",
      target_id: after.id,
      target_label: after.name,
      before: before ? view(before) : null,
      after: view(after),
    },
    after.company,
  );
}

export async function listClimateProjects(deps: Deps, actor: Actor): Promise<ClimateProjectSummary[]> {
  const [projects, facilities] = await Promise.all([
    deps.repos.climateProjects.list(actor.company),
    deps.repos.facilities.list(actor.company),
  ]);
  const names = new Map(facilities.map((f) => [f.id, f.name]));
  return projects.map((p) => ({
    id: p.id,
    name: p.name,
    facility: p.facility,
    facility_name: names.get(p.facility) ?? "",
    start: p.start,
    end: p.end,
    archived: p.archived,
    updated_at: p.updated_at,
    version: p.version,
    devices: p.devices.length,
  }));
}

export async function getClimateProject(deps: Pick<Deps, "repos">, actor: Pick<Actor, "company">, id: string): Promise<ClimateProject> {
  const project = await deps.repos.climateProjects.get(actor.company, id);
  if (!project) throw new NotFound(CLIMATE_PROJECT_NOT_FOUND);
  return project;
}

/** One of a project's monitoring periods as stored, with its project: 404 when either is missing or
 *  another company's. */
export async function getPeriodOfProject(deps: Pick<Deps, "repos">, actor: Pick<Actor, "company">, projectId: string, id: string) {
  const project = await getClimateProject(deps, actor, projectId);
  const record = await deps.repos.climateProjects.getPeriod(actor.company, project.id, id);
  if (!record) throw new NotFound(CLIMATE_PERIOD_NOT_FOUND);
  return { project, record };
}

/** the stored assessment's stream and its chosen option, read as the assessment holds
 *  them (never as the request says), and a device of the project of that option's kind. */
async function expectedOf(
  deps: Deps,
  actor: Actor,
  from: NonNullable<ClimateProjectBody["from_assessment"]>,
  devices: readonly StoredDevice[],
): Promise<NonNullable<ClimateProject["expected"]>> {
  const assessment = await deps.repos.abatement.get(actor.company, from.assessment);
  if (!assessment) throw invalidAt("from_assessment.assessment", "оценка не найдена");
  const stream = assessment.result.streams.find((s) => s.code === from.stream);
  if (!stream) throw invalidAt("from_assessment.stream", `потока «${from.stream}» нет в оценке «${assessment.name}»`);
  const option = stream.options.find((o) => o.option_code === stream.chosen);
  const kind = deviceOfOption(option?.option_code);
  if (!option || !kind) {
    throw invalidAt("from_assessment.stream", `для потока «${from.stream}» не выбран факел, газопоршневая установка или котельная`);
  }
  if (!devices.some((d) => d.kind === kind)) {
    throw invalidAt("devices", `в оценке выбран вариант «${option.label}»: добавьте устройство «${DEVICE_KIND_NAMES[kind]}»`);
  }
  return {
    assessment: assessment.id,
    assessment_name: assessment.name,
    stream: stream.code,
    option_code: option.option_code,
    option_label: option.label,
    device_kind: kind,
    er_t_co2e_per_year: option.er_t_co2e,
    carbon_units_per_year: option.carbon_units,
  };
}

export async function createClimateProject(deps: Deps, actor: Actor, body: ClimateProjectBody): Promise<ClimateProject> {
  const plan = await checkedPlan(deps, actor, body);
  const expected = body.from_assessment ? await expectedOf(deps, actor, body.from_assessment, plan.devices) : null;
  const project: ClimateProject = {
    ...firstVersion(deps, actor),
    name: body.name,
    facility: body.facility,
    start: body.start,
    end: body.end ?? null,
    methodology: body.methodology,
    devices: plan.devices,
    e_own_sensor: plan.e_own_sensor,
    ef_grid: body.ef_grid ?? null,
    expected,
    rules_version: CLIMATE_RULES_VERSION,
    archived: false,
    created_by: actor.email,
  };
  await deps.repos.climateProjects.create(project);
  await logProject(deps, actor, "climate_project.create", null, project);
  return project;
}

/** A period as its form writes it: «01.06.2026 00:00 – 01.06.2026 06:00». */
const periodText = (p: { start: string; end: string }) => {
  const at = (wall: string) => `${ruDate(wall)} ${wall.slice(11, 16)}`;
  return `${at(p.start)} – ${at(p.end)}`;
};

/** a project's start and end keep every one of its periods inside (an approved one
 *  too): a change that would leave one outside is a 400 naming them. The periods' bounds are hours on
 *  the company's clock (`yyyy-MM-ddTHH:00`, the end exclusive) and the project's days (the end
 *  inclusive): compared as the texts they are. */
async function boundsHoldPeriods(deps: Deps, actor: Actor, project: string, start: string, end: string | null): Promise<void> {
  const periods = await deps.repos.climateProjects.listPeriods(actor.company, project);
  const before = periods.filter((p) => p.start < `${start}T00:00`);
  if (before.length > 0) {
    throw invalidAt("start", `проект не может начинаться позже своих периодов: ${before.map(periodText).join("; ")}`);
  }
  if (end === null) return;
  const dayAfter = new Date(Date.parse(`${end}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const after = periods.filter((p) => p.end > `${dayAfter}T00:00`);
  if (after.length > 0) {
    throw invalidAt("end", `проект не может кончаться раньше своих периодов: ${after.map(periodText).join("; ")}`);
  }
}

export async function patchClimateProject(deps: Deps, actor: Actor, id: string, patch: ClimateProjectPatch): Promise<ClimateProject> {
  const current = await getClimateProject(deps, actor, id);
  const start = patch.start ?? current.start;
  const end = patch.end !== undefined ? patch.end : current.end;
  if (end !== null && end < start) throw invalidAt("end", "окончание раньше начала проекта");
  if (start !== current.start || end !== current.end) await boundsHoldPeriods(deps, actor, current.id, start, end);
  let next: ClimateProject = {
    ...current,
    name: patch.name ?? current.name,
    start,
    end,
    methodology: patch.methodology ?? current.methodology,
    ef_grid: patch.ef_grid !== undefined ? patch.ef_grid : (current.ef_grid ?? null),
    archived: patch.archived ?? current.archived,
    updated_at: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  if (patch.facility !== undefined || patch.devices !== undefined || patch.e_own_sensor !== undefined) {
    const plan = await checkedPlan(deps, actor, {
      facility: patch.facility ?? current.facility,
      devices: patch.devices ?? (current.devices as ClimateProjectBody["devices"]),
      e_own_sensor: patch.e_own_sensor !== undefined ? patch.e_own_sensor : current.e_own_sensor,
    });
    next = { ...next, facility: patch.facility ?? current.facility, devices: plan.devices, e_own_sensor: plan.e_own_sensor };
  }
  await deps.repos.climateProjects.replace(next, patch.version);
  await logProject(deps, actor, "climate_project.update", current, next);
  return next;
}
