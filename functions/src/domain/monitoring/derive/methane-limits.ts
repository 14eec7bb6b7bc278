// The permissible methane concentrations by the act in force on each day. The safety
// rules' Appendix 3 (Order 507, @core/methane-limits) holds until 01.01.2027; Decree 315's norms hold without
// an end date and stand for a place on a day no edition holds; an administrator confirms an edition from a
// day (its act, a value and point for each place), kept with who and when. One edition per place and day:
// an edition overlapping another on a place is refused 409, naming it, so a past day is read against the
// edition of its own day and never against a choice among rows. «Today» is the server's clock
// (deps.clock), on UTC dates.
import {
  DECREE_315_RULES,
  METHANE_PLACES,
  ORDER_507_LIMITS,
  limitsOn,
  overlappingEdition,
  type AppliedLimit,
  type MethaneLimit,
  type MethanePlace,
} from "@core/methane-limits";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { assertAdmin } from "../../audit";
import { Conflict, invalidAt } from "../../errors";
import type { StoredMethaneLimitEdition } from "../../../ports";
import type { methaneLimitEditionSchema, methaneLimitSchema } from "../../../contract/schemas/journal";
import { ruDate } from "@core/dates";

export type MethaneLimitRow = z.output<typeof methaneLimitSchema>;

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

interface Sourced extends MethaneLimit {
  confirmed_by: string | null;
  confirmed_at: string | null;
}

/** Every edition's rows: Order 507's first, then those an administrator confirmed. */
async function editions(deps: Pick<Deps, "repos">): Promise<Sourced[]> {
  const confirmed = (await deps.repos.methaneLimits.list()).flatMap((e) =>
    e.rows.map((row) => ({
      ...row,
      text_read: row.point !== null,
      act: e.act,
      edition: e.edition,
      valid_from: e.valid_from,
      valid_to: e.valid_to,
      confirmed_by: e.confirmed_by,
      confirmed_at: e.confirmed_at,
    })),
  );
  return [...ORDER_507_LIMITS.map((row) => ({ ...row, confirmed_by: null, confirmed_at: null })), ...confirmed];
}

const rules = (): Sourced[] => DECREE_315_RULES.map((row) => ({ ...row, confirmed_by: null, confirmed_at: null }));

/** The limit of each place on the day (ISO date): the edition of that day, else Decree 315, else the last
 *  edition before it (its values stand until an administrator confirms the next; the screens say so). */
export async function limitsOnDay(deps: Pick<Deps, "repos">, day: string): Promise<AppliedLimit[]> {
  return limitsOn(await editions(deps), rules(), day);
}

/** Every edition's and rule's rows, each with whether it holds on the day of `at` and whether it is the one
 *  that day's limit of its place is read against. */
export async function methaneLimitRows(deps: Pick<Deps, "repos">, at: number): Promise<MethaneLimitRow[]> {
  const day = dayOf(at);
  const all = [
    ...(await editions(deps)).map((row) => ({ ...row, kind: "edition" as const })),
    ...rules().map((row) => ({ ...row, kind: "rule" as const })),
  ];
  const applied = limitsOn(
    all.filter((r) => r.kind === "edition"),
    all.filter((r) => r.kind === "rule"),
    day,
  );
  return all.map((row) => {
    const used = applied.find((a) => a.place === row.place);
    return {
      ...row,
      confirmed: true,
      in_force: row.valid_from <= day && (row.valid_to === null || day < row.valid_to),
      applied: used !== undefined && used.edition === row.edition && used.valid_from === row.valid_from,
      standing: used?.edition === row.edition && used.valid_from === row.valid_from ? used.standing : null,
    };
  });
}

/** An administrator confirms the edition in force from `valid_from`: its act and a value for each place.
 *  Refused (409, naming it) where another edition holds on one of its days for one of its places. */
export async function confirmMethaneLimits(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  body: z.output<typeof methaneLimitEditionSchema>,
): Promise<MethaneLimitRow[]> {
  assertAdmin(actor);
  const missing = METHANE_PLACES.filter((place) => !body.rows.some((r) => r.place === place));
  if (missing.length > 0) throw invalidAt("rows", `укажите значения для всех мест: нет ${missing.join(", ")}`);
  if (new Set(body.rows.map((r) => r.place)).size !== body.rows.length) throw invalidAt("rows", "место указано дважды");
  const validTo = body.valid_to ?? null;
  if (validTo !== null && validTo <= body.valid_from) throw invalidAt("valid_to", "конец действия раньше начала");
  const other = overlappingEdition(await editions(deps), METHANE_PLACES, body.valid_from, validTo);
  if (other) {
    const until = other.valid_to === null ? "без срока окончания" : `до ${ruDate(other.valid_to)}`;
    throw new Conflict(
      `На эти дни уже действует редакция «${other.edition}» (с ${ruDate(other.valid_from)} ${until}): одна редакция на место и день; укажите начало после ее окончания`,
    );
  }
  const edition: StoredMethaneLimitEdition = {
    act: body.act,
    edition: body.edition,
    valid_from: body.valid_from,
    valid_to: validTo,
    rows: body.rows.map((r) => ({ place: r.place as MethanePlace, limit_pct: r.limit_pct, point: r.point ?? null })),
    confirmed_by: actor.email,
    confirmed_at: deps.clock.now().toISOString(),
  };
  await deps.repos.methaneLimits.create(edition);
  return methaneLimitRows(deps, deps.clock.now().getTime());
}
