// D95: the shift handover. At handover the platform lists what is open at that moment
// — the meters at or above their alarm level now and the gassing book's entries not closed, meters and
// flows silent, meters at or above 0,9·W, checks failed or overdue, sensors out of verification, and the
// shown forecasts whose chance of the limit is ≥ 0,5 — and the one handing over adds what only people know
// (protections bypassed, with the sensor; remarks); the record is signed by them as it is written and by
// the one taking over (another person); after both it never changes, a correction is a new record that
// refers to it. The shifts are the facility's (shifts.ts). The lists come from the «Мониторинг» view (the
// live window's minutes, as GET v1/telemetry/live/ reads them) and the checks' states: no day's minutes are
// folded here. Advisory: protective cut-off stays with the mine's own АГК.
import { dateTimeText, isoDateIn } from "@core/company-clock";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, invalidAt, NotFound } from "../../errors";
import { newId } from "../../ids";
import { initialsByEmail } from "../../person-name";
import { getFacility } from "../../company/facilities";
import type { Handover } from "../../../ports";
import { sameHandover } from "../../../ports/shift-records";
import type {
  handoverCreateSchema,
  HandoverList,
  HandoverView,
  JournalSignatures,
  JournalSignatureView,
  journalSignSchema,
  sensorCheckPeriodQuery,
} from "../../../contract/schemas/sensor-checks";
import { CHECK_DUTY_LABELS } from "@core/sensor-checks";
import { chanceShown, silenceSpan } from "@core/monitoring-events";
import { SENSOR_PLACES } from "@core/sensor-places";
import { SENSOR_CHECK_PERIOD_DAYS } from "../../../contract/schemas/sensor-checks";
import type { liveView } from "../live/live";
import { currentLiveView } from "../live/minute-reads";
import { checkStates } from "../instruments/check-states";
import { facilityShifts, type FacilityShifts } from "../instruments/shifts";
import { unconfirmedCutoffs } from "../derive/cutoff-audit";
import type { CutoffView } from "../../../contract/schemas/readings-audit";
import { DAY_MS } from "@core/dates";
import { questionsOf, type Question } from "../derive/suspect";
import { facilityScheme, schemeLine } from "../live/scheme";

export const HANDOVER_MISSING = "Передача смены не найдена";
const REVIEWER = "Недостаточно прав: смену передают и принимают сотрудники площадки, не проверяющий";
const number = (v: number, digits: number) => v.toLocaleString("ru-RU", { minimumFractionDigits: digits, maximumFractionDigits: digits });

type Open = Handover["open"];
type LiveView = Awaited<ReturnType<typeof liveView>>;
type States = Awaited<ReturnType<typeof checkStates>>["states"];

/** A channel's silence since its latest reading kept, past the day too (not «за сутки»
 *  where the reading is known), in minutes, hours and days as the tile says it (silenceSpan: «нет показаний
 *  271 сут 11 ч», not «390 934 мин»). A stored handover keeps the words it was written with. */
const silentText = (minutes: number) => `нет показаний ${silenceSpan(minutes)}`;

/** What is open at handover, from the «Мониторинг» view, the book's entries not closed and the checks' states. */
export function openLists(
  view: Pick<LiveView, "tiles">,
  unclosed: readonly { sensors: string[]; working: string; start: string }[],
  states: States,
  at: (iso: string) => string,
  cutoffs: readonly CutoffView[] = [],
): Open {
  const open: Open = { gassings: [], silent: [], levels: [], checks: [], verification: [], forecasts: [], cutoffs: [] };
  for (const tile of view.tiles) {
    // a place's tile (the shaft's, the drainage line's) is named by its place.
    const working = tile.place ? SENSOR_PLACES[tile.place] : tile.working;
    for (const m of tile.meters) {
      // D98: a meter in a gassing of the book is handed over as the tile says it, whatever its W and A (the
      // level it reached said beside it); silent, its silence too.
      if (m.state === "gassing")
        open.gassings.push({ code: m.code, working, text: [m.state_label, m.levels_label].filter((t) => t).join("; ") });
      if (m.stale_minutes !== null) open.silent.push({ code: m.code, working, text: silentText(m.stale_minutes) });
      else if (m.state === "gassing") continue;
      else if (m.value === null) open.silent.push({ code: m.code, working, text: "нет показаний за сутки" });
      else if (m.state === "alarm" && m.value !== null)
        open.gassings.push({ code: m.code, working, text: `${number(m.value, 2)} % об. — не ниже уставки A сейчас` });
      else if ((m.state === "warning" || m.state === "pre_warning") && m.value !== null)
        open.levels.push({ code: m.code, working, text: `${number(m.value, 2)} % об.: ${m.state_label}` });
    }
    // D101: every other channel of the working (CO, O2, CO2, the shearer's run state, …) handed over too: silent,
    // or at or above its W or A.
    for (const c of tile.channels ?? []) {
      if (c.stale_minutes !== null) open.silent.push({ code: c.code, working, text: silentText(c.stale_minutes) });
      else if (c.value === null) open.silent.push({ code: c.code, working, text: "нет показаний за сутки" });
      else if (c.state_label.startsWith("≥"))
        open.levels.push({ code: c.code, working, text: `${number(c.value, 2)} ${c.unit}: ${c.state_label}` });
    }
    for (const flow of [tile.air_flow, tile.drainage_flow])
      if (flow && flow.stale_minutes !== null) open.silent.push({ code: flow.code, working, text: silentText(flow.stale_minutes) });
      else if (flow && flow.value === null) open.silent.push({ code: flow.code, working, text: "нет показаний за сутки" });
    // Shown as the tile shows it (chanceShown: only a chance judged reliable, D96).
    for (const f of tile.forecasts) {
      const chance = chanceShown(f);
      if (chance !== null && chance >= 0.5)
        open.forecasts.push({
          code: f.sensor,
          working,
          // D108 (a): the chance of any minute at or above the limit within the horizon.
          text: `вероятность хотя бы одной минуты от предела за ${f.horizon_label}: ${Math.round(chance * 100)} %`,
        });
    }
  }
  for (const g of unclosed)
    open.gassings.push({ code: g.sensors.join(", "), working: g.working, text: `запись книги с ${at(g.start)} не закрыта` });
  for (const s of states) {
    const checks = s.problems.filter((p) => !p.startsWith("вне поверки"));
    if (checks.length > 0) open.checks.push({ code: s.code, working: s.working, text: checks.join("; ") });
    if (s.out_of_verification_from) open.verification.push({ code: s.code, working: s.working, text: s.verification });
  }
  // D104: each cut-off not confirmed, with where its answer stands.
  for (const c of cutoffs)
    open.cutoffs.push({
      code: c.sensor_code,
      working: c.working,
      text: `${c.text} (с ${at(c.start)}); ${c.answer ? `причина: ${c.answer.cause_text}, ждет подтверждения` : "причина не указана"}`,
    });
  return open;
}

/** Item 7: the questions not answered, «показания не меняются 360 мин с 01.03.2026 10:00 — ответа нет». */
export function questionedList(questions: readonly Question[], at: (iso: string) => string): NonNullable<Open["questioned"]> {
  return questions
    .filter((q) => q.answer === null)
    .map((q) => ({
      code: q.code,
      working: q.working,
      text: `${q.text} с ${at(q.start)}${q.end === null ? "" : ` по ${at(q.end)}`} — ответа нет`,
    }));
}

function view(
  h: Handover,
  nameOf: (email: string) => string,
  shifts: Pick<FacilityShifts, "name">,
  correctedBy: string | null,
): HandoverView {
  return {
    id: h.id,
    facility: h.facility,
    shift_from: h.shift_from,
    shift_from_name: shifts.name(h.shift_from),
    shift_to: h.shift_to,
    shift_to_name: shifts.name(h.shift_to),
    at: h.at,
    open: { ...h.open, questioned: h.open.questioned ?? [], scheme: h.open.scheme ?? [], cutoffs: h.open.cutoffs ?? [] },
    bypassed: h.bypassed,
    remarks: h.remarks,
    corrects: h.corrects,
    corrected_by: correctedBy,
    handed_by: nameOf(h.handed_by),
    handed_at: h.handed_at,
    taken_by: h.taken_by ? nameOf(h.taken_by) : null,
    taken_at: h.taken_at,
    signed: h.taken_by !== null,
  };
}

const followerOf = (all: readonly Handover[], id: string) => all.find((h) => h.corrects === id)?.id ?? null;

/** The shift handed over at `now`: the one now, or, named, the one that ended when it began (a handover
 *  written a few minutes after the shift's end is of the shift that ended, not of the one that began). */
function handedShift(shifts: FacilityShifts, now: number, named: string | undefined): string {
  const { now: current, ended } = shifts.handover(now);
  if (!named || named === current) return current;
  if (named !== ended)
    throw invalidAt(
      "shift_from",
      `передают смену, которая идет («${shifts.name(current)}»), или только что закончившуюся («${shifts.name(ended)}»)`,
    );
  return named;
}

/** The one handing over writes the handover of the shift now ending, its lists filled now; signed by them. */
export async function handOver(
  deps: Deps,
  actor: Actor,
  facilityId: string,
  input: z.output<typeof handoverCreateSchema>,
): Promise<HandoverView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER);
  const facility = await getFacility(deps, actor, facilityId);
  const now = deps.clock.now().getTime();
  const shifts = await facilityShifts(deps, actor.company, facility.id);
  const sensors = await deps.repos.sensors.listOfFacility(actor.company, facility.id);
  const bypassed = (input.bypassed ?? []).map((b, i) => {
    const sensor = sensors.find((s) => s.id === b.sensor);
    if (!sensor) throw invalidAt(`bypassed.${i}.sensor`, "датчик не найден на площадке");
    return { sensor: sensor.id, code: sensor.code, note: b.note };
  });
  const nowIso = new Date(now).toISOString();
  const signedBy = { handed_by: actor.email, handed_at: nowIso, taken_by: null, taken_at: null, version: 1 };
  if (input.corrects) {
    const earlier = await deps.repos.shiftRecords.getHandover(actor.company, facility.id, input.corrects);
    if (!earlier) throw invalidAt("corrects", "исправляемая передача смены не найдена");
    if (input.shift_from && input.shift_from !== earlier.shift_from)
      throw invalidAt("shift_from", `исправление передачи — той же смены («${shifts.name(earlier.shift_from)}»)`);
    // A correction is of the same handover: its shifts, its time and the lists the platform filled then stay
    // as they were; what people add is corrected, signed again by the one handing over and another taking over.
    const record: Handover = {
      company: actor.company,
      facility: facility.id,
      id: newId(),
      shift_from: earlier.shift_from,
      shift_to: earlier.shift_to,
      at: earlier.at,
      open: earlier.open,
      bypassed,
      remarks: input.remarks ?? "",
      corrects: earlier.id,
      ...signedBy,
    };
    // One correction each: the same correction sent again is the one written; another is refused (the
    // storage's once item holds this against writes at the same moment, this read against those before).
    const later = await deps.repos.shiftRecords.handoversOfFacility(actor.company, facility.id, Date.parse(earlier.handed_at));
    const follower = later.find((h) => h.corrects === earlier.id);
    if (follower && sameHandover(follower, record))
      return view(follower, await initialsByEmail(deps.repos, actor.company), shifts, followerOf(later, follower.id));
    if (follower) throw new Conflict("Эту передачу смены уже исправили: исправление следует за последней записью");
    const stored = await written(deps, record);
    return view(stored.handover, await initialsByEmail(deps.repos, actor.company), shifts, stored.correctedBy);
  }
  const [live, due, book, questions, scheme, cutoffs] = await Promise.all([
    currentLiveView(deps, actor, facility),
    checkStates(deps, actor.company, facility.id, now, sensors),
    deps.repos.gassings.list(actor.company),
    // D102–D105: the day's readings questioned and not answered.
    questionsOf(deps, actor.company, facility.id, now - DAY_MS, now + 60_000, now, (email) => email),
    // D106: the sections' scheme as it stands at handover, printed with it.
    facilityScheme(deps, actor, facility.id),
    unconfirmedCutoffs(deps, actor.company, facility.id),
  ]);
  const unclosed = book
    .filter((g) => g.facility === facility.id && !g.closed)
    .map((g) => ({ sensors: g.found?.sensors ?? [], working: g.found?.working ?? "", start: g.start }));
  // To the minute: two entries of one sensor on one day are told apart.
  const at = (iso: string) => dateTimeText(iso, shifts.zone);
  const shiftFrom = handedShift(shifts, now, input.shift_from);
  const record: Handover = {
    company: actor.company,
    facility: facility.id,
    id: newId(),
    shift_from: shiftFrom,
    shift_to: shifts.next(shiftFrom),
    at: nowIso,
    open: {
      ...openLists(live, unclosed, due.states, at, cutoffs),
      questioned: questionedList(questions, at),
      scheme: scheme.sections.map((section) => ({ code: section.name, working: "", text: schemeLine(section) })),
    },
    bypassed,
    remarks: input.remarks ?? "",
    corrects: null,
    ...signedBy,
  };
  const stored = await written(deps, record);
  return view(stored.handover, await initialsByEmail(deps.repos, actor.company), shifts, stored.correctedBy);
}

/** `record` written once, or the same handover written before it (sent again: at once or after), with its
 *  correction where it has one. */
async function written(deps: Pick<Deps, "repos">, record: Handover): Promise<{ handover: Handover; correctedBy: string | null }> {
  const handover = await deps.repos.shiftRecords.createHandover(record);
  if (handover.id === record.id) return { handover, correctedBy: null };
  const later = await deps.repos.shiftRecords.handoversOfFacility(handover.company, handover.facility, Date.parse(handover.handed_at));
  return { handover, correctedBy: followerOf(later, handover.id) };
}

/** The one taking over signs; then the handover never changes. */
export async function takeOver(deps: Pick<Deps, "repos" | "clock">, actor: Actor, facilityId: string, id: string): Promise<HandoverView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER);
  await getFacility(deps, actor, facilityId);
  const stored = await deps.repos.shiftRecords.getHandover(actor.company, facilityId, id);
  if (!stored) throw new NotFound(HANDOVER_MISSING);
  if (stored.taken_by) throw new Conflict("Смену уже приняли: передача подписана обоими и больше не изменяется");
  if (stored.handed_by === actor.email) throw new Conflict("Смену принимает другой человек, не тот, кто ее передал");
  // A corrected handover is taken over in its correction: the one superseded is kept as it was, unsigned.
  const later = await deps.repos.shiftRecords.handoversOfFacility(actor.company, facilityId, Date.parse(stored.handed_at));
  if (followerOf(later, stored.id)) throw new Conflict("Эту передачу смены исправили: принимают смену по исправлению");
  const next = { ...stored, taken_by: actor.email, taken_at: deps.clock.now().toISOString(), version: stored.version + 1 };
  await deps.repos.shiftRecords.replaceHandover(next, stored.version);
  return view(next, await initialsByEmail(deps.repos, actor.company), await facilityShifts(deps, actor.company, facilityId), null);
}

/** The handovers made in a period of company days, newest first. */
export async function listHandovers(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  query: z.output<typeof sensorCheckPeriodQuery>,
): Promise<HandoverList> {
  const facility = await getFacility(deps, actor, facilityId);
  const shifts = await facilityShifts(deps, actor.company, facility.id);
  const to = query.to ?? isoDateIn(deps.clock.now(), shifts.zone);
  const from = query.from ?? new Date(Date.parse(to) - 30 * DAY_MS).toISOString().slice(0, 10);
  if (from > to) throw invalidAt("to", "конец периода раньше начала");
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS >= SENSOR_CHECK_PERIOD_DAYS)
    throw invalidAt("to", `период не длиннее ${SENSOR_CHECK_PERIOD_DAYS} дней`);
  const written = await deps.repos.shiftRecords.handoversOfFacility(actor.company, facility.id, Date.parse(from) - DAY_MS);
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  const results = written
    .filter((h) => {
      const day = isoDateIn(new Date(h.at), shifts.zone);
      return day >= from && day <= to;
    })
    .sort((a, b) => b.id.localeCompare(a.id))
    .map((h) => view(h, nameOf, shifts, followerOf(written, h.id)));
  return { facility: facility.id, facility_name: facility.name, from, to, results };
}

/** The journal's signatures of a company day's shifts. */
export async function journalSignatures(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  facilityId: string,
  date: string,
): Promise<JournalSignatures> {
  await getFacility(deps, actor, facilityId);
  const shifts = await facilityShifts(deps, actor.company, facilityId);
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  const signed = await deps.repos.shiftRecords.journalSignatures(actor.company, facilityId, date);
  return {
    facility: facilityId,
    date,
    results: signed.map((j) => ({
      shift: j.shift,
      shift_name: shifts.name(j.shift),
      by: nameOf(j.by),
      at: j.at,
      handover: j.handover,
      statement: j.statement ?? null,
    })),
  };
}

/** D100: what a signature without a handover states. */
export const NO_HANDOVER_STATEMENT = "передача смены в платформе не велась";

/** The АГК operator signs a shift's journal (D100): only after the shift has ended on the company's clock, and
 *  after the handover into it signed by both (D95) — or, for the shifts before the facility's first handover in
 *  the platform (history loaded from the mine's export), without one, the signature stating so; once. */
export async function signJournal(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  input: z.output<typeof journalSignSchema>,
): Promise<JournalSignatureView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER);
  await getFacility(deps, actor, facilityId);
  const user = await deps.repos.users.get(actor.company, actor.id);
  if (user?.duty !== "agk_operator")
    throw new Forbidden(
      `Журнал подписывает ${CHECK_DUTY_LABELS.agk_operator}: эта обязанность вам не назначена (её назначает администратор)`,
    );
  const shifts = await facilityShifts(deps, actor.company, facilityId);
  const span = shifts.span(input.shift);
  if (!span) throw invalidAt("shift", "такой смены нет");
  const now = deps.clock.now().getTime();
  // D100: a shift's journal holds what happened to its end (a gassing begun at 15:33 sat in a journal signed
  // at 15:32 of a 14:00–20:00 shift): signed once the shift is over, not before.
  if (span.to > now)
    throw invalidAt(
      "shift",
      `смена «${shifts.name(input.shift)}» еще не закончилась: журнал смены подписывают после ее конца, ${dateTimeText(new Date(span.to).toISOString(), shifts.zone)}`,
    );
  const into = (await deps.repos.shiftRecords.handoversOfFacility(actor.company, facilityId, span.from - DAY_MS)).filter(
    (h) => h.shift_to === input.shift,
  );
  const handover = into.filter((h) => h.taken_by !== null).at(-1);
  let statement: string | null = null;
  if (!handover) {
    const refused = (why: string) =>
      new Conflict(`Журнал смены «${shifts.name(input.shift)}» подписывается после передачи смены в нее, подписанной обоими: ${why}`);
    if (into.length > 0) throw refused("передачу еще не приняли");
    // D100: a shift before the facility's first handover in the platform — none of its handovers made before
    // the shift began (history loaded from the mine's export, the first shift in the platform) — has no
    // handover into it and never will: signed without one, the signature stating so.
    const earlier = await deps.repos.shiftRecords.handoversOfFacility(actor.company, facilityId, 0);
    if (earlier.some((h) => Date.parse(h.handed_at) < span.from)) throw refused("передачи в нее не было");
    statement = NO_HANDOVER_STATEMENT;
  }
  const record = {
    company: actor.company,
    facility: facilityId,
    shift: input.shift,
    by: actor.email,
    at: new Date(now).toISOString(),
    handover: handover?.id ?? null,
    statement,
  };
  await deps.repos.shiftRecords.createJournalSignature(record);
  return {
    shift: record.shift,
    shift_name: shifts.name(record.shift),
    by: (await initialsByEmail(deps.repos, actor.company))(record.by),
    at: record.at,
    handover: record.handover,
    statement: record.statement,
  };
}
