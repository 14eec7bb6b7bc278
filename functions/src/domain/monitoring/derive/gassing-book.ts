// the gassing book («Книга учета загазирований») as the mine keeps it. The dispatcher
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
import { MINUTE_MS } from "@core/dates";
import { DEFAULT_TIME_ZONE, dateTimeText, zoneOf } from "@core/company-clock";
import {
  NOTIFICATIONS,
  NOTIFICATION_LABELS,
  type gassingConfirmSchema,
  type gassingRegisterSchema,
} from "../../../contract/schemas/journal";
import { initialsByEmail, UNNAMED_PERSON } from "../../person-name";
import { findGassing } from "./journal";
import { NO_LOSSES, closingProblems, noticesOf, foundOf, gassingView, type GassingView, withDoubt } from "./gassing-entry";

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
    /** The signed-in user's surname and initials ("" when none): who notified, for `true`. */
    name?: string;
    /** The company's clock, for the refusals that name a time. */
    zone?: string;
  },
): GassingRegistration {
  if (stored?.closed) throw new Conflict(CLOSED);
  // A close-only or fill-in body names no addressee: each as kept.
  const notified = nextNotices(stored, input.notified ?? {}, context);
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
    // every reason at once — the notifications unticked, a gassing that lasts, each empty field.
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
    ...(stored?.seen_to ? { seen_to: stored.seen_to } : {}),
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

/** each addressee's notification `input` gives over what was stored: `{at, by?}` as given, a
 *  time before the gassing began or after now refused naming the field; true (the form before an earlier release) now by the
 *  signed-in user, or the time kept; false or null not notified; absent as kept. */
function nextNotices(
  stored: GassingRegistration | undefined,
  input: NonNullable<z.output<typeof gassingRegisterSchema>["notified"]>,
  context: { start: string; at: string; name?: string; zone?: string },
): GassingView["notified"] {
  const kept = noticesOf(stored);
  // A notification is a fact of the past: one before the gassing began, or after the moment it is written
  // (a minute's grace for the user's clock), is a mistyped date, refused naming each field.
  const wrong = NOTIFICATIONS.flatMap((n) => {
    const given = input[n];
    if (typeof given !== "object" || given === null) return [];
    const at = Date.parse(given.at);
    if (at < Date.parse(context.start))
      return [
        problemAt(
          `notified.${n}`,
          `время оповещения раньше начала загазирования (${dateTimeText(context.start, context.zone ?? DEFAULT_TIME_ZONE)})`,
        ),
      ];
    if (at > Date.parse(context.at) + MINUTE_MS) return [problemAt(`notified.${n}`, "время оповещения позже текущего")];
    return [];
  });
  if (wrong.length > 0) throw new Invalid(wrong);
  return Object.fromEntries(
    NOTIFICATIONS.map((n) => {
      const given = input[n];
      if (given === undefined) return [n, kept[n]];
      if (given === true) return [n, kept[n] ?? { at: context.at, by: context.name || null }];
      if (given === false || given === null) return [n, null];
      return [n, { at: new Date(given.at).toISOString(), by: given.by?.trim() || null }];
    }),
  ) as GassingView["notified"];
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
  // reads no minutes (finding it again read every meter of the facility, 88 ms of the
  // request thread for 200 meters with 30 h). Only an entry without it is found from the minutes.
  const now = stored?.found ? undefined : await findGassing(deps, actor.company, id);
  const found = stored?.found ?? foundOf(now!.gassing);
  const facility = stored?.facility ?? now!.facility.id;
  const start = stored?.start ?? new Date(now!.gassing.start).toISOString();
  const [nameOf, company] = await Promise.all([initialsByEmail(deps.repos, actor.company), deps.repos.companies.get(actor.company)]);
  const name = nameOf(actor.email);
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
      name: name === UNNAMED_PERSON ? "" : name,
      zone: zoneOf(company),
    }),
    found,
  };
  if (stored) await deps.repos.gassings.replace(next, stored.version);
  else await deps.repos.gassings.create(next);
  const view = gassingView(facility, id, start, next.found, next, nameOf);
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
  // D89: four eyes — the one who closed an entry confirms nothing of it.
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
