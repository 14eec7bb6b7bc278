// From the mine's readings to the year (methodology D61–D63): per emission point and month on the
// company's clock, the volume and flow-weighted CH4 content the core computes from the point's sensors'
// minutes (flow or anemometer × cross-section, a methane meter, P and T for a drainage line's actual
// flow), with completeness, the longest gap and the SHA-256 of the readings used; a person accepts a
// month (or several) into a project as a measured calculation «по данным АГК» (Tier 3), below 95 %
// completeness only with a reason; a month accepted whose readings moved it since by more than 0,1 %
// is flagged «данные АГК изменились после принятия». Advisory: protective cut-off stays with the АГК.
import { createHash } from "node:crypto";
import { instantOfWallTime, zoneOf } from "@core/company-clock";
import {
  ACCEPTED_CHANGE_SHARE,
  acceptedMonthChanged,
  DEMO_READINGS_LABEL,
  MINUTE_MS,
  OFFER_COMPLETENESS,
  pointVolume,
  sensorMinutes,
  type SensorKind,
  type Substituted,
} from "@core/telemetry";
import type { Actor, Deps } from "../context";
import { Conflict, Invalid } from "../errors";
import { getFacility } from "../company/facilities";
import { createCalculation } from "../calculations/calculations";
import { getProject } from "../calculations/projects";
import type { EmissionPoint, OfferAcceptance, Sensor } from "../../ports";
import type * as z from "zod";
import type { offerAcceptSchema, offerSchema } from "../../contract/schemas/telemetry";
import { registerAt } from "./register";
import { readingsBetween } from "./days";
import { acceptedEvidenceKey, type MonthEvidence } from "./accepted-evidence";

export type Offer = z.output<typeof offerSchema>;
export type OfferAcceptInput = z.output<typeof offerAcceptSchema>;

const FLOW_KINDS: SensorKind[] = ["flow", "air_velocity"];
const CONTENT_KINDS: SensorKind[] = ["methane_high", "methane", "methane_flow"];
const two = (n: number) => String(n).padStart(2, "0");
const ruMonth = (month: string) => `${month.slice(5)}.${month.slice(0, 4)}`;
/** «20 °C, 101,325 кПа» densities (get_underground's first row), as the demo year's measured calculations. */
const STANDARD_CONDITIONS = { get_underground: 1, get_underground_content: null };

/** The point's sensors that give its formula: the first of each kind in service in the month, the
 *  point's own (no working) before a working's (a longwall's meters measure its air, not the shaft's). */
export function sensorsOf(sensors: readonly Sensor[], point: string, fromDate: string, toDate: string) {
  const inMonth = sensors
    .filter(
      (s) => s.point === point && (!s.in_service_from || s.in_service_from <= toDate) && (!s.in_service_to || s.in_service_to >= fromDate),
    )
    .sort((a, b) => Number(a.working !== "") - Number(b.working !== ""));
  const first = (kinds: SensorKind[]) => kinds.map((k) => inMonth.find((s) => s.kind === k)).find(Boolean);
  return {
    flow: first(FLOW_KINDS),
    content: first(CONTENT_KINDS),
    pressure: first(["pressure"]),
    temperature: first(["temperature"]),
  };
}

export interface MonthWindow {
  month: string;
  start: number;
  minutes: number;
}

export function monthWindow(year: number, month: number, zone: string, now: number): MonthWindow | undefined {
  const start = instantOfWallTime(year, month, 1, 0, 0, zone);
  const end = month === 12 ? instantOfWallTime(year + 1, 1, 1, 0, 0, zone) : instantOfWallTime(year, month + 1, 1, 0, 0, zone);
  const until = Math.min(end, Math.floor(now / MINUTE_MS) * MINUTE_MS);
  if (until <= start) return undefined;
  return { month: `${year}-${two(month)}`, start, minutes: Math.round((until - start) / MINUTE_MS) };
}

/** One point's month, or undefined without the sensors or without one valid minute; with `keep`, the
 *  readings and register entries it came from too. */
export async function pointMonth(
  deps: Pick<Deps, "repos">,
  company: string,
  point: EmissionPoint,
  sensors: readonly Sensor[],
  window: MonthWindow,
  keep = false,
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
  const minutesOf = async (
    sensor: Sensor,
    role: MonthEvidence["description"]["sensors"][number]["role"],
    paired?: Float64Array,
  ): Promise<Substituted> => {
    const read = await readingsBetween(deps, company, sensor.id, window.start, window.start + window.minutes * MINUTE_MS);
    if (read.demo) demo = true;
    for (let i = 0; i < read.times.length; i++) {
      const line = `${sensor.code};${new Date(read.times[i]).toISOString()};${read.values[i]}\n`;
      hash.update(line);
      if (keep) kept.push(line);
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
      },
    },
  };
}

function withAcceptance(offer: Omit<Offer, "accepted">, acceptance: OfferAcceptance | undefined): Offer {
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
    },
  };
}

async function zoneOfCompany(deps: Pick<Deps, "repos">, company: string) {
  return zoneOf(await deps.repos.companies.get(company));
}

/** Every point's months of `year` that the readings give, by point name and month. */
export async function listOffers(deps: Deps, actor: Actor, facilityId: string, year: number): Promise<Offer[]> {
  await getFacility(deps, actor, facilityId);
  const [points, sensors, acceptances, zone] = await Promise.all([
    deps.repos.emissionPoints.listOfFacility(actor.company, facilityId),
    deps.repos.sensors.listOfFacility(actor.company, facilityId),
    deps.repos.telemetry.acceptances(actor.company, facilityId),
    zoneOfCompany(deps, actor.company),
  ]);
  const now = deps.clock.now().getTime();
  const offers: Offer[] = [];
  for (const point of points) {
    for (let month = 1; month <= 12; month++) {
      const window = monthWindow(year, month, zone, now);
      if (!window) continue;
      const offer = (await pointMonth(deps, actor.company, point, sensors, window))?.offer;
      if (!offer) continue;
      offers.push(
        withAcceptance(
          offer,
          acceptances.find((a) => a.point === point.id && a.month === window.month),
        ),
      );
    }
  }
  return offers;
}

/** Months of a point accepted into `project` as measured calculations «по данным АГК» (D63). */
export async function acceptOffers(deps: Deps, actor: Actor, input: OfferAcceptInput): Promise<Offer[]> {
  await getFacility(deps, actor, input.facility);
  const project = await getProject(deps, actor, input.project);
  if (project.facility !== input.facility) throw new Invalid("project: проект не относится к этой площадке");
  const [point, sensors, acceptances, zone] = await Promise.all([
    deps.repos.emissionPoints.get(actor.company, input.facility, input.point),
    deps.repos.sensors.listOfFacility(actor.company, input.facility),
    deps.repos.telemetry.acceptances(actor.company, input.facility),
    zoneOfCompany(deps, actor.company),
  ]);
  if (!point) throw new Invalid("point: источник выбросов не найден среди источников площадки");
  const now = deps.clock.now().getTime();
  const reason = input.reason?.trim() ?? "";
  const planned: { offer: Omit<Offer, "accepted">; evidence: MonthEvidence }[] = [];
  for (const month of [...new Set(input.months)].sort()) {
    if (acceptances.some((a) => a.point === point.id && a.month === month)) throw new Conflict(`Месяц ${ruMonth(month)} уже принят`);
    const window = monthWindow(Number(month.slice(0, 4)), Number(month.slice(5)), zone, now);
    const month_ = window && (await pointMonth(deps, actor.company, point, sensors, window, true));
    const offer = month_?.offer;
    if (!offer || !month_.evidence) throw new Invalid(`months: за ${ruMonth(month)} нет показаний датчиков источника «${point.name}»`);
    if (offer.completeness < OFFER_COMPLETENESS && !reason) {
      const pct = (offer.completeness * 100).toLocaleString("ru-RU", { maximumFractionDigits: 2 });
      throw new Invalid(`reason: полнота данных за ${ruMonth(month)} ${pct} % — ниже 95 %: укажите причину, по которой месяц принимается`);
    }
    planned.push({ offer, evidence: month_.evidence });
  }
  const accepted: Offer[] = [];
  for (const { offer, evidence: kept } of planned) {
    const [y, m] = offer.month.split("-").map(Number);
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const evidence =
      (offer.demo ? `${DEMO_READINGS_LABEL[0].toUpperCase()}${DEMO_READINGS_LABEL.slice(1)} (симулятор АГК, не показания шахты). ` : "") +
      `По данным АГК за ${ruMonth(offer.month)}: минут ${offer.minutes.valid} достоверных, ${offer.minutes.substituted} замещенных, ` +
      `${offer.minutes.missing} без данных из ${offer.minutes.expected}; полнота ${(offer.completeness * 100).toLocaleString("ru-RU", { maximumFractionDigits: 2 })} %; ` +
      `наибольший пропуск ${offer.longest_gap_min} мин; SHA-256 показаний ${offer.readings_sha256}` +
      (reason && offer.completeness < OFFER_COMPLETENESS ? `; причина принятия: ${reason}` : "");
    const calculation = await createCalculation(deps, actor, "underground", {
      name: `${point.name}: по данным АГК, ${ruMonth(offer.month)}${offer.demo ? ` (${DEMO_READINGS_LABEL})` : ""}`,
      project: project.id,
      values: { volume: offer.volume_thousand_m3, ef_ch4: offer.ef_ch4, ef_co2: 0 },
      dictionary_items: STANDARD_CONDITIONS,
      justifications: { ef_ch4: evidence },
      period: { from: `${offer.month}-01`, to: `${offer.month}-${two(last)}` },
      point: point.id,
    });
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
      reason: offer.completeness < OFFER_COMPLETENESS ? reason : "",
    };
    // The readings the month came from, as their SHA-256 is over, for the verification pack: before the
    // acceptance, so an accepted month never lacks them.
    const encoder = new TextEncoder();
    await deps.blobs.put(acceptedEvidenceKey(acceptance, "csv"), encoder.encode(kept.readings.join("")), "text/csv; charset=utf-8");
    await deps.blobs.put(
      acceptedEvidenceKey(acceptance, "json"),
      encoder.encode(`${JSON.stringify(kept.description, null, 2)}\n`),
      "application/json",
    );
    await deps.repos.telemetry.createAcceptance(acceptance);
    accepted.push(withAcceptance(offer, acceptance));
  }
  return accepted;
}
