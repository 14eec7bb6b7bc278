// Issue 105, item 4: the act, point and edition of the limit a methane meter is read against, in the words
// the register and the live tile print (the journal's come from the server, each day's own edition).
import { METHANE_KINDS, type SensorKind } from "@core/monitoring";
import { limitSourceText, placeOfKind } from "@core/methane-limits";
import type { MethaneLimitRow } from "@server/contract";
import { number } from "./liveTexts";

/** Today's permissible limit of the place a meter of `kind` measures, among the reference's rows. */
export const placeLimit = (rows: readonly MethaneLimitRow[] | undefined, kind: SensorKind): MethaneLimitRow | undefined =>
  METHANE_KINDS.has(kind) ? rows?.find((r) => r.applied && r.place === placeOfKind(kind)) : undefined;

/** «Допустимая 1 % (…, п. 122, приложение № 3 (текст акта не прочитан))», with «предел — A датчика» first
 *  where the register sets the meter's A; null for a meter of another kind. */
export function limitText(rows: readonly MethaneLimitRow[] | undefined, kind: SensorKind, alarm: number | null): string | null {
  const place = placeLimit(rows, kind);
  if (!place) return null;
  const allowed = `допустимая ${number(place.limit_pct, 2)}\u00a0% — ${limitSourceText({ ...place, by: "place" })}`;
  return alarm === null ? `Предел: ${allowed}` : `Предел — A датчика; ${allowed}`;
}
