// The permissible methane concentrations by the act in force (issue 99, item 3). Order 506's values
// (@core/methane-limits) hold until 01.01.2027; from that day no edition holds until an administrator
// confirms the edition in force (a new act and its values, kept with who and when), and the screens
// that draw a limit say «редакция правил не подтверждена». Until then a gassing is still read against
// the last edition's values, never against a value no act was checked for. The editions before the one
// in force stay, for the years they held. «Today» is the server's clock (deps.clock), on UTC dates.
import { METHANE_PLACES, ORDER_506_LIMITS, type MethaneLimit, type MethanePlace } from "@core/methane-limits";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { assertAdmin } from "../../audit";
import { Conflict, invalidAt } from "../../errors";
import type { StoredMethaneLimitEdition } from "../../../ports";
import type { methaneLimitEditionSchema, methaneLimitSchema } from "../../../contract/schemas/journal";

export type MethaneLimitRow = z.output<typeof methaneLimitSchema>;

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
const holds = (row: Pick<MethaneLimit, "valid_from" | "valid_to">, day: string) =>
  row.valid_from <= day && (row.valid_to === null || day < row.valid_to);

/** Every edition's rows, Order 506's first, each with whether it holds at `at` and who confirmed it. */
export async function methaneLimitRows(deps: Pick<Deps, "repos">, at: number): Promise<MethaneLimitRow[]> {
  const day = dayOf(at);
  const order506 = ORDER_506_LIMITS.map((row) => ({ ...row, confirmed: true, confirmed_by: null, confirmed_at: null }));
  const confirmed = (await deps.repos.methaneLimits.list()).flatMap((e) =>
    e.rows.map((row) => ({
      ...row,
      act: e.act,
      edition: e.edition,
      valid_from: e.valid_from,
      valid_to: e.valid_to,
      confirmed: true,
      confirmed_by: e.confirmed_by,
      confirmed_at: e.confirmed_at,
    })),
  );
  return [...order506, ...confirmed].map((row) => ({ ...row, in_force: holds(row, day) }));
}

/** The limits a gassing is read against at `at` (UTC ms): the edition in force, else the last one before
 *  it (its values stand until an administrator confirms the next). */
export async function limitsInForce(deps: Pick<Deps, "repos">, at: number): Promise<readonly MethaneLimit[]> {
  const rows = await methaneLimitRows(deps, at);
  const inForce = rows.filter((r) => r.in_force);
  if (inForce.length > 0) return inForce;
  const day = dayOf(at);
  const before = rows.filter((r) => r.valid_from <= day).sort((a, b) => a.valid_from.localeCompare(b.valid_from));
  const last = before.at(-1)?.valid_from;
  return before.filter((r) => r.valid_from === last);
}

/** An administrator confirms the edition in force from `valid_from`: its act and a value for each place. */
export async function confirmMethaneLimits(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  body: z.output<typeof methaneLimitEditionSchema>,
): Promise<MethaneLimitRow[]> {
  assertAdmin(actor);
  const missing = METHANE_PLACES.filter((place) => !body.rows.some((r) => r.place === place));
  if (missing.length > 0) throw invalidAt("rows", `укажите значения для всех мест: нет ${missing.join(", ")}`);
  if (new Set(body.rows.map((r) => r.place)).size !== body.rows.length) throw invalidAt("rows", "место указано дважды");
  if (body.valid_to !== null && body.valid_to !== undefined && body.valid_to <= body.valid_from)
    throw invalidAt("valid_to", "конец действия раньше начала");
  const stored = await deps.repos.methaneLimits.list();
  if (stored.some((e) => e.valid_from === body.valid_from)) throw new Conflict("Редакция с этой даты уже подтверждена");
  const edition: StoredMethaneLimitEdition = {
    act: body.act,
    edition: body.edition,
    valid_from: body.valid_from,
    valid_to: body.valid_to ?? null,
    rows: body.rows.map((r) => ({ place: r.place as MethanePlace, limit_pct: r.limit_pct, point: r.point ?? null })),
    confirmed_by: actor.email,
    confirmed_at: deps.clock.now().toISOString(),
  };
  await deps.repos.methaneLimits.create(edition);
  return methaneLimitRows(deps, deps.clock.now().getTime());
}
