// D95: the shift handover on the day of tests/support/journal-day.ts, read at 06:30 of
// 03.03.2026 (the first shift of the day): the book's entry of 02.03's local gassing registered and not
// closed is listed open, the meters silent since midnight are listed silent, a check failed and a sensor
// out of verification are listed; the one handing over adds a bypassed protection with its sensor and a
// remark; another person takes over; after both it never changes, and a correction is a new handover.
import { beforeAll, describe, expect, it } from "vitest";
import { JOURNAL_DAY_OPEN, journalDayOnMemory } from "../../../../../tests/support/journal-day-memory";
import type { Clock } from "../../../ports";
import type { MemoryDomain } from "../../../../../tests/support/memory-domain";
import { handoverCreateSchema, sensorCheckCreateSchema, verificationCreateSchema } from "../../../contract/schemas/sensor-checks";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { Conflict, Forbidden, Invalid } from "../../errors";
import { createUser } from "../../company/users";
import { listGassings } from "../derive/journal";
import { registerGassing } from "../derive/gassing-book";
import { handOver, journalSignatures, listHandovers, openLists, signJournal, takeOver } from "./handover";
import { recordCheck } from "../instruments/sensor-checks";
import { recordVerification } from "../instruments/verifications";
import { facilityPatchSchema } from "../../../contract/schemas/facility";
import { patchFacility } from "../../company/facilities";

describe("the shift handover (D95)", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let next: Actor;
  let facility = "";
  let m7 = "";

  beforeAll(async () => {
    ({ d, staff, facility } = await journalDayOnMemory("Кузбасс-Смена", "Шахта «Сменная»", JOURNAL_DAY_OPEN));
    next = await d.colleague(staff, { email: "next-shift@example.com", first_name: "Анна", last_name: "Смирнова", duty: "agk_operator" });
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
    m7 = sensors.find((s) => s.code === "М-7")!.id;
    const local = (await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" })).results.find(
      (g) => g.kind === "местное",
    )!;
    await registerGassing(d.deps, staff, local.id, { notified: { rostekhnadzor: true } });
    await recordCheck(
      d.deps,
      next,
      facility,
      m7,
      parseWith(sensorCheckCreateSchema, {
        at: "2026-03-02T20:00:00+07:00",
        kind: "planned",
        button_test_ok: false,
        result: "failed",
        fault: "Кнопка «Контроль» не срабатывает",
      }),
    );
    await recordVerification(
      d.deps,
      staff,
      facility,
      sensors.find((s) => s.code === "М-8")!.id,
      parseWith(verificationCreateSchema, {
        instrument_type: "ДМС 03",
        register_number: "12345-06",
        serial: "0418",
        verified_on: "2025-03-01",
        valid_to: "2026-02-28",
        certificate: "С-418",
      }),
    );
  });

  it("fills what is open, takes what people add, is signed by two and never changes after", async () => {
    const body = parseWith(handoverCreateSchema, {
      bypassed: [{ sensor: m7, note: "Защита М-7 зашунтирована на время ремонта до 08:00" }],
      remarks: "ВМП-2 в резерве",
    });
    await expect(handOver(d.deps, { ...staff, role: "reviewer" }, facility, body)).rejects.toThrow(Forbidden);
    const made = await handOver(d.deps, staff, facility, body);
    expect(made).toMatchObject({
      shift_from: "2026-03-03#1",
      shift_to: "2026-03-03#2",
      shift_from_name: "Смена 1 (00:00–08:00), 03.03.2026",
      signed: false,
      taken_by: null,
      bypassed: [{ sensor: m7, code: "М-7", note: "Защита М-7 зашунтирована на время ремонта до 08:00" }],
      remarks: "ВМП-2 в резерве",
    });
    expect(made.handed_by).not.toContain("@");
    // Every gassing the minutes gave is a book entry from the minute it was found (D89): the longwall's, the
    // heading's registered one and its marked spike (D88), none closed.
    expect(made.open.gassings).toEqual([
      { code: "М-7, М-8", working: "Лава 12-1", text: "запись книги с 02.03.2026 03:10 не закрыта" },
      { code: "М-9", working: "Штрек 5", text: "запись книги с 02.03.2026 10:00 не закрыта" },
      { code: "М-9", working: "Штрек 5", text: "запись книги с 02.03.2026 14:00 не закрыта" },
    ]);
    // The longwall's flow meter sent nothing all day: silent too (it was «нет датчика»).
    expect(made.open.silent.map((s) => s.code).sort()).toEqual(["Q-1", "М-7", "М-8", "М-9"]);
    // In hours past the hour, as the tile says a silence (it read «нет показаний 360 мин»).
    expect(made.open.silent[0].text).toBe("нет показаний 6 ч");
    expect(made.open.silent.find((s) => s.code === "Q-1")).toEqual({ code: "Q-1", working: "Лава 12-1", text: "нет показаний за сутки" });
    expect(made.open.checks).toEqual([{ code: "М-7", working: "Лава 12-1", text: "датчик не прошел проверку 02.03.2026" }]);
    expect(made.open.verification).toEqual([{ code: "М-8", working: "Лава 12-1", text: "вне поверки с 01.03.2026" }]);

    // The one who handed over takes over nothing; another person signs; then it never changes.
    await expect(takeOver(d.deps, staff, facility, made.id)).rejects.toThrow(Conflict);
    const taken = await takeOver(d.deps, next, facility, made.id);
    expect(taken).toMatchObject({ signed: true, taken_by: "Смирнова А." });
    await expect(takeOver(d.deps, next, facility, made.id)).rejects.toThrow("больше не изменяется");

    // A correction is a new handover that refers to it; the first stays and names it.
    const fixed = await handOver(
      d.deps,
      staff,
      facility,
      parseWith(handoverCreateSchema, { remarks: "ВМП-2 в работе", corrects: made.id }),
    );
    expect(fixed.corrects).toBe(made.id);
    await expect(handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { corrects: made.id }))).rejects.toThrow(Conflict);
    const list = await listHandovers(d.deps, staff, facility, { from: "2026-03-03", to: "2026-03-03" });
    expect(list.results.map((h) => [h.id, h.corrected_by, h.remarks])).toEqual([
      [fixed.id, null, "ВМП-2 в работе"],
      [made.id, fixed.id, "ВМП-2 в резерве"],
    ]);
  });
});

describe("the next shift's journal is signed only after the handover into it (D95)", () => {
  it("refuses the signature before the handover is signed by both, takes it after, once", async () => {
    let now = JOURNAL_DAY_OPEN.now().getTime();
    const clock: Clock = { now: () => new Date(now) };
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Журнал-Смены", "Шахта «Подписная»", clock);
    const operator = async (email: string, last_name: string) => {
      const user = await createUser(d.deps, {
        companyId: staff.company,
        email,
        password: "correct-horse",
        first_name: "Ольга",
        last_name,
        duty: "agk_operator",
      });
      return { id: user.id, company: staff.company, email: user.email, role: user.role } as Actor;
    };
    const handing = await operator("first-shift@example.com", "Кузнецова");
    const taking = await operator("second-shift@example.com", "Смирнова");
    const made = await handOver(d.deps, handing, facility, parseWith(handoverCreateSchema, {}));
    expect(made.shift_to).toBe("2026-03-03#2");
    // 08:30 of 03.03: the second shift has begun; D100: its journal is signed after its end, 16:00.
    now = Date.parse("2026-03-03T01:30:00Z");
    await expect(signJournal(d.deps, staff, facility, { shift: "2026-03-03#2" })).rejects.toThrow(Forbidden);
    await expect(signJournal(d.deps, taking, facility, { shift: "2026-03-03#2" })).rejects.toThrow(
      "смена «Смена 2 (08:00–16:00), 03.03.2026» еще не закончилась: журнал смены подписывают после ее конца, 03.03.2026 16:00",
    );
    // 16:10: over; it waits for the handover into it.
    now = Date.parse("2026-03-03T09:10:00Z");
    await expect(signJournal(d.deps, taking, facility, { shift: "2026-03-03#2" })).rejects.toThrow(
      "Журнал смены «Смена 2 (08:00–16:00), 03.03.2026» подписывается после передачи смены в нее, подписанной обоими",
    );
    await takeOver(d.deps, taking, facility, made.id);
    const signed = await signJournal(d.deps, taking, facility, { shift: "2026-03-03#2" });
    expect(signed).toMatchObject({ shift: "2026-03-03#2", by: "Смирнова О.", handover: made.id, statement: null });
    await expect(signJournal(d.deps, taking, facility, { shift: "2026-03-03#2" })).rejects.toThrow(Conflict);
    await expect(signJournal(d.deps, taking, facility, { shift: "2026-03-03#3" })).rejects.toThrow(Invalid);
    await expect(signJournal(d.deps, taking, facility, { shift: "2026-03-03#3" })).rejects.toThrow("еще не закончилась");
    expect((await journalSignatures(d.deps, staff, facility, "2026-03-03")).results.map((j) => j.shift)).toEqual(["2026-03-03#2"]);
  });
});

// A hostile review: a handover signed by both is a record. A correction made a day later is
// a correction of that handover — its shifts, its time and the lists the platform filled then — and not a
// handover of the day it is written on (it was: «2026-03-04#2 → 2026-03-04#3», which then let the journal
// of a shift nobody handed over be signed); a corrected handover is taken over in its correction only.
describe("a correction of a handover is of the same handover (D95)", () => {
  it("keeps the corrected one's shifts, time and lists; the superseded one is not taken over", async () => {
    let now = JOURNAL_DAY_OPEN.now().getTime();
    const clock: Clock = { now: () => new Date(now) };
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Исправление", "Шахта «Исправленная»", clock);
    const next = await d.colleague(staff, { email: "taker@example.com", first_name: "Анна", last_name: "Смирнова", duty: "agk_operator" });
    const made = await handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { remarks: "ВМП-2 в резерве" }));
    await takeOver(d.deps, next, facility, made.id);
    // A day later, 10:00 of 04.03.2026: the remark was wrong.
    now = Date.parse("2026-03-04T03:00:00Z");
    const fixed = await handOver(
      d.deps,
      staff,
      facility,
      parseWith(handoverCreateSchema, { remarks: "ВМП-2 в работе", corrects: made.id }),
    );
    expect(fixed).toMatchObject({
      shift_from: "2026-03-03#1",
      shift_to: "2026-03-03#2",
      at: made.at,
      open: made.open,
      remarks: "ВМП-2 в работе",
      corrects: made.id,
      signed: false,
    });
    expect(fixed.handed_at).toBe("2026-03-04T03:00:00.000Z");
    // Corrected before it was taken over: the superseded one is kept as it was and never signed.
    const second = await handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { remarks: "Без замечаний" }));
    const secondFixed = await handOver(
      d.deps,
      staff,
      facility,
      parseWith(handoverCreateSchema, { remarks: "Зашунтирован М-9", corrects: second.id }),
    );
    await expect(takeOver(d.deps, next, facility, second.id)).rejects.toThrow(
      "Эту передачу смены исправили: принимают смену по исправлению",
    );
    expect((await takeOver(d.deps, next, facility, secondFixed.id)).signed).toBe(true);
    const listed = await listHandovers(d.deps, staff, facility, { from: "2026-03-04", to: "2026-03-04" });
    expect(listed.results.find((h) => h.id === second.id)).toMatchObject({
      signed: false,
      remarks: "Без замечаний",
      corrected_by: secondFixed.id,
    });
  });
});

// A hostile review: twenty handovers sent at once — the same one twice each by the one
// handing over (a double press, a retry) — are stored once each; two corrections of one handover sent at
// once keep one (both read «not corrected yet» and were kept); two people taking over at once: one signs.
describe("handovers written at once (D95)", () => {
  it("stores each duplicate once, one correction of two, one taker of two", async () => {
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Параллель", "Шахта «Параллельная»", JOURNAL_DAY_OPEN);
    const a = await d.colleague(staff, { email: "taker-a@example.com", first_name: "Анна", last_name: "Смирнова", duty: "agk_operator" });
    const b = await d.colleague(staff, { email: "taker-b@example.com", first_name: "Ирина", last_name: "Белова", duty: "agk_operator" });
    const bodies = Array.from({ length: 10 }, (_, i) => ({ remarks: `Замечание ${i + 1}` }));
    const sent = [...bodies, ...bodies].map((body, i) => ({ body, key: (i * 7) % 20 })).sort((x, y) => x.key - y.key);
    const answered = await Promise.all(sent.map(({ body }) => handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, body))));
    const stored = (await listHandovers(d.deps, staff, facility, { from: "2026-03-03", to: "2026-03-03" })).results;
    expect(stored).toHaveLength(10);
    expect(new Set(answered.map((h) => h.id))).toEqual(new Set(stored.map((h) => h.id)));
    for (const [i, { body }] of sent.entries()) expect(answered[i].remarks).toBe(body.remarks);

    const first = answered[0];
    const corrections = await Promise.allSettled([
      handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { remarks: "Исправление А", corrects: first.id })),
      handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { remarks: "Исправление Б", corrects: first.id })),
    ]);
    expect(corrections.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const after = (await listHandovers(d.deps, staff, facility, { from: "2026-03-03", to: "2026-03-03" })).results;
    expect(after.filter((h) => h.corrects === first.id)).toHaveLength(1);
    // The correction written, sent again later, is the one written.
    const kept = after.find((h) => h.corrects === first.id)!;
    const again = await handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { remarks: kept.remarks, corrects: first.id }));
    expect(again.id).toBe(kept.id);

    const taking = await Promise.allSettled([takeOver(d.deps, a, facility, answered[1].id), takeOver(d.deps, b, facility, answered[1].id)]);
    expect(taking.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const taker = (taking.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ taken_by: string }>).value.taken_by;
    const read = (await listHandovers(d.deps, staff, facility, { from: "2026-03-03", to: "2026-03-03" })).results.find(
      (h) => h.id === answered[1].id,
    );
    expect(read?.taken_by).toBe(taker);
  });
});

// A hostile review: a calendar change between the shifts (D90). From 03.03.2026 the mine
// works 2 × 12 h from 08:00; until then 3 × 8 h from 00:00, so 02.03's third shift runs on to 08:00 of
// 03.03 (D64). The handover of that shift was «into» itself (2026-03-02#3 → 2026-03-02#3: the next shift
// was asked at its calendar end, midnight, which is still that shift), and the journal of 03.03's first
// shift could never be signed.
describe("the handover over a calendar change (D90, D95)", () => {
  it("hands the stretched last shift over into the new calendar's first, whose journal is then signed", async () => {
    let now = JOURNAL_DAY_OPEN.now().getTime();
    const clock: Clock = { now: () => new Date(now) };
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Календарь", "Шахта «Двухсменная»", clock);
    const current = (await d.deps.repos.facilities.get(staff.company, facility))!;
    await d.write(() =>
      patchFacility(
        d.deps,
        staff,
        facility,
        parseWith(facilityPatchSchema, {
          version: current.version,
          shift_calendar: [{ valid_from: "2026-03-03", shifts: 2, first_start: "08:00" }],
        }),
      ),
    );
    const taker = await d.colleague(staff, {
      email: "calendar@example.com",
      first_name: "Анна",
      last_name: "Смирнова",
      duty: "agk_operator",
    });
    for (const [local, utc] of [
      ["23:00 of 02.03", "2026-03-02T16:00:00Z"],
      ["07:30 of 03.03, the third shift run on", "2026-03-03T00:30:00Z"],
    ]) {
      now = Date.parse(utc);
      const made = await handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { remarks: local }));
      expect([made.shift_from, made.shift_to], local).toEqual(["2026-03-02#3", "2026-03-03#1"]);
      expect(made.shift_to_name).toBe("Смена 1 (08:00–20:00), 03.03.2026");
      if (utc === "2026-03-03T00:30:00Z") await takeOver(d.deps, taker, facility, made.id);
    }
    // 20:10 of 03.03: the 08:00–20:00 shift is over.
    now = Date.parse("2026-03-03T13:10:00Z");
    expect(await signJournal(d.deps, taker, facility, { shift: "2026-03-03#1" })).toMatchObject({ shift: "2026-03-03#1" });
  });
});

// The facility's first shift in the platform, and the days loaded from the mine's export before it, have no
// handover into them and never will: D100 signs them without one, the signature stating «передача смены в
// платформе не велась» (they could never be signed: «первая смена площадки в платформе»); a later shift
// without a taken handover into it is refused, saying why; none before its end.
describe("the journal of the facility's first shift, and of a shift whose handover is not taken (D95, D100)", () => {
  it("refuses each saying why; signs the next shift's after the handover into it", async () => {
    let now = Date.parse("2026-03-03T01:00:00Z");
    const clock: Clock = { now: () => new Date(now) };
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Первая-Смена", "Шахта «Новая»", clock);
    const operator = await d.colleague(staff, {
      email: "first@example.com",
      first_name: "Ольга",
      last_name: "Кузнецова",
      duty: "agk_operator",
    });
    const taker = await d.colleague(staff, {
      email: "second@example.com",
      first_name: "Анна",
      last_name: "Смирнова",
      duty: "agk_operator",
    });
    // 08:00 of 03.03: the facility's first shift in the platform (2026-03-03#2) began; D100: not signed before its end.
    await expect(signJournal(d.deps, operator, facility, { shift: "2026-03-03#2" })).rejects.toThrow(
      "смена «Смена 2 (08:00–16:00), 03.03.2026» еще не закончилась",
    );
    // 15:50: the handover out of it, into the third shift; not taken yet at 00:10 of 04.03.
    now = Date.parse("2026-03-03T08:50:00Z");
    const made = await handOver(d.deps, operator, facility, parseWith(handoverCreateSchema, { remarks: "Первая передача" }));
    now = Date.parse("2026-03-03T17:10:00Z");
    await expect(signJournal(d.deps, taker, facility, { shift: "2026-03-03#3" })).rejects.toThrow(": передачу еще не приняли");
    // D100: the shifts before the facility's first handover — its first shift, and the days loaded from the
    // mine's export before it — are signed without a handover, the signature stating so.
    const loaded = await signJournal(d.deps, operator, facility, { shift: "2026-03-02#1" });
    expect(loaded).toMatchObject({ shift: "2026-03-02#1", handover: null, statement: "передача смены в платформе не велась" });
    expect(await signJournal(d.deps, operator, facility, { shift: "2026-03-03#2" })).toMatchObject({
      handover: null,
      statement: "передача смены в платформе не велась",
    });
    expect((await journalSignatures(d.deps, staff, facility, "2026-03-02")).results).toMatchObject([
      { shift: "2026-03-02#1", by: "Кузнецова О.", handover: null, statement: "передача смены в платформе не велась" },
    ]);
    await takeOver(d.deps, taker, facility, made.id);
    expect(await signJournal(d.deps, taker, facility, { shift: "2026-03-03#3" })).toMatchObject({ handover: made.id, statement: null });
    // The next day's first shift, over at 08:10 of 04.03: handovers were made before it, none into it.
    now = Date.parse("2026-03-04T01:10:00Z");
    await expect(signJournal(d.deps, taker, facility, { shift: "2026-03-04#1" })).rejects.toThrow(": передачи в нее не было");
  });
});

// A hostile review: at a shift's boundary. The handover written at 16:05, five minutes
// after the second shift ended, was recorded as the third shift's (2026-03-03#3 → 2026-03-04#1): there was
// no way to hand the second shift over once it had ended, and the third shift's journal could never be
// signed. The shift that has just ended is named (`shift_from`); none other.
describe("the handover written just after the shift's end (D95)", () => {
  it("hands over the shift that has just ended when named, refuses any other", async () => {
    let now = Date.parse("2026-03-03T08:50:00Z");
    const clock: Clock = { now: () => new Date(now) };
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Граница", "Шахта «Граничная»", clock);
    const taker = await d.colleague(staff, {
      email: "boundary@example.com",
      first_name: "Анна",
      last_name: "Смирнова",
      duty: "agk_operator",
    });
    // 16:05 of 03.03.
    now = Date.parse("2026-03-03T09:05:00Z");
    const body = (shift_from?: string) => parseWith(handoverCreateSchema, { remarks: `Передача ${shift_from ?? "сейчас"}`, shift_from });
    await expect(handOver(d.deps, staff, facility, body("2026-03-03#1"))).rejects.toThrow(
      "передают смену, которая идет («Смена 3 (16:00–24:00), 03.03.2026»), или только что закончившуюся («Смена 2 (08:00–16:00), 03.03.2026»)",
    );
    const made = await handOver(d.deps, staff, facility, body("2026-03-03#2"));
    expect([made.shift_from, made.shift_to]).toEqual(["2026-03-03#2", "2026-03-03#3"]);
    expect((await handOver(d.deps, staff, facility, body())).shift_from).toBe("2026-03-03#3");
    await expect(
      handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { corrects: made.id, shift_from: "2026-03-03#3" })),
    ).rejects.toThrow("исправление передачи — той же смены");
    await takeOver(d.deps, taker, facility, made.id);
    // 00:10 of 04.03: the third shift is over.
    now = Date.parse("2026-03-03T17:10:00Z");
    expect((await signJournal(d.deps, taker, facility, { shift: "2026-03-03#3" })).handover).toBe(made.id);
  });
});

// A hostile review: each of the six lists against the rule it follows, on a planted view
// with one item of each and one just outside each rule — a meter at A (a gassing now) and one at W (a level),
// one at 0,9·W (a level) and one below it (none), one silent for its intervals and one read a minute ago, a
// flow silent, a check failed, one overdue and one due later, a sensor out of verification and one verified
// to today, a forecast at P 0,50 shown and ones at 0,49, not judged reliable, or stored before reliability
// was judged (its P is not shown on the tile, which reads the same rule, chanceShown of @core/monitoring-events).
// A forecast is named by its meter.
describe("what the handover lists at its time (D95)", () => {
  const meter = (code: string, state: string, value: number | null, stale_minutes: number | null = null) => ({
    code,
    state,
    value,
    stale_minutes,
    state_label: state === "warning" ? "не ниже уставки W" : "не ниже 0,9·W",
  });
  const forecast = (horizon_label: string, p_exceed: number | null, reliable?: boolean) => ({
    sensor: "А-1",
    horizon_label,
    p_exceed,
    ...(reliable === undefined ? {} : { probability: { reliable } }),
  });
  const tiles = [
    {
      place: null,
      working: "Лава 1",
      meters: [
        meter("А-1", "alarm", 2.1),
        meter("W-1", "warning", 1.05),
        meter("P-1", "pre_warning", 0.9),
        meter("N-1", "normal", 0.89),
        meter("S-1", "normal", 0.4, 12),
        meter("L-1", "normal", 0.4, 390_934),
        meter("R-1", "normal", 0.4),
        meter("Z-1", "unknown", null),
      ],
      air_flow: { code: "Q-1", value: null, stale_minutes: 95 },
      drainage_flow: { code: "Q-2", value: 12, stale_minutes: null },
      forecasts: [forecast("30 мин", 0.5, true), forecast("60 мин", 0.49, true), forecast("90 мин", 0.9, false), forecast("120 мин", 0.8)],
    },
  ];
  const state = (code: string, problems: string[], out: string | null = null) => ({
    code,
    working: "Лава 1",
    problems,
    verification: out ? `вне поверки с ${out}` : "поверен до 03.03.2026",
    out_of_verification_from: out,
  });
  const states = [
    state("А-1", ["датчик не прошел проверку 02.03.2026"]),
    state("W-1", ["проверка просрочена на 1 дн."]),
    state("P-1", []),
    state("N-1", ["вне поверки с 03.03.2026"], "2026-03-03"),
  ];

  it("lists each item its rule gives, and none just outside it", () => {
    const open = openLists(
      { tiles } as never,
      [{ sensors: ["А-1"], working: "Лава 1", start: "x" }],
      states as never,
      () => "02.03.2026 03:10",
      // D104: a cut-off not confirmed, not yet answered.
      [
        {
          sensor_code: "М-1",
          working: "Лава 1",
          start: "x",
          text: "отключение не подтверждено: М-1 1,40 % при уставке отключения 1,30 %, РК-1 в работе 10 мин",
          answer: null,
        },
      ] as never,
    );
    expect(open).toEqual({
      gassings: [
        { code: "А-1", working: "Лава 1", text: "2,10 % об. — не ниже уставки A сейчас" },
        { code: "А-1", working: "Лава 1", text: "запись книги с 02.03.2026 03:10 не закрыта" },
      ],
      silent: [
        // A silence in minutes, hours and days as the tile says it (silenceSpan): it read «390 934 мин».
        { code: "S-1", working: "Лава 1", text: "нет показаний 12 мин" },
        { code: "L-1", working: "Лава 1", text: "нет показаний 271 сут 11 ч" },
        { code: "Z-1", working: "Лава 1", text: "нет показаний за сутки" },
        { code: "Q-1", working: "Лава 1", text: "нет показаний 1 ч 35 мин" },
      ],
      levels: [
        { code: "W-1", working: "Лава 1", text: "1,05 % об.: не ниже уставки W" },
        { code: "P-1", working: "Лава 1", text: "0,90 % об.: не ниже 0,9·W" },
      ],
      checks: [
        { code: "А-1", working: "Лава 1", text: "датчик не прошел проверку 02.03.2026" },
        { code: "W-1", working: "Лава 1", text: "проверка просрочена на 1 дн." },
      ],
      verification: [{ code: "N-1", working: "Лава 1", text: "вне поверки с 2026-03-03" }],
      // Named by the meter forecast (it was named «30 мин», the horizon, and no sensor).
      forecasts: [{ code: "А-1", working: "Лава 1", text: "вероятность хотя бы одной минуты от предела за 30 мин: 50 %" }],
      cutoffs: [
        {
          code: "М-1",
          working: "Лава 1",
          text: "отключение не подтверждено: М-1 1,40 % при уставке отключения 1,30 %, РК-1 в работе 10 мин (с 02.03.2026 03:10); причина не указана",
        },
      ],
    });
  });
});

// The lists are filled at the handover's time and kept: after the failed sensor passes a check and the
// sensor out of verification is verified, the handover still reads as it was signed, while a handover made
// now lists neither.
describe("the handover's lists are kept as filled at its time (D95)", () => {
  it("reads the same after the world changed; a new handover reads the world now", async () => {
    let now = JOURNAL_DAY_OPEN.now().getTime();
    const clock: Clock = { now: () => new Date(now) };
    const { d, staff, facility } = await journalDayOnMemory("Кузбасс-Заморозка", "Шахта «Кадр»", clock);
    const next = await d.colleague(staff, { email: "frozen@example.com", first_name: "Анна", last_name: "Смирнова", duty: "agk_operator" });
    const sensors = await d.deps.repos.sensors.listOfFacility(staff.company, facility);
    const m7 = sensors.find((s) => s.code === "М-7")!.id;
    const m8 = sensors.find((s) => s.code === "М-8")!.id;
    const check = (at: string, result: string) =>
      recordCheck(
        d.deps,
        next,
        facility,
        m7,
        parseWith(sensorCheckCreateSchema, {
          at,
          kind: "planned",
          button_test_ok: result === "passed",
          result,
          fault: "Кнопка «Контроль»",
        }),
      );
    const verify = (verified_on: string, valid_to: string) =>
      recordVerification(
        d.deps,
        staff,
        facility,
        m8,
        parseWith(verificationCreateSchema, {
          instrument_type: "ДМС 03",
          register_number: "12345-06",
          serial: "0418",
          verified_on,
          valid_to,
          certificate: `С-${valid_to}`,
        }),
      );
    await check("2026-03-02T20:00:00+07:00", "failed");
    await verify("2025-03-01", "2026-02-28");
    const made = await handOver(d.deps, staff, facility, parseWith(handoverCreateSchema, { remarks: "До ремонта" }));
    await takeOver(d.deps, next, facility, made.id);
    expect(made.open.checks.map((c) => c.code)).toEqual(["М-7"]);
    expect(made.open.verification.map((c) => c.code)).toEqual(["М-8"]);

    now = Date.parse("2026-03-03T01:30:00Z");
    await check("2026-03-03T08:20:00+07:00", "passed");
    await verify("2026-03-03", "2027-03-02");
    const read = (await listHandovers(d.deps, staff, facility, { from: "2026-03-03", to: "2026-03-03" })).results.find(
      (h) => h.id === made.id,
    );
    expect(read?.open).toEqual(made.open);
    expect(read?.at).toBe(made.at);
    const later = await handOver(d.deps, next, facility, parseWith(handoverCreateSchema, { remarks: "После ремонта" }));
    expect(later.open.checks.map((c) => c.code)).not.toContain("М-7");
    expect(later.open.verification.map((c) => c.code)).not.toContain("М-8");
  });
});
