// D94: what is due of each sensor, derived from its checks and the mine's own
// intervals (per kind and role, the most specific rule holding), never typed: the last check, the next
// due, «проверка просрочена на N дн.», a failed latest check until a later passed one, and a sensor
// under a rule without any check «проверка не записана».
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { checkIntervalsBodySchema, sensorCheckCreateSchema } from "../../../contract/schemas/sensor-checks";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { Conflict, Forbidden } from "../../errors";
import { createSensor } from "../ingest/register";
import { recordCheck } from "./sensor-checks";
import { dueAfter, getCheckIntervals, putCheckIntervals, ruleFor, sensorCheckStates } from "./check-states";
import { facilityShifts } from "./shifts";

const NOW = "2026-03-12T03:00:00Z"; // 10:00 of 12.03 at UTC+7
const BODY = (at: string, result: "passed" | "failed" = "passed") => ({
  at,
  kind: "planned",
  reading_pct: 0.4,
  reference_pct: 0.4,
  reference_instrument: "ШИ-11 № 4512",
  button_test_ok: result === "passed",
  result,
  ...(result === "failed" ? { fault: "Не работает кнопка «Контроль»" } : {}),
});

describe("what is due of a sensor's checks (D94, item 2)", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let operator: Actor;
  let facility = "";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    d = await memoryDomain(clockAt(NOW));
    staff = await d.actor("Кузбасс-Интервальная");
    operator = await d.colleague(staff, {
      email: "operator-due@example.com",
      first_name: "Ольга",
      last_name: "Иванова",
      duty: "agk_operator",
    });
    facility = (await d.facility(staff, { name: "Шахта «Сроки»", kind: "underground_mine" })).id;
    for (const body of [
      { code: "М-7", kind: "methane", working: "Лава 12-1", place: "face_10_20m", warning: 1, alarm: 2 },
      { code: "М-8", kind: "methane", working: "Лава 12-1", place: "longwall_return", warning: 1, alarm: 2 },
      { code: "Q-1", kind: "flow", working: "Лава 12-1", place: "other" },
    ])
      ids[body.code] = (await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)))).id;
  });

  it("holds the most specific of the mine's rules", () => {
    const rules = [
      { kind: null, role: null, per: "shift", days: null },
      { kind: "methane", role: null, per: "days", days: 7 },
      { kind: "methane", role: "cut_off", per: "days", days: 1 },
    ] as const;
    expect(ruleFor(rules as never, "methane", "signalling")?.days).toBe(7);
    expect(ruleFor(rules as never, "methane", "cut_off")?.days).toBe(1);
    expect(ruleFor(rules as never, "flow", "recording")?.per).toBe("shift");
    expect(ruleFor([], "flow", "recording")).toBeNull();
  });

  it("puts the next due at the end of the shift after the check's, or of the day N days on", async () => {
    const shifts = await facilityShifts(d.deps, staff.company, facility);
    // 11.03 at 10:00 is the second shift (08–16); the third ends at 00:00 of 12.03 (17:00 UTC of 11.03).
    expect(new Date(dueAfter("2026-03-11T03:00:00Z", { kind: null, role: null, per: "shift", days: null }, shifts)).toISOString()).toBe(
      "2026-03-11T17:00:00.000Z",
    );
    // 01.03 and 7 days: due by the end of 08.03, 00:00 of 09.03 local.
    expect(new Date(dueAfter("2026-03-01T03:00:00Z", { kind: null, role: null, per: "days", days: 7 }, shifts)).toISOString()).toBe(
      "2026-03-08T17:00:00.000Z",
    );
  });

  it("derives the last check, the next due and the days overdue; a failed check stands until a passed one", async () => {
    // Without the mine's rules nothing is due, and the screen says the intervals are not set.
    const none = await sensorCheckStates(d.deps, staff, facility);
    expect(none.rules_source).toBe("интервалы не заданы: задайте их по проекту АГК шахты");
    expect(none.sensors.every((s) => s.rule === null && s.problems.length === 0)).toBe(true);

    await expect(
      putCheckIntervals(
        d.deps,
        { ...staff, role: "reviewer" },
        facility,
        parseWith(checkIntervalsBodySchema, { rules: [], source: "x", version: 0 }),
      ),
    ).rejects.toThrow(Forbidden);
    const set = await putCheckIntervals(
      d.deps,
      staff,
      facility,
      parseWith(checkIntervalsBodySchema, {
        rules: [{ kind: "methane", per: "days", days: 7 }, { per: "shift" }],
        source: "Проект АГК шахты «Сроки», раздел 7",
        version: 0,
      }),
    );
    expect(set.version).toBe(1);
    await expect(
      putCheckIntervals(d.deps, staff, facility, parseWith(checkIntervalsBodySchema, { rules: [], source: "x", version: 0 })),
    ).rejects.toThrow(Conflict);
    expect((await getCheckIntervals(d.deps, staff, facility)).source).toBe("Проект АГК шахты «Сроки», раздел 7");

    const record = (code: string, body: ReturnType<typeof BODY>) =>
      recordCheck(d.deps, operator, facility, ids[code], parseWith(sensorCheckCreateSchema, body));
    await record("М-7", BODY("2026-03-01T10:00:00+07:00"));
    await record("М-8", BODY("2026-03-10T10:00:00+07:00"));
    await record("М-8", BODY("2026-03-11T10:00:00+07:00", "failed"));

    const due = await sensorCheckStates(d.deps, staff, facility);
    const of = (code: string) => due.sensors.find((s) => s.code === code)!;
    expect(of("М-7")).toMatchObject({
      rule: "раз в 7 дн.",
      last_check: { at: "2026-03-01T03:00:00.000Z", result: "passed" },
      failed: false,
      next_due: "2026-03-08T17:00:00.000Z",
      // 12.03 10:00 local is 3 days 10 hours past 09.03 00:00: rounded up.
      overdue_days: 4,
      problems: ["проверка просрочена на 4 дн."],
    });
    expect(of("М-8")).toMatchObject({ failed: true, overdue_days: null, problems: ["датчик не прошел проверку 11.03.2026"] });
    expect(of("Q-1")).toMatchObject({
      rule: "каждую смену",
      last_check: null,
      next_due: null,
      problems: ["проверка не записана за 9 дн."],
    });

    // A later passed check clears the failure.
    await record("М-8", BODY("2026-03-12T09:30:00+07:00"));
    const after = (await sensorCheckStates(d.deps, staff, facility)).sensors.find((s) => s.code === "М-8")!;
    expect(after).toMatchObject({ failed: false, problems: [] });
  });
});
