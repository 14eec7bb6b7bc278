// and D87: the norm a methane meter is read against — the row of where it
// hangs, never its kind nor its W/A, which are alarms — with its act, point and edition, in the words the
// register and the live tile print (the journal's come from the server, each day's own edition).
import { METHANE_KINDS, type SensorKind } from "@core/monitoring";
import { actsNotRead, limitSourceText, METHANE_PLACE_LABELS, normOf, type NormPlace } from "@core/methane-limits";
import type { SensorPlace } from "@core/sensor-places";
import type { MethaneLimitRow } from "@server/contract";
import { number } from "./liveTexts";

/** Today's norm of the place a methane meter hangs at (D87), among the reference's rows. */
export const placeLimit = (
  rows: readonly MethaneLimitRow[] | undefined,
  kind: SensorKind,
  place: SensorPlace,
  normPlace?: NormPlace | null,
): MethaneLimitRow | undefined => {
  // At «другое место» the row the register names, else the place's own.
  const norm = normOf(place, normPlace);
  return METHANE_KINDS.has(kind) && norm !== null ? rows?.find((r) => r.applied && r.place === norm) : undefined;
};

/** «Норма 0,75 % в исходящей струе крыла, шахты — Правила … (приказ № 507 от 08.12.2020), п. 122,
 *  приложение № 3»; a degassing line's meter opens no gassing; null for another kind. Whether the act's
 *  text was read is said once a page (`actsNotReadOf`), not on each line. */
export function limitText(
  rows: readonly MethaneLimitRow[] | undefined,
  kind: SensorKind,
  place: SensorPlace,
  normPlace?: NormPlace | null,
): string | null {
  if (!METHANE_KINDS.has(kind)) return null;
  if (normOf(place, normPlace) === null) return "Норма загазирования не применяется: дегазационный трубопровод";
  const row = placeLimit(rows, kind, place, normPlace);
  if (!row) return null;
  return `Норма ${number(row.limit_pct, 2)}\u00a0% ${METHANE_PLACE_LABELS[row.place]} — ${limitSourceText({ ...row, by: "place", place: null }, false)}`;
}

/** «Правила … (приказ № 507 от 08.12.2020) — текст акта не прочитан», once a page: each act of the norms
 *  the page's methane meters are read against whose text was not read. */
export const actsNotReadOf = (
  rows: readonly MethaneLimitRow[] | undefined,
  meters: readonly { kind: SensorKind; place: SensorPlace; norm_place?: NormPlace | null }[],
): string[] => actsNotRead(meters.map((m) => placeLimit(rows, m.kind, m.place, m.norm_place) ?? null));
