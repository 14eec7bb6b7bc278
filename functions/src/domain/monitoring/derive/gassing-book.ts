// Issue 105: the gassing book («Книга учета загазирований») as the mine keeps it. The dispatcher
// registers a gassing (whom they informed, the cause, the type, the losses, who cleared the gas, who
// investigated, the measures) and closes it: refused while a notification is unticked, the gassing lasts,
// or the cause, the type or the measures are empty, each named in Russian. A closed entry does not change
// (409); it is then confirmed by the section's head, the head of the АБ section and the chief engineer,
// each by a user an administrator gave that duty (DUTIES), once, never by the one who closed it (issue
// 114, D89: four eyes, 403). Who and when are kept by e-mail and
// shown by surname and initials (gassing-entry.ts). Entries have no expiry (docs/methodology.md).
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, Invalid } from "../../errors";
import { problemAt } from "../../../contract/field-errors";
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
  context: {
    company: string;
    id: string;
    facility: string;
    start: string;
    lasts: boolean;
    sudden?: boolean;
    by: string;
    at: string;
  },
): GassingRegistration {
  if (stored?.closed) throw new Conflict(CLOSED);
  const notified = { ...(stored?.notified ?? NOBODY_NOTIFIED), ...input.notified };
  const text = (given: string | undefined, kept: string | undefined) => (given === undefined ? (kept ?? "") : given.trim());
  const entry = {
    cause: text(input.cause, stored?.cause),
    type: input.type ?? stored?.type ?? null,
    onset: input.onset ?? stored?.onset ?? null,
    losses: {
      ...NO_LOSSES,
      ...stored?.losses,
      ...Object.fromEntries(Object.entries(input.losses ?? {}).filter(([, v]) => v !== undefined)),
    },
    cleared_by: text(input.cleared_by, stored?.cleared_by),
    cleared_at: input.cleared_at ? new Date(input.cleared_at).toISOString() : (stored?.cleared_at ?? null),
    resumed_at: input.resumed_at ? new Date(input.resumed_at).toISOString() : (stored?.resumed_at ?? null),
    investigated_by: text(input.investigated_by, stored?.investigated_by),
    measures: text(input.measures, stored?.measures),
    correction_reason: text(input.correction_reason, stored?.correction_reason),
  };
  if (input.close) {
    // Issue 114: every reason at once — the notifications unticked, a gassing that lasts, each empty field.
    const unticked = NOTIFICATIONS.filter((n) => !notified[n]);
    const problems = [
      ...(unticked.length > 0
        ? [problemAt("notified", `нельзя закрыть: не отмечено, что оповещены ${unticked.map((n) => NOTIFICATION_LABELS[n]).join(", ")}`)]
        : []),
      ...(context.lasts ? [problemAt("close", "нельзя закрыть: загазирование продолжается")] : []),
      ...(closingProblems(entry, context.sudden, (stored?.corrections?.length ?? 0) > 0)?.problems ?? []),
    ];
    if (problems.length > 0) throw new Invalid(problems);
  }
  return {
    company: context.company,
    id: context.id,
    facility: context.facility,
    start: context.start,
    // An entry the minutes made (D89) is registered by the first who writes it.
    registered_by: stored?.registered_by || context.by,
    registered_at: stored?.registered_at || context.at,
    ...(stored?.found_at ? { found_at: stored.found_at } : {}),
    ...(stored?.corrections ? { corrections: stored.corrections } : {}),
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
  const stored = await deps.repos.gassings.get(actor.company, id);
  // D89: the entry the minutes made keeps its gassing as found, followed as the minutes come by the
  // record's consumer (gassing-record.ts), corrected there where they no longer give it: registering it
  // reads no minutes (issue 116, item 3: finding it again read every meter of the facility, 88 ms of the
  // request thread for 200 meters with 30 h). Only an entry without it is found from the minutes.
  const now = stored?.found ? undefined : await findGassing(deps, actor.company, id);
  const found = stored?.found ?? foundOf(now!.gassing);
  const facility = stored?.facility ?? now!.facility.id;
  const start = stored?.start ?? new Date(now!.gassing.start).toISOString();
  // A corrected entry lasts as its last correction says the minutes give it now (none: ended).
  const last = stored?.corrections?.at(-1);
  const lasts = last ? last.after !== null && last.after.end === null : found.end === null;
  const next = {
    ...nextEntry(stored, input, {
      company: actor.company,
      id,
      facility,
      start,
      lasts,
      sudden: found.sudden ?? false,
      by: actor.email,
      at: deps.clock.now().toISOString(),
    }),
    found,
  };
  if (stored) await deps.repos.gassings.replace(next, stored.version);
  else await deps.repos.gassings.create(next);
  const view = gassingView(facility, id, start, next.found, next, await initialsByEmail(deps.repos, actor.company));
  return (await withDoubt(deps, actor.company, facility, [view], deps.clock.now().getTime()))[0];
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
  // Issue 114 (D89): four eyes — the one who closed an entry confirms nothing of it.
  if (entry.closed_by === holder.by)
    throw new Forbidden(
      `Подтверждает ${DUTY_LABELS[duty]}, не закрывший запись: запись закрыли вы, ее подтверждает другой человек (правило «четырех глаз»)`,
    );
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
