// Issue 105: the gassing book («Книга учета загазирований») as the mine keeps it. The dispatcher
// registers a gassing (whom they informed, the cause, the type, the losses, who cleared the gas, who
// investigated, the measures) and closes it: refused while a notification is unticked, the gassing lasts,
// or the cause, the type or the measures are empty, each named in Russian. A closed entry does not change
// (409); it is then confirmed by the section's head, the head of the АБ section and the chief engineer,
// each by a user an administrator gave that duty (DUTIES), once. Who and when are kept by e-mail and
// shown by surname and initials (gassing-entry.ts). Entries have no expiry (docs/methodology.md).
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, Invalid, invalidAt } from "../../errors";
import type { GassingRegistration } from "../../../ports";
import { DUTY_LABELS } from "@core/gassing-book";
import {
  NOTIFICATIONS,
  NOTIFICATION_LABELS,
  type gassingConfirmSchema,
  type gassingRegisterSchema,
} from "../../../contract/schemas/journal";
import { initialsByEmail } from "../../person-name";
import { findGassing } from "./journal";
import { NO_LOSSES, NOBODY_NOTIFIED, closingProblems, foundOf, gassingView, type GassingView, withDoubt } from "./gassing-entry";

const CLOSED = "Запись книги загазирований закрыта и больше не изменяется";

/** The entry as the dispatcher wrote it: `input` over what was stored, refused as the book's rules say. */
export function nextEntry(
  stored: GassingRegistration | undefined,
  input: z.output<typeof gassingRegisterSchema>,
  context: { company: string; id: string; facility: string; start: string; lasts: boolean; by: string; at: string },
): GassingRegistration {
  if (stored?.closed) throw new Conflict(CLOSED);
  const notified = { ...(stored?.notified ?? NOBODY_NOTIFIED), ...input.notified };
  const text = (given: string | undefined, kept: string | undefined) => (given === undefined ? (kept ?? "") : given.trim());
  const entry = {
    cause: text(input.cause, stored?.cause),
    type: input.type ?? stored?.type ?? null,
    losses: {
      ...NO_LOSSES,
      ...stored?.losses,
      ...Object.fromEntries(Object.entries(input.losses ?? {}).filter(([, v]) => v !== undefined)),
    },
    cleared_by: text(input.cleared_by, stored?.cleared_by),
    investigated_by: text(input.investigated_by, stored?.investigated_by),
    measures: text(input.measures, stored?.measures),
  };
  if (input.close) {
    const unticked = NOTIFICATIONS.filter((n) => !notified[n]);
    if (unticked.length > 0)
      throw invalidAt("notified", `нельзя закрыть: не отмечено, что оповещены ${unticked.map((n) => NOTIFICATION_LABELS[n]).join(", ")}`);
    if (context.lasts) throw invalidAt("close", "нельзя закрыть: загазирование продолжается");
    const missing = closingProblems(entry);
    if (missing) throw missing;
  }
  return {
    company: context.company,
    id: context.id,
    facility: context.facility,
    start: context.start,
    registered_by: stored?.registered_by ?? context.by,
    registered_at: stored?.registered_at ?? context.at,
    notified,
    comment: text(input.comment, stored?.comment),
    ...entry,
    confirmations: {},
    closed: input.close === true,
    closed_by: input.close ? context.by : null,
    closed_at: input.close ? context.at : null,
    version: (stored?.version ?? 0) + 1,
  };
}

/** The dispatcher registers, fills in or closes the book's entry of gassing `id`. */
export async function registerGassing(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  id: string,
  input: z.output<typeof gassingRegisterSchema>,
): Promise<GassingView> {
  if (actor.role === "reviewer") throw new Forbidden("Недостаточно прав: загазирования регистрирует диспетчер площадки, не проверяющий");
  const { facility, gassing } = await findGassing(deps, actor.company, id);
  const stored = await deps.repos.gassings.get(actor.company, id);
  const start = new Date(gassing.start).toISOString();
  const next = {
    ...nextEntry(stored, input, {
      company: actor.company,
      id,
      facility: facility.id,
      start,
      lasts: gassing.end === null,
      by: actor.email,
      at: deps.clock.now().toISOString(),
    }),
    found: foundOf(gassing),
  };
  if (stored) await deps.repos.gassings.replace(next, stored.version);
  else await deps.repos.gassings.create(next);
  const view = gassingView(facility.id, id, start, next.found, next, await initialsByEmail(deps.repos, actor.company));
  return (await withDoubt(deps, actor.company, facility.id, [view], deps.clock.now().getTime()))[0];
}

/** The confirmation of `duty` given to `entry` by `by` at `at`, refused as the book's rules say. */
export function confirmedEntry(
  entry: GassingRegistration | undefined,
  duty: z.output<typeof gassingConfirmSchema>["duty"],
  holder: { duty?: string | null; by: string; at: string },
): GassingRegistration {
  if (holder.duty !== duty)
    throw new Forbidden(`Подтверждает ${DUTY_LABELS[duty]}: эта обязанность вам не назначена (её назначает администратор)`);
  if (!entry?.closed) throw new Invalid("Подтвердить можно только закрытую запись книги загазирований");
  if (entry.confirmations?.[duty]) throw new Conflict(`Запись уже подтвердил ${DUTY_LABELS[duty]}`);
  return {
    ...entry,
    confirmations: { ...entry.confirmations, [duty]: { by: holder.by, at: holder.at } },
    version: entry.version + 1,
  };
}

/** A user with that duty confirms a closed entry of the book. */
export async function confirmGassing(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  id: string,
  input: z.output<typeof gassingConfirmSchema>,
): Promise<GassingView> {
  const stored = await deps.repos.gassings.get(actor.company, id);
  // Another company's or an unknown gassing is not found, before anything is said of it.
  if (!stored) await findGassing(deps, actor.company, id);
  const user = await deps.repos.users.get(actor.company, actor.id);
  const next = confirmedEntry(stored, input.duty, { duty: user?.duty, by: actor.email, at: deps.clock.now().toISOString() });
  await deps.repos.gassings.replace(next, next.version - 1);
  const found = next.found ?? foundOf((await findGassing(deps, actor.company, id)).gassing);
  const view = gassingView(next.facility, id, next.start, found, next, await initialsByEmail(deps.repos, actor.company));
  return (await withDoubt(deps, actor.company, next.facility, [view], deps.clock.now().getTime()))[0];
}
