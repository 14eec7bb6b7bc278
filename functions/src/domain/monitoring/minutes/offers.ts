// From the mine's readings to the year (methodology D61–D63): per emission point and month on the
// company's clock, the volume and flow-weighted CH4 content the core computes from the point's sensors'
// minutes (flow or anemometer × cross-section, a methane meter, P and T for a drainage line's actual
// flow), with completeness, the longest gap and the SHA-256 of the readings used; a person accepts a
// month (or several) into a project as a measured calculation «по данным АГК» (Tier 3), below 95 %
// completeness only with a reason; a month accepted whose readings moved it since by more than 0,1 %
// is flagged «данные АГК изменились после принятия». Advisory: protective cut-off stays with the АГК.
import { createHash } from "node:crypto";
import { instantOfWallTime, zoneOf } from "@core/company-clock";
import { AGK_MEASUREMENT_FREQUENCY } from "@core/inventory";
import { MEASUREMENT_NOTES } from "@core/measured-release";
import {
  ACCEPTED_CHANGE_SHARE,
  acceptedMonthChanged,
  DEMO_READINGS_LABEL,
  OFFER_COMPLETENESS,
  pointVolume,
  SENSOR_KINDS,
  sensorMinutes,
  type SensorKind,
  type Substituted,
} from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import type { Actor, Deps } from "../../context";
import { Conflict, invalidAt } from "../../errors";
import { newId } from "../../ids";
import { recordChange } from "../../audit";
import { getFacility } from "../../company/facilities";
import { createCalculation, patchCalculation } from "../../calculations/calculations";
import { getProject } from "../../calculations/projects";
import { frozenMessage, frozenReview } from "../../inventory/freeze";
import type { AcceptedBefore, EmissionPoint, MonthClaim, OfferAcceptance, Sensor, StoredCalculation } from "../../../ports";
import type { Project } from "../../../contract/schemas/project";
import type * as z from "zod";
import type { offerAcceptSchema, offerSchema, pointChannelsSchema } from "../../../contract/schemas/monitoring";
import { registerAt } from "../ingest/register";
import { readingsBetween, sharedMinutes, type MinuteSource } from "../ingest/stored-readings";
import { acceptedEvidenceKey, type MonthEvidence } from "./accepted-evidence";
import { DOUBT_LOOKBACK_DAYS, doubtText, facilityDoubt, type DoubtOf } from "./doubt";

export type Offer = z.output<typeof offerSchema>;
export type OfferAcceptInput = z.output<typeof offerAcceptSchema>;

const FLOW_KINDS: SensorKind[] = ["flow", "air_velocity"];
const CONTENT_KINDS: SensorKind[] = ["methane_high", "methane", "methane_flow"];
const DOUBT_LOOKBACK_MS = DOUBT_LOOKBACK_DAYS * 86_400_000;
const two = (n: number) => String(n).padStart(2, "0");
const ruMonth = (month: string) => `${month.slice(5)}.${month.slice(0, 4)}`;
/** «20 °C, 101,325 кПа» densities (get_underground's first row), as the demo year's measured calculations. */
const STANDARD_CONDITIONS = { get_underground: 1, get_underground_content: null };

/** The point's sensors that give its formula: the first of each kind in service in the month among the
 *  point's own channels — those the register says measure it (a longwall's meters measure
 *  its air, never the shaft's, and name no point). */
export function sensorsOf(sensors: readonly Sensor[], point: string, fromDate: string, toDate: string) {
  const inMonth = sensors.filter(
    (s) => s.point === point && (!s.in_service_from || s.in_service_from <= toDate) && (!s.in_service_to || s.in_service_to >= fromDate),
  );
  const first = (kinds: SensorKind[]) => kinds.map((k) => inMonth.find((s) => s.kind === k)).find(Boolean);
  return {
    flow: first(FLOW_KINDS),
    content: first(CONTENT_KINDS),
    pressure: first(["pressure"]),
    temperature: first(["temperature"]),
  };
}

export type PointChannels = z.output<typeof pointChannelsSchema>;

/** What a point lacks for its month, in words: a flow (or an anemometer) and a methane channel of its
 *  own; P and T where its flow is at actual conditions. */
function lacksOf(own: readonly Sensor[]): string[] {
  const has = (kinds: SensorKind[]) => own.some((s) => kinds.includes(s.kind));
  const lacks: string[] = [];
  if (!has(FLOW_KINDS)) lacks.push("расхода газовой смеси или скорости воздуха (анемометра)");
  if (!has(CONTENT_KINDS)) lacks.push("метана");
  const flow = own.find((s) => s.kind === "flow");
  if (flow && !has(["air_velocity"]) && flow.conditions === "actual") {
    if (!has(["pressure"])) lacks.push("давления");
    if (!has(["temperature"])) lacks.push("температуры");
  }
  return lacks;
}

/** each point of the facility that a mine's АГК measures (a ventilation shaft, a drainage
 *  station, or any point a channel names) with its own channels in service and what it lacks for a month. */
export async function listPointChannels(deps: Deps, actor: Actor, facilityId: string): Promise<PointChannels[]> {
  await getFacility(deps, actor, facilityId);
  const [points, sensors] = await Promise.all([
    deps.repos.emissionPoints.listOfFacility(actor.company, facilityId),
    deps.repos.sensors.listOfFacility(actor.company, facilityId),
  ]);
  const inService = sensors.filter((s) => s.is_active);
  return points
    .filter((p) => p.is_active)
    .map((point) => ({ point, own: inService.filter((s) => s.point === point.id) }))
    .filter(({ point, own }) => own.length > 0 || point.kind === "ventilation_shaft" || point.kind === "drainage_station")
    .map(({ point, own }) => ({
      point: point.id,
      point_name: point.name,
      channels: own.map((s) => ({ code: s.code, kind: s.kind, place: s.place })),
      lacks: lacksOf(own),
    }));
}

export interface MonthWindow {
  month: string;
  start: number;
  /** Minutes from the month's start up to now, at most the whole month's. */
  minutes: number;
  /** The whole month's minutes on the company's clock. */
  month_minutes: number;
  /** the month has not ended on the company's clock. */
  in_progress: boolean;
}

export function monthWindow(year: number, month: number, zone: string, now: number): MonthWindow | undefined {
  const start = instantOfWallTime(year, month, 1, 0, 0, zone);
  const end = month === 12 ? instantOfWallTime(year + 1, 1, 1, 0, 0, zone) : instantOfWallTime(year, month + 1, 1, 0, 0, zone);
  const until = Math.min(end, Math.floor(now / MINUTE_MS) * MINUTE_MS);
  if (until <= start) return undefined;
  return {
    month: `${year}-${two(month)}`,
    start,
    minutes: Math.round((until - start) / MINUTE_MS),
    month_minutes: Math.round((end - start) / MINUTE_MS),
    in_progress: until < end,
  };
}

/** One point's month, or undefined without the sensors or without one valid minute; with `keep`, the
 *  readings and register entries it came from too. */
export async function pointMonth(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  point: EmissionPoint,
  sensors: readonly Sensor[],
  window: MonthWindow,
  keep = false,
  source: MinuteSource = deps.repos.monitoring,
  doubt?: DoubtOf,
): Promise<{ offer: Omit<Offer, "accepted">; evidence?: MonthEvidence } | undefined> {
  const fromDate = new Date(window.start).toISOString().slice(0, 10);
  const toDate = new Date(window.start + window.minutes * MINUTE_MS).toISOString().slice(0, 10);
  const chosen = sensorsOf(sensors, point.id, fromDate, toDate);
  if (!chosen.flow || !chosen.content) return undefined;
  const flowRegister = registerAt(chosen.flow, window.start);
  const actual = flowRegister.conditions === "actual" && chosen.flow.kind === "flow";
  if (actual && (!chosen.pressure || !chosen.temperature)) return undefined;
  const hash = createHash("sha256");
  let demo = false;
  const kept: string[] = [];
  const used: MonthEvidence["description"]["sensors"] = [];
  const doubted: NonNullable<MonthEvidence["description"]["doubt"]> = [];
  const minutesOf = async (
    sensor: Sensor,
    role: MonthEvidence["description"]["sensors"][number]["role"],
    paired?: Float64Array,
  ): Promise<Substituted> => {
    const read = await readingsBetween(deps, company, sensor, window.start, window.start + window.minutes * MINUTE_MS, source);
    if (read.demo) demo = true;
    for (let i = 0; i < read.times.length; i++) {
      const line = `${sensor.code};${new Date(read.times[i]).toISOString()};${read.values[i]}\n`;
      hash.update(line);
      if (keep) kept.push(line);
    }
    const flagged = doubt?.(sensor.id, window.start, window.start + window.minutes * MINUTE_MS);
    if (flagged && flagged.minutes > 0) {
      doubted.push({
        code: sensor.code,
        minutes: flagged.minutes,
        why: flagged.why,
        spans: flagged.spans.map((s) => ({ from: new Date(s.from).toISOString(), to: new Date(s.to!).toISOString(), why: s.why })),
      });
    }
    used.push({
      role,
      code: sensor.code,
      kind: sensor.kind,
      area_m2: role === "velocity" ? (registerAt(sensor, window.start).area_m2 ?? null) : null,
    });
    return sensorMinutes(sensor.kind, read.times, read.values, window.start, window.minutes, paired ? { paired } : {});
  };
  const flow = await minutesOf(chosen.flow, chosen.flow.kind === "flow" ? "flow" : "velocity");
  const methaneFlow = chosen.content.kind === "methane_flow";
  const content = await minutesOf(chosen.content, methaneFlow ? "methane_flow" : "ch4", Float64Array.from(flow.values));
  if (flow.valid === 0 || content.valid === 0) return undefined;
  const result = pointVolume({
    ...(chosen.flow.kind === "flow" ? { flow } : { velocity: flow, area_m2: flowRegister.area_m2 ?? undefined }),
    ...(methaneFlow ? { methane_flow: content } : { ch4: content }),
    conditions: actual ? "actual" : "standard",
    ...(actual
      ? { pressure: await minutesOf(chosen.pressure!, "pressure"), temperature: await minutesOf(chosen.temperature!, "temperature") }
      : {}),
  });
  const offer = {
    point: point.id,
    point_name: point.name,
    month: window.month,
    volume_thousand_m3: result.volume_thousand_m3,
    ef_ch4: result.ef_ch4,
    ch4_t: result.ch4_t,
    minutes: result.minutes,
    completeness: result.completeness,
    longest_gap_min: result.longest_gap_min,
    readings_sha256: hash.digest("hex"),
    demo,
    in_progress: window.in_progress,
    month_minutes: window.month_minutes,
    // D92: a drainage meter placed after a take-off asks its basis at acceptance.
    basis_asked: point.kind === "drainage_station" && point.meter_after_takeoff === true,
    // D94: the channels' minutes «под сомнением», said and kept; acceptance then takes a reason.
    doubt:
      doubted.length === 0
        ? null
        : {
            text: doubted.map((c) => `${c.code}: ${doubtText(c.why, c.minutes)}`).join("; "),
            sensors: doubted.map(({ code, minutes, why }) => ({ code, minutes, why })),
          },
  };
  if (!keep) return { offer };
  const {
    point: _id,
    point_name,
    month,
    readings_sha256,
    volume_thousand_m3,
    ef_ch4,
    ch4_t,
    minutes,
    completeness,
    longest_gap_min,
  } = offer;
  return {
    offer,
    evidence: {
      readings: kept,
      description: {
        point: point.id,
        point_name,
        month,
        start_ms: window.start,
        start: new Date(window.start).toISOString(),
        minutes: window.minutes,
        conditions: actual ? "actual" : "standard",
        sensors: used,
        readings_sha256,
        result: { volume_thousand_m3, ef_ch4, ch4_t, minutes, completeness, longest_gap_min },
        demo,
        ...(doubted.length > 0 ? { doubt: doubted } : {}),
      },
    },
  };
}

/** What the offers' list says of an accepted month besides its figures: whether its calculation is
 *  archived (or gone) and whether its year is frozen (approved, sent or in review). */
interface AcceptedState {
  archived: boolean;
  frozen: boolean;
}

function withAcceptance(offer: Omit<Offer, "accepted">, acceptance: OfferAcceptance | undefined, state?: AcceptedState): Offer {
  if (!acceptance) return { ...offer, accepted: null };
  const difference = acceptance.ch4_t === 0 ? 0 : ((offer.ch4_t - acceptance.ch4_t) / acceptance.ch4_t) * 100;
  return {
    ...offer,
    accepted: {
      calculation: acceptance.calculation,
      project: acceptance.project,
      ch4_t: acceptance.ch4_t,
      accepted_at: acceptance.accepted_at,
      accepted_by: acceptance.accepted_by,
      reason: acceptance.reason,
      changed: acceptedMonthChanged(acceptance.ch4_t, offer.ch4_t, ACCEPTED_CHANGE_SHARE),
      difference_pct: difference,
      version: acceptance.version ?? 1,
      again_reason: acceptance.again_reason ?? "",
      history: (acceptance.history ?? []).map(
        ({ calculation, calculation_version, ch4_t, volume_thousand_m3, readings_sha256, accepted_at, accepted_by, reason }) => ({
          calculation,
          calculation_version,
          ch4_t,
          volume_thousand_m3,
          readings_sha256,
          accepted_at,
          accepted_by,
          reason,
        }),
      ),
      calculation_archived: state?.archived ?? false,
      year_frozen: state?.frozen ?? false,
    },
  };
}

async function zoneOfCompany(deps: Pick<Deps, "repos">, company: string) {
  return zoneOf(await deps.repos.companies.get(company));
}

/** Every point's months of `year` that the readings give, by point name and month; the month still
 *  running on the company's clock too, marked `in_progress` (it is not offered for acceptance). */
export async function listOffers(deps: Deps, actor: Actor, facilityId: string, year: number): Promise<Offer[]> {
  await getFacility(deps, actor, facilityId);
  const [points, sensors, acceptances, zone, review] = await Promise.all([
    deps.repos.emissionPoints.listOfFacility(actor.company, facilityId),
    deps.repos.sensors.listOfFacility(actor.company, facilityId),
    deps.repos.monitoring.acceptances(actor.company, facilityId),
    zoneOfCompany(deps, actor.company),
    frozenReview(deps, actor.company, year),
  ]);
  const now = deps.clock.now().getTime();
  const doubt = await facilityDoubt(deps, actor.company, facilityId, Date.UTC(year, 0, 1) - DOUBT_LOOKBACK_MS, zone);
  const offers: Offer[] = [];
  // The facility's minutes of a month read once for all its points' sensors.
  const shared = sharedMinutes(deps.repos.monitoring);
  for (const point of points) {
    for (let month = 1; month <= 12; month++) {
      const window = monthWindow(year, month, zone, now);
      if (!window) continue;
      const offer = (await pointMonth(deps, actor.company, point, sensors, window, false, shared, doubt))?.offer;
      if (!offer) continue;
      const acceptance = acceptances.find((a) => a.point === point.id && a.month === window.month);
      const calculation = acceptance && (await deps.repos.calculations.get(actor.company, "underground", acceptance.calculation));
      offers.push(withAcceptance(offer, acceptance, { archived: !calculation || calculation.is_deleted, frozen: review !== undefined }));
    }
  }
  return offers;
}

/** A claim on a month its request never released (a process killed mid-way) is taken over after this. */
const CLAIM_STALE_MS = 10 * 60_000;

type Planned = {
  offer: Omit<Offer, "accepted">;
  evidence: MonthEvidence;
  previous?: OfferAcceptance;
  /** The month's live calculation, accepted before: replaced by a new version of it. */
  replaces?: StoredCalculation;
};

/** Months of a point accepted into `project` as measured calculations «по данным АГК» (D63). The month
 *  still running is refused; a month accepted before is refused unless its readings changed it since
 *  (it then replaces its calculation by a new version, with a reason, while the year is not frozen) or
 *  its calculation was archived. Each month is claimed first (the security review's R6), every refusal comes before
 *  the first write, and a write that fails part-way undoes the months written before it. */
export async function acceptOffers(deps: Deps, actor: Actor, input: OfferAcceptInput): Promise<Offer[]> {
  await getFacility(deps, actor, input.facility);
  const project = await getProject(deps, actor, input.project);
  if (project.facility !== input.facility) throw invalidAt("project", "проект не относится к этой площадке");
  if (project.is_deleted) throw new Conflict("Проект находится в архиве: восстановите его, чтобы принимать в него месяцы");
  const months = [...new Set(input.months)].sort();
  for (const month of months) {
    if (Number(month.slice(0, 4)) !== project.reporting_year) {
      throw invalidAt(
        "project",
        `проект «${project.name}» — ${project.reporting_year} года, а месяц ${ruMonth(month)} — ${month.slice(0, 4)}: ` +
          `выберите проект площадки на ${month.slice(0, 4)} год`,
      );
    }
  }
  const [point, sensors, zone] = await Promise.all([
    deps.repos.emissionPoints.get(actor.company, input.facility, input.point),
    deps.repos.sensors.listOfFacility(actor.company, input.facility),
    zoneOfCompany(deps, actor.company),
  ]);
  if (!point) throw invalidAt("point", "источник выбросов не найден среди источников площадки");
  const basis = acceptedBasis(point, input.basis);
  const now = deps.clock.now();
  const claimOf = (month: string): MonthClaim => ({
    company: actor.company,
    facility: input.facility,
    point: point.id,
    month,
    token,
    at: now.toISOString(),
  });
  const token = newId();
  const claimed: MonthClaim[] = [];
  try {
    for (const month of months) {
      const claim = claimOf(month);
      if (!(await deps.repos.monitoring.claimMonth(claim, new Date(now.getTime() - CLAIM_STALE_MS).toISOString()))) {
        throw new Conflict(`Месяц ${ruMonth(month)} сейчас принимают в другом запросе: обновите страницу`);
      }
      claimed.push(claim);
    }
    // Read once every month is held: no other request writes them until they are released.
    const acceptances = await deps.repos.monitoring.acceptances(actor.company, input.facility);
    const doubt = await facilityDoubt(
      deps,
      actor.company,
      input.facility,
      Date.parse(`${months[0]}-01T00:00:00Z`) - DOUBT_LOOKBACK_MS,
      zone,
    );
    const planned = await planMonths(deps, actor, input, project, point, sensors, zone, now.getTime(), months, acceptances, doubt);
    return await writeMonths(deps, actor, input, project, point, planned, basis);
  } finally {
    await Promise.all(claimed.map((claim) => deps.repos.monitoring.releaseMonth(claim)));
  }
}

async function planMonths(
  deps: Deps,
  actor: Actor,
  input: OfferAcceptInput,
  project: Project,
  point: EmissionPoint,
  sensors: readonly Sensor[],
  zone: string,
  now: number,
  months: readonly string[],
  acceptances: readonly OfferAcceptance[],
  doubt: DoubtOf,
): Promise<Planned[]> {
  const reason = input.reason?.trim() ?? "";
  const frozen = await frozenReview(deps, actor.company, project.reporting_year);
  const planned: Planned[] = [];
  for (const month of months) {
    const window = monthWindow(Number(month.slice(0, 4)), Number(month.slice(5)), zone, now);
    if (window?.in_progress) {
      throw invalidAt(
        "months",
        `месяц ${ruMonth(month)} еще идет (${window.minutes.toLocaleString("ru-RU")} из ${window.month_minutes.toLocaleString("ru-RU")} минут): ` +
          "его принимают после окончания месяца по часам компании",
      );
    }
    const month_ = window && (await pointMonth(deps, actor.company, point, sensors, window, true, deps.repos.monitoring, doubt));
    const offer = month_?.offer;
    if (!offer || !month_.evidence) throw invalidAt("months", `за ${ruMonth(month)} нет показаний датчиков источника «${point.name}»`);
    const previous = acceptances.find((a) => a.point === point.id && a.month === month);
    let replaces: StoredCalculation | undefined;
    if (previous) {
      const calculation = await deps.repos.calculations.get(actor.company, "underground", previous.calculation);
      if (calculation && !calculation.is_deleted) {
        if (!acceptedMonthChanged(previous.ch4_t, offer.ch4_t, ACCEPTED_CHANGE_SHARE)) {
          throw new Conflict(`Месяц ${ruMonth(month)} уже принят, и данные АГК с тех пор не изменились`);
        }
        const accepted = await deps.repos.projects.get(actor.company, calculation.project);
        const frozenThen = accepted && (await frozenReview(deps, actor.company, accepted.reporting_year));
        if (frozenThen) {
          throw new Conflict(
            frozenMessage(
              frozenThen,
              `месяц ${ruMonth(month)} принят в утвержденный год, его расчет не меняется; данные АГК изменились после принятия — ` +
                "месяц примут заново в следующую версию, после того как год откроют для изменений",
            ),
          );
        }
        if (calculation.project !== project.id) {
          throw invalidAt(
            "project",
            `месяц ${ruMonth(month)} принят в проект «${accepted?.name ?? "другой"}»: заново его принимают в тот же проект`,
          );
        }
        if (!reason) {
          throw invalidAt(
            "reason",
            `месяц ${ruMonth(month)} уже принят — укажите, почему он принимается заново (запишется в журнал изменений)`,
          );
        }
        replaces = calculation;
      }
    }
    if (frozen && !replaces) throw new Conflict(frozenMessage(frozen, "расчеты проектов этого года изменить нельзя"));
    if (offer.completeness < OFFER_COMPLETENESS && !reason) {
      const pct = (offer.completeness * 100).toLocaleString("ru-RU", { maximumFractionDigits: 2 });
      throw invalidAt("reason", `полнота данных за ${ruMonth(month)} ${pct} % — ниже 95 %: укажите причину, по которой месяц принимается`);
    }
    if (offer.doubt && !reason) {
      throw invalidAt(
        "reason",
        `за ${ruMonth(month)} ${offer.doubt.text} — показания сохранены и учтены, не замещены: ` +
          "укажите причину, по которой месяц принимается (она напечатается в паспорте отчета)",
      );
    }
    planned.push({ offer, evidence: month_.evidence, previous, replaces });
  }
  return planned;
}

/** the CO2 content an accepted month takes — the point's own, entered with its source (no АГК
 *  channel the platform reads measures CO2) — and the justification the passport prints beside it. */
export function pointCo2(point: Pick<EmissionPoint, "name" | "co2_content_pct" | "co2_content_source">): {
  value: number;
  justification: string;
} {
  if (point.co2_content_pct === null || point.co2_content_pct === undefined) {
    return {
      value: 0,
      justification: `Содержание CO2 для источника «${point.name}» не указано, каналом АГК не измеряется: принято 0 % об. (укажите его в карточке источника)`,
    };
  }
  const value = point.co2_content_pct.toLocaleString("ru-RU", { maximumFractionDigits: 6 });
  return {
    value: point.co2_content_pct,
    justification: `Содержание CO2 источника «${point.name}»: ${value} % об. (${point.co2_content_source?.trim() || "источник не указан"}); каналом АГК не измеряется`,
  };
}

/** D92: the basis of an accepted month. A drainage station's month computed from its own pipeline
 *  flow and methane meters measures all the drained gas: gross (the balance nets the burnt gas, D26).
 *  Only a meter the register places after a take-off to use asks it; a shaft's month keeps its type's. */
export function acceptedBasis(
  point: Pick<EmissionPoint, "name" | "kind" | "meter_after_takeoff">,
  asked: "gross" | "net" | undefined,
): "gross" | "net" | undefined {
  if (point.kind !== "drainage_station") {
    if (asked !== undefined) throw invalidAt("basis", `основу указывают только для дегазационной установки, а «${point.name}» — не она`);
    return undefined;
  }
  if (point.meter_after_takeoff) {
    if (asked === undefined) {
      throw invalidAt(
        "basis",
        `счетчик «${point.name}» по реестру стоит после отбора газа на использование: укажите, что он измеряет — ` +
          "весь каптированный газ (валовый) или только выброшенный без сжигания (чистый)",
      );
    }
    return asked;
  }
  if (asked === "net") {
    throw invalidAt(
      "basis",
      `счетчик «${point.name}» стоит на трубопроводе до отбора газа и измеряет весь каптированный газ: месяц принимается как валовый ` +
        "(если счетчик стоит после отбора, отметьте это в карточке источника)",
    );
  }
  return "gross";
}

/** The calculation's inputs of an accepted month: its volume, CH4 content and the point's CO2 content,
 *  how it was measured (continuously, by the АГК's sensors), its basis (D92) and its evidence. */
function monthCalculation(
  point: EmissionPoint,
  offer: Omit<Offer, "accepted">,
  reason: string,
  evidence_: MonthEvidence,
  basis: "gross" | "net" | undefined,
) {
  const [y, m] = offer.month.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const evidence =
    (offer.demo ? `${DEMO_READINGS_LABEL[0].toUpperCase()}${DEMO_READINGS_LABEL.slice(1)} (симулятор АГК, не показания шахты). ` : "") +
    `По данным АГК за ${ruMonth(offer.month)}: минут ${offer.minutes.valid} достоверных, ${offer.minutes.substituted} замещенных, ` +
    `${offer.minutes.missing} без данных из ${offer.minutes.expected}; полнота ${(offer.completeness * 100).toLocaleString("ru-RU", { maximumFractionDigits: 2 })} %; ` +
    `наибольший пропуск ${offer.longest_gap_min} мин; SHA-256 показаний ${offer.readings_sha256}` +
    (offer.doubt ? `; ${offer.doubt.text} (сохранены и учтены, не замещены)` : "") +
    (reason && (offer.completeness < OFFER_COMPLETENESS || offer.doubt) ? `; причина принятия: ${reason}` : "");
  const co2 = pointCo2(point);
  const instruments = `АГК: ${evidence_.description.sensors.map((s) => `${s.code} (${SENSOR_KINDS[s.kind]?.label ?? s.kind})`).join(", ")}`;
  return {
    name: `${point.name}: по данным АГК, ${ruMonth(offer.month)}${offer.demo ? ` (${DEMO_READINGS_LABEL})` : ""}`,
    values: {
      volume: offer.volume_thousand_m3,
      ef_ch4: offer.ef_ch4,
      ef_co2: co2.value,
      measurement_frequency: AGK_MEASUREMENT_FREQUENCY,
      measurement_instruments: instruments.slice(0, MEASUREMENT_NOTES.measurement_instruments.max),
      ...(basis ? { basis } : {}),
    },
    dictionary_items: STANDARD_CONDITIONS,
    justifications: { ef_ch4: evidence, ef_co2: co2.justification },
    period: { from: `${offer.month}-01`, to: `${offer.month}-${two(last)}` },
  };
}

async function writeMonths(
  deps: Deps,
  actor: Actor,
  input: OfferAcceptInput,
  project: Project,
  point: EmissionPoint,
  planned: readonly Planned[],
  basis: "gross" | "net" | undefined,
): Promise<Offer[]> {
  const reason = input.reason?.trim() ?? "";
  // The calculations first, then the evidence, then the acceptances: a write that fails undoes the
  // calculations written before it (archived; a new version put back as it was).
  const written: { plan: Planned; calculation: StoredCalculation }[] = [];
  try {
    for (const plan of planned) {
      const body = monthCalculation(point, plan.offer, reason, plan.evidence, basis);
      const calculation = plan.replaces
        ? await patchCalculation(deps, actor, "underground", plan.replaces.id, {
            name: body.name,
            values: body.values,
            dictionary_items: body.dictionary_items,
            justifications: body.justifications,
            version: plan.replaces.version,
          })
        : await createCalculation(deps, actor, "underground", { ...body, project: project.id, point: point.id });
      written.push({ plan, calculation });
    }
    // The readings each month came from, as their SHA-256 is over, for the verification pack: before
    // the acceptance, so an accepted month never lacks them (an earlier acceptance's stay under theirs).
    const encoder = new TextEncoder();
    for (const { plan } of written) {
      const key = {
        company: actor.company,
        facility: input.facility,
        point: point.id,
        month: plan.offer.month,
        readings_sha256: plan.offer.readings_sha256,
      };
      await deps.blobs.put(acceptedEvidenceKey(key, "csv"), encoder.encode(plan.evidence.readings.join("")), "text/csv; charset=utf-8");
      await deps.blobs.put(
        acceptedEvidenceKey(key, "json"),
        encoder.encode(`${JSON.stringify(plan.evidence.description, null, 2)}\n`),
        "application/json",
      );
    }
  } catch (error) {
    await undoCalculations(deps, actor, written);
    throw error;
  }
  const accepted: Offer[] = [];
  for (const { plan, calculation } of written) {
    const { offer, previous } = plan;
    const acceptance: OfferAcceptance = {
      company: actor.company,
      facility: input.facility,
      point: point.id,
      month: offer.month,
      calculation: calculation.id,
      project: project.id,
      ch4_t: offer.ch4_t,
      volume_thousand_m3: offer.volume_thousand_m3,
      readings_sha256: offer.readings_sha256,
      accepted_at: deps.clock.now().toISOString(),
      accepted_by: actor.email,
      reason: offer.completeness < OFFER_COMPLETENESS || offer.doubt ? reason : "",
      now_ch4_t: offer.ch4_t,
      version: (previous?.version ?? 1) + (previous ? 1 : 0),
      again_reason: previous ? reason : "",
      history: previous ? [...(previous.history ?? []), acceptedBefore(previous, plan.replaces)] : [],
    };
    if (previous) await deps.repos.monitoring.replaceAcceptance(acceptance, previous.version ?? 1);
    else await deps.repos.monitoring.createAcceptance(acceptance);
    if (previous) await recordAcceptedAgain(deps, actor, point, previous, acceptance, calculation);
    accepted.push(withAcceptance(offer, acceptance));
  }
  return accepted;
}

/** What an acceptance held, for the history of the one that follows it. */
function acceptedBefore(previous: OfferAcceptance, replaced: StoredCalculation | undefined): AcceptedBefore {
  return {
    calculation: previous.calculation,
    calculation_version: replaced?.version ?? 0,
    project: previous.project,
    ch4_t: previous.ch4_t,
    volume_thousand_m3: previous.volume_thousand_m3,
    readings_sha256: previous.readings_sha256,
    accepted_at: previous.accepted_at,
    accepted_by: previous.accepted_by,
    reason: previous.again_reason || previous.reason,
  };
}

/** The company's change log (Профиль › «История изменений реквизитов»): who accepted the month again,
 *  why, and its figures before and after. */
async function recordAcceptedAgain(
  deps: Deps,
  actor: Actor,
  point: EmissionPoint,
  previous: OfferAcceptance,
  next: OfferAcceptance,
  calculation: StoredCalculation,
) {
  const figures = (a: OfferAcceptance, version: number | null) => ({
    ch4_t: a.ch4_t,
    volume_thousand_m3: a.volume_thousand_m3,
    readings_sha256: a.readings_sha256,
    calculation_version: version,
    reason: a === next ? next.again_reason : "",
  });
  await recordChange(
    deps,
    actor,
    {
      // Stored in the change log: the action keeps the wing's old word.
      action: "telemetry.accept_again",
      target_type: "accepted_month",
      target_id: `${point.id}/${next.month}`,
      target_label: `${point.name}, ${ruMonth(next.month)}`,
      before: figures(previous, next.history?.at(-1)?.calculation_version || null),
      after: figures(next, calculation.version),
    },
    actor.company,
  );
}

/** A write that failed part-way: the months' calculations written before it are undone. */
async function undoCalculations(deps: Deps, actor: Actor, written: readonly { plan: Planned; calculation: StoredCalculation }[]) {
  for (const { plan, calculation } of written.toReversed()) {
    try {
      if (plan.replaces) {
        const { inputs, name } = plan.replaces;
        await patchCalculation(deps, actor, "underground", calculation.id, {
          name,
          values: {
            volume: inputs.volume,
            ef_ch4: inputs.ef_ch4,
            ef_co2: inputs.ef_co2,
            measurement_frequency: inputs.measurement_frequency ?? "",
            measurement_instruments: inputs.measurement_instruments ?? "",
            ...(inputs.basis ? { basis: inputs.basis } : {}),
          },
          justifications: {
            ef_ch4: plan.replaces.coefficients.ef_ch4?.justification ?? "",
            ef_co2: plan.replaces.coefficients.ef_co2?.justification ?? null,
          },
          version: calculation.version,
        });
      } else {
        await patchCalculation(deps, actor, "underground", calculation.id, { values: {}, is_deleted: true, version: calculation.version });
      }
    } catch {
      // Left as written: the month's acceptance was not, so the offer still shows it unaccepted.
    }
  }
}
