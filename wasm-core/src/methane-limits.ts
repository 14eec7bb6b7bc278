// The permissible methane concentrations the product draws, by place, with the act that sets them
// (issue 99): Order 506 of Rostekhnadzor (08.12.2020) «Инструкция по аэрологической безопасности
// угольных шахт», in force from 01.01.2021 until 01.01.2027 (its point 2). The act's point for each
// value is not yet checked against its text here, so none is named. A gassing is read against the
// sensor's own alarm level where it has one, else against the limit of its place.
import type { SensorKind } from "./monitoring";

export type MethanePlace = "working" | "wing_outgoing" | "local_accumulation" | "suction_pipeline";

export const METHANE_PLACE_LABELS: Readonly<Record<MethanePlace, string>> = {
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
  /** The act's point; null while not checked against the act's text. */
  readonly point: string | null;
  /** The edition's name (the act and its date). */
  readonly edition: string;
  /** The first day it holds (ISO date). */
  readonly valid_from: string;
  /** The first day it no longer holds (ISO date); null when the act names none. */
  readonly valid_to: string | null;
}

export const ORDER_506 = "Приказ Ростехнадзора от 08.12.2020 № 506 «Инструкция по аэрологической безопасности угольных шахт»";
const edition506 = {
  act: ORDER_506,
  point: null,
  edition: "Приказ № 506 от 08.12.2020",
  valid_from: "2021-01-01",
  valid_to: "2027-01-01",
} as const;

/** Order 506's values, as the product has drawn them since 2021. */
export const ORDER_506_LIMITS: readonly MethaneLimit[] = [
  { place: "working", limit_pct: 1, ...edition506 },
  { place: "wing_outgoing", limit_pct: 0.75, ...edition506 },
  { place: "local_accumulation", limit_pct: 2, ...edition506 },
  { place: "suction_pipeline", limit_pct: 3.5, ...edition506 },
];

/** The place a sensor of a kind measures, for the limit it is read against without its own alarm level. */
export const METHANE_PLACES = Object.keys(METHANE_PLACE_LABELS) as [MethanePlace, ...MethanePlace[]];

/** The screens' words where no confirmed edition holds today (issue 99, item 3). */
export const EDITION_NOT_CONFIRMED = "редакция правил не подтверждена";

export const placeOfKind = (kind: SensorKind): MethanePlace => (kind === "methane_high" ? "suction_pipeline" : "working");

/** The limit of a place among `limits` (the edition in force), % vol; undefined without one. */
export const limitOfPlace = (limits: readonly MethaneLimit[], place: MethanePlace): number | undefined =>
  limits.find((l) => l.place === place)?.limit_pct;
