// D94: a sensor's checks on the in-memory repositories. A check is recorded in the
// «Метан» journal's columns by a user with one of the journal's duties and signed by them; the other two
// duties sign it, three different people; it is never edited — a correction follows it; `passed` is
// refused when a test did not work, `failed` needs the fault, an expired control mixture is refused; the
// shift comes from the facility's shifts; people by surname and initials.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { sensorCheckCreateSchema } from "../../../contract/schemas/sensor-checks";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { Conflict, Forbidden, Invalid, NotFound } from "../../errors";
import { createUser } from "../../company/users";
import { createSensor } from "../ingest/register";
import { listChecks, recordCheck, signCheck } from "./sensor-checks";
import type { MineDuty } from "@core/sensor-checks";

let signers = 0;
const PASSED = {
  at: "2026-03-02T09:15:00+07:00",
  kind: "shift_check",
  reading_pct: 0.42,
  reference_pct: 0.4,
  reference_instrument: "ШИ-11 № 4512",
  button_test_ok: true,
  test_gas_pct: 1.5,
  test_gas_cylinder: { number: "Б-117", valid_to: "2026-12-31" },
  alarm_ok: true,
  cutoff_ok: true,
  result: "passed",
  measures: "",
} as const;

describe("a sensor's checks (D94)", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility = "";
  let sensor = "";
  const people: Partial<Record<MineDuty | "none", Actor>> = {};

  async function person(duty: MineDuty | null, last_name: string, first_name: string): Promise<Actor> {
    const user = await createUser(d.deps, {
      companyId: staff.company,
      email: `signer${(signers += 1)}@example.com`,
      password: "correct-horse",
      first_name,
      last_name,
      duty,
    });
    return { id: user.id, company: staff.company, email: user.email, role: user.role };
  }

  beforeAll(async () => {
    d = await memoryDomain(clockAt("2026-03-05T03:00:00Z"));
    staff = await d.actor("Кузбасс-Глубинная");
    facility = (await d.facility(staff, { name: "Шахта «Проверочная»", kind: "underground_mine" })).id;
    sensor = (
      await d.write(() =>
        createSensor(
          d.deps,
          staff,
          facility,
          parseWith(sensorCreateSchema, { code: "М-7", kind: "methane", working: "Лава 12-1", place: "face_10_20m", warning: 1, alarm: 2 }),
        ),
      )
    ).id;
    people.agk_operator = await person("agk_operator", "Иванова", "Ольга");
    people.agk_electrician = await person("agk_electrician", "Сидоров", "Андрей");
    people.deputy_head_agk = await person("deputy_head_agk", "Орлов", "Виктор");
    people.chief_engineer = await person("chief_engineer", "Петров", "Иван");
  });

  const record = (actor: Actor, body: Record<string, unknown>) =>
    recordCheck(d.deps, actor, facility, sensor, parseWith(sensorCheckCreateSchema, body));

  it("records a check signed by its author in their duty, on the shift its time falls in", async () => {
    const check = await record(people.agk_operator!, PASSED);
    expect(check).toMatchObject({
      sensor_code: "М-7",
      shift: "2026-03-02#2",
      result: "passed",
      result_text: "датчик прошел проверку",
      deviation_pct: 0.02,
      recorded_by: "Иванова О.",
      signed: false,
      signatures: { agk_operator: { by: "Иванова О." }, agk_electrician: null, deputy_head_agk: null },
    });
    expect(check.shift_name).toMatch(/^Смена \d \(\d\d:00–\d\d:00\), 02\.03\.2026$/);
    expect(JSON.stringify(check)).not.toContain("@example.com");
  });

  it("refuses a writer without the journal's duties, and a reviewer", async () => {
    await expect(record(people.chief_engineer!, PASSED)).rejects.toThrow(Forbidden);
    await expect(record(staff, PASSED)).rejects.toThrow("эта обязанность вам не назначена");
    await expect(record({ ...people.agk_operator!, role: "reviewer" }, PASSED)).rejects.toThrow(Forbidden);
  });

  it("refuses `passed` when a test did not work, `failed` without the fault, an expired mixture, a time to come", async () => {
    const op = people.agk_operator!;
    await expect(record(op, { ...PASSED, cutoff_ok: false })).rejects.toThrow(
      "датчик не прошел проверку: отключение электроэнергии от контрольной смеси не сработало",
    );
    await expect(record(op, { ...PASSED, result: "failed" })).rejects.toThrow("укажите неисправность");
    await expect(record(op, { ...PASSED, test_gas_cylinder: { number: "Б-9", valid_to: "2026-03-01" } })).rejects.toThrow(
      "срок годности контрольной смеси истек 01.03.2026: проверка ею недействительна",
    );
    await expect(record(op, { ...PASSED, test_gas_cylinder: null })).rejects.toThrow(Invalid);
    await expect(record(op, { ...PASSED, at: "2026-03-06T09:00:00+07:00" })).rejects.toThrow("позже текущего");
  });

  it("is signed by the two other duties, each once, by three different people; never edited, only followed", async () => {
    const failed = await record(people.agk_electrician!, {
      ...PASSED,
      at: "2026-03-03T10:00:00+07:00",
      kind: "planned",
      alarm_ok: false,
      result: "failed",
      fault: "Не срабатывает сигнализация",
      measures: "Датчик заменен резервным",
    });
    expect(failed.result_text).toBe("датчик не прошел проверку");
    const sign = (actor: Actor, duty: string) => signCheck(d.deps, actor, facility, sensor, failed.id, { duty: duty as "agk_operator" });
    // Only the duty's holder; a duty signed once; nobody in two columns.
    await expect(sign(people.agk_operator!, "deputy_head_agk")).rejects.toThrow(Forbidden);
    await expect(sign(people.agk_electrician!, "agk_electrician")).rejects.toThrow(Conflict);
    const electrician2 = await person("agk_operator", "Сидорова", "Анна");
    // The electrician's e-mail holds another duty now: still one person per check.
    await expect(signCheck(d.deps, { ...people.agk_electrician! }, facility, sensor, failed.id, { duty: "agk_operator" })).rejects.toThrow(
      Forbidden,
    );
    await sign(electrician2, "agk_operator");
    const signed = await sign(people.deputy_head_agk!, "deputy_head_agk");
    expect(signed.signed).toBe(true);
    expect(signed.signatures.deputy_head_agk?.by).toBe("Орлов В.");
    // Its findings stayed as written.
    expect(signed).toMatchObject({ result: "failed", fault: "Не срабатывает сигнализация", alarm_ok: false });

    // A correction follows it; the first stays, and names its follower; a second correction of it is refused.
    const fixed = await record(people.agk_operator!, {
      ...PASSED,
      at: "2026-03-03T10:30:00+07:00",
      follows: failed.id,
      kind: "after_repair",
    });
    expect(fixed.follows).toBe(failed.id);
    await expect(record(people.agk_operator!, { ...PASSED, follows: failed.id })).rejects.toThrow(Conflict);
    const list = await listChecks(d.deps, staff, facility, sensor, { from: "2026-03-01", to: "2026-03-05" });
    expect(list.results.map((c) => [c.at, c.result, c.followed_by])).toEqual([
      ["2026-03-03T03:30:00.000Z", "passed", null],
      ["2026-03-03T03:00:00.000Z", "failed", fixed.id],
      ["2026-03-02T02:15:00.000Z", "passed", null],
    ]);
    const earlier = await listChecks(d.deps, staff, facility, undefined, { from: "2026-03-02", to: "2026-03-02" });
    expect(earlier.results).toHaveLength(1);
  });

  it("is another company's: not found", async () => {
    const other = await d.actor("Другая");
    await expect(listChecks(d.deps, other, facility, sensor, {})).rejects.toThrow(NotFound);
    await expect(recordCheck(d.deps, other, facility, sensor, parseWith(sensorCheckCreateSchema, PASSED))).rejects.toThrow(NotFound);
  });
});

// A hostile review: an acknowledgement is a promise. Twenty creates at once — ten checks,
// each sent twice (a double press, a retry), shuffled — store ten, each acknowledged once with the id it was
// stored under; two corrections of one check at once store one follower (both passed the read of «not
// corrected yet» and two «first» corrections were kept); two duties signing at once both stay signed (the
// second was refused 409 «только что подписали» though nothing it signed was taken).
describe("a sensor's checks written at once (D94)", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility = "";
  let sensor = "";
  const people: Partial<Record<MineDuty, Actor>> = {};
  async function person(duty: MineDuty, last_name: string): Promise<Actor> {
    const user = await createUser(d.deps, {
      companyId: staff.company,
      email: `parallel${(signers += 1)}@example.com`,
      password: "correct-horse",
      first_name: "Анна",
      last_name,
      duty,
    });
    return { id: user.id, company: staff.company, email: user.email, role: user.role };
  }
  beforeAll(async () => {
    d = await memoryDomain(clockAt("2026-03-05T03:00:00Z"));
    staff = await d.actor("Кузбасс-Параллельная");
    facility = (await d.facility(staff, { name: "Шахта «Параллельная»", kind: "underground_mine" })).id;
    sensor = (
      await d.write(() =>
        createSensor(
          d.deps,
          staff,
          facility,
          parseWith(sensorCreateSchema, { code: "М-1", kind: "methane", working: "Лава 1", place: "face_10_20m", warning: 1, alarm: 2 }),
        ),
      )
    ).id;
    people.agk_operator = await person("agk_operator", "Иванова");
    people.agk_electrician = await person("agk_electrician", "Сидорова");
    people.deputy_head_agk = await person("deputy_head_agk", "Орлова");
  });
  const record = (actor: Actor, body: Record<string, unknown>) =>
    recordCheck(d.deps, actor, facility, sensor, parseWith(sensorCheckCreateSchema, body));

  it("stores each of twenty shuffled, duplicated creates once, answering the duplicate with the stored check", async () => {
    const bodies = Array.from({ length: 10 }, (_, i) => ({ ...PASSED, at: `2026-03-04T${String(i + 10)}:00:00+07:00` }));
    const sent = [...bodies, ...bodies].map((b, i) => ({ b, key: (i * 7) % 20 })).sort((x, y) => x.key - y.key);
    const answered = await Promise.all(sent.map(({ b }) => record(people.agk_operator!, b)));
    const stored = (await listChecks(d.deps, staff, facility, sensor, { from: "2026-03-04", to: "2026-03-04" })).results;
    expect(stored).toHaveLength(10);
    expect(new Set(answered.map((c) => c.id))).toEqual(new Set(stored.map((c) => c.id)));
    for (const [i, { b }] of sent.entries()) expect(Date.parse(answered[i].at)).toBe(Date.parse(b.at));
  });

  it("keeps one of two corrections of a check sent at once, and both of two signatures given at once", async () => {
    const first = await record(people.agk_electrician!, { ...PASSED, at: "2026-03-03T09:00:00+07:00" });
    const results = await Promise.allSettled([
      record(people.agk_operator!, { ...PASSED, at: "2026-03-03T09:00:00+07:00", reading_pct: 0.41, follows: first.id }),
      record(people.deputy_head_agk!, { ...PASSED, at: "2026-03-03T09:00:00+07:00", reading_pct: 0.43, follows: first.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(Conflict);
    const all = (await listChecks(d.deps, staff, facility, sensor, { from: "2026-03-03", to: "2026-03-03" })).results;
    expect(all.filter((c) => c.follows === first.id)).toHaveLength(1);
    // The correction written, sent again later, is the one written; another one is refused.
    const kept = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ id: string; reading_pct: number }>).value;
    const again = kept.reading_pct === 0.41 ? people.agk_operator! : people.deputy_head_agk!;
    expect((await record(again, { ...PASSED, at: "2026-03-03T09:00:00+07:00", reading_pct: kept.reading_pct, follows: first.id })).id).toBe(
      kept.id,
    );
    await expect(record(again, { ...PASSED, at: "2026-03-03T09:00:00+07:00", reading_pct: 0.6, follows: first.id })).rejects.toThrow(
      "Эту проверку уже исправили",
    );

    const signed = await Promise.all([
      signCheck(d.deps, people.agk_operator!, facility, sensor, first.id, { duty: "agk_operator" }),
      signCheck(d.deps, people.deputy_head_agk!, facility, sensor, first.id, { duty: "deputy_head_agk" }),
    ]);
    expect(signed.map((c) => c.id)).toEqual([first.id, first.id]);
    const read = (await listChecks(d.deps, staff, facility, sensor, { from: "2026-03-03", to: "2026-03-03" })).results.find(
      (c) => c.id === first.id,
    )!;
    expect(read).toMatchObject({ signed: true, signatures: { agk_operator: { by: "Иванова А." }, deputy_head_agk: { by: "Орлова А." } } });
  });
});
