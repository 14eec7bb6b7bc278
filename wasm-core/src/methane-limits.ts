// The permissible methane concentrations the product reads gassings against, by place, each with the act,
// point and edition it comes from, and whether that point was read in the act's text.
//
// - The safety rules («Правила безопасности в угольных шахтах», Order 507 of Rostekhnadzor, 08.12.2020) say
//   in point 122 that the permissible methane concentrations are those of their Appendix 3 (as an earlier round's
//   verifiers read it). Neither the rules' text nor Appendix 3 is stored where this product was built, so
//   the values (those the product has drawn since 2021) and the point are marked unread (`text_read: false`)
//   and every screen that draws them says so. The order holds until 01.01.2027.
// - Government Decree 315 of 25.04.2011 (read in a copy of its text): degassing is obligatory where
//   ventilation cannot keep methane in the active workings under 1 % (its point 1), and for the mined-out
//   space where methane in gas-suction pipelines exceeds 3,5 % (its point 3). It names no end date: it is
//   the standing rule a place is read against on a day no edition of the permissible concentrations holds.
//
// One edition per place and day: an administrator's edition that overlaps another on a place is refused
// (409, naming it), so a day's limit of a place is never a choice among rows.
import type { SensorPlace } from "./sensor-places";

export type MethanePlace = "intake" | "working" | "wing_outgoing" | "local_accumulation" | "suction_pipeline";

export const METHANE_PLACE_LABELS: Readonly<Record<MethanePlace, string>> = {
  intake: "в поступающей струе",
  working: "в выработке и ее исходящей струе",
  wing_outgoing: "в исходящей струе крыла, шахты",
  local_accumulation: "местное скопление",
  suction_pipeline: "в газоотсасывающем трубопроводе",
};

export interface MethaneLimit {
  readonly place: MethanePlace;
  /** % vol. */
  readonly limit_pct: number;
  readonly act: string;
  /** The act's point (and appendix) the value is in; null where it could not be read. */
  readonly point: string | null;
  /** Whether the point and value were read in the act's text (false: carried over, not checked). */
  readonly text_read: boolean;
  /** The edition's name (the act and its date). */
  readonly edition: string;
  /** The first day it holds (ISO date). */
  readonly valid_from: string;
  /** The first day it no longer holds (ISO date); null when the act names none. */
  readonly valid_to: string | null;
}

export const ORDER_507 =
  "Приказ Ростехнадзора от 08.12.2020 № 507 «Об утверждении Федеральных норм и правил в области промышленной безопасности «Правила безопасности в угольных шахтах»»";
const edition507 = {
  act: ORDER_507,
  point: "п. 122, приложение № 3",
  text_read: false,
  edition: "Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020)",
  valid_from: "2021-01-01",
  valid_to: "2027-01-01",
} as const;

/** Appendix 3 of the safety rules, as the product has drawn it since 2021 (not checked against the text). */
export const ORDER_507_LIMITS: readonly MethaneLimit[] = [
  { place: "intake", limit_pct: 0.5, ...edition507 },
  { place: "working", limit_pct: 1, ...edition507 },
  { place: "wing_outgoing", limit_pct: 0.75, ...edition507 },
  { place: "local_accumulation", limit_pct: 2, ...edition507 },
  { place: "suction_pipeline", limit_pct: 3.5, ...edition507 },
];

export const DECREE_315 =
  "Постановление Правительства РФ от 25.04.2011 № 315 «О допустимых нормах содержания взрывоопасных газов (метана) в шахте, угольных пластах и выработанном пространстве, при превышении которых дегазация является обязательной»";
const rule315 = {
  act: DECREE_315,
  text_read: true,
  edition: "Постановление № 315 от 25.04.2011",
  valid_from: "2011-04-25",
  valid_to: null,
} as const;

/** Decree 315's norms: the rule without an end date a place falls back to where no edition holds. */
export const DECREE_315_RULES: readonly MethaneLimit[] = [
  { place: "working", limit_pct: 1, point: "п. 1", ...rule315 },
  { place: "suction_pipeline", limit_pct: 3.5, point: "п. 3", ...rule315 },
];

/** The place a sensor of a kind measures, for the limit it is read against without its own alarm level. */
export const METHANE_PLACES = Object.keys(METHANE_PLACE_LABELS) as [MethanePlace, ...MethanePlace[]];

/** The screens' words where no confirmed edition holds today. */
export const EDITION_NOT_CONFIRMED = "редакция правил не подтверждена";
/** The screens' words beside a limit whose point was not read in the act's text. */
export const TEXT_NOT_READ = "текст акта не прочитан";

/** D87: the row of the permissible concentrations a methane meter hanging at `place` (the
 *  register's) is read against — never its kind (0–4 % or high-range) nor its W/A setpoints, which are
 *  alarms: a face's, 10–20 m's, a longwall's or a section's return meter the working's 1 %; a wing's or
 *  the mine's return (the shaft) 0,75 %; the intake 0,5 %; an isolated removal line 3,5 %; «другое место»
 *  the working's, unless the register names a row (`norm_place`, normOf). A degassing line's meter is no gassing: null. */
export const NORM_OF_PLACE: Readonly<Record<SensorPlace, MethanePlace | null>> = {
  face: "working",
  face_10_20m: "working",
  longwall_return: "working",
  section_return: "working",
  wing_return: "wing_outgoing",
  shaft: "wing_outgoing",
  intake: "intake",
  suction_pipeline: "suction_pipeline",
  drainage_pipeline: null,
  other: "working",
};

/** the rows a meter at «другое место» (`other`) may be read against when the register names
 *  one (`norm_place`): the rows of NORM_OF_PLACE (a local accumulation is a hand measurement's). */
export const NORM_PLACES = ["working", "wing_outgoing", "intake", "suction_pipeline"] as const satisfies readonly MethanePlace[];
export type NormPlace = (typeof NORM_PLACES)[number];

/** The norm's row a methane meter at `place` is read against (D87): its place's, or at «другое место»
 *  the row the register names (`normPlace`), else the working's. */
export function normOf(place: SensorPlace, normPlace?: NormPlace | null): MethanePlace | null {
  return place === "other" && normPlace ? normPlace : NORM_OF_PLACE[place];
}

const holds = (row: Pick<MethaneLimit, "valid_from" | "valid_to">, day: string) =>
  row.valid_from <= day && (row.valid_to === null || day < row.valid_to);

/** How a place's limit of a day was found: the edition holding that day, Decree 315's standing rule,
 *  or (neither) the last edition before the day, not confirmed for it. */
export const LIMIT_STANDINGS = ["edition", "rule", "last_edition"] as const;
export type LimitStanding = (typeof LIMIT_STANDINGS)[number];

export interface AppliedLimit extends MethaneLimit {
  readonly standing: LimitStanding;
}

/** The limit of each place on `day` (ISO date) among `editions` (the editions, each place at most once a
 *  day) and `rules` (Decree 315's): the edition holding that day, else the rule, else the last edition
 *  before the day. A place with none of them is left out. */
export function limitsOn(editions: readonly MethaneLimit[], rules: readonly MethaneLimit[], day: string): AppliedLimit[] {
  return METHANE_PLACES.flatMap((place): AppliedLimit[] => {
    const own = editions.filter((e) => e.place === place);
    const holding = own.find((e) => holds(e, day));
    if (holding) return [{ ...holding, standing: "edition" }];
    const rule = rules.find((r) => r.place === place && holds(r, day));
    if (rule) return [{ ...rule, standing: "rule" }];
    const last = own
      .filter((e) => e.valid_from <= day)
      .sort((a, b) => a.valid_from.localeCompare(b.valid_from))
      .at(-1);
    return last ? [{ ...last, standing: "last_edition" }] : [];
  });
}

/** The edition of `editions` that shares a day and a place with [valid_from, valid_to) over `places`. */
export function overlappingEdition(
  editions: readonly MethaneLimit[],
  places: readonly MethanePlace[],
  valid_from: string,
  valid_to: string | null,
): MethaneLimit | undefined {
  return editions.find(
    (e) => places.includes(e.place) && (e.valid_to === null || valid_from < e.valid_to) && (valid_to === null || e.valid_from < valid_to),
  );
}

/** The applied limit of a place among `limits` (one day's), or undefined without one. */
export const limitOfPlace = (limits: readonly AppliedLimit[], place: MethanePlace): AppliedLimit | undefined =>
  limits.find((l) => l.place === place);

/** Where a sensor's limit comes from (the journal's `limit_source`): a methane meter's is always its
 *  place's norm (D87); «alarm», the register's A, only for a meter of another gas (CO, O2, CO2). */
export interface LimitSourceView {
  readonly by: "alarm" | "place";
  /** The norm's row a methane meter is read against by its place (D87); null for the A of another gas. */
  readonly place?: MethanePlace | null;
  readonly edition: string | null;
  readonly point: string | null;
  readonly text_read: boolean;
  readonly standing: LimitStanding | null;
}

/** A limit's source in a line: «уставка A датчика по реестру», or «норма в исходящей струе крыла, шахты —
 *  Правила безопасности … (приказ № 507 от 08.12.2020), п. 122, приложение № 3 (текст акта не прочитан)». */
export function limitSourceText(source: LimitSourceView, marked = true): string {
  if (source.by === "alarm") return "уставка A датчика по реестру";
  const point = source.point ?? "пункт не прочитан";
  const unread = source.text_read || !marked ? "" : ` (${TEXT_NOT_READ})`;
  const unconfirmed = source.standing === "last_edition" ? `; ${EDITION_NOT_CONFIRMED}` : "";
  const row = source.place ? `норма ${METHANE_PLACE_LABELS[source.place]} — ` : "";
  return `${row}${source.edition}, ${point}${unread}${unconfirmed}`;
}

/** «Правила безопасности … (приказ № 507 от 08.12.2020) — текст акта не прочитан»: each act among `sources`
 *  whose text was not read, once — a page says it once beside the act, not on every norm's line. */
export function actsNotRead(sources: readonly ({ edition: string | null; text_read: boolean } | null)[]): string[] {
  const acts = new Set<string>();
  for (const s of sources) if (s && !s.text_read && s.edition) acts.add(s.edition);
  return [...acts].map((act) => `${act} — ${TEXT_NOT_READ}`);
}

/** Where each sensor's limit comes from, a line per source: «М-1, М-2: <source>», then each act whose text
 *  was not read once (the journal's screen and files: a page of them). */
export function limitSources(sensors: readonly { code: string; limit_source: LimitSourceView | null }[]): string[] {
  const codes = new Map<string, string[]>();
  for (const s of sensors) {
    const source = s.limit_source ? limitSourceText(s.limit_source, false) : "предел не задан (нет уставки A)";
    codes.set(source, [...(codes.get(source) ?? []), s.code]);
  }
  const unread = actsNotRead(sensors.map((s) => (s.limit_source?.by === "place" ? s.limit_source : null)));
  return [...[...codes].map(([source, list]) => `${list.join(", ")}: ${source}`), ...unread];
}
