// D102–D105's `suspect` event on the in-memory repositories: written once per (sensor, reason, start), its
// minutes «под сомнением» through D94's doubt (minutes/doubt.ts) while open and over its span once closed,
// listed with its reason and the other meter's code, and answered only with what was done (who, when kept).
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { Invalid } from "../../errors";
import { createSensor } from "../ingest/register";
import { facilityDoubt } from "../minutes/doubt";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { doubtOfDay } from "../instruments/check-states";
import { acknowledgeEvent, listEvents } from "./events";
import { operatorJournal } from "./journal";
import { handOver } from "../handover/handover";
import { handoverCreateSchema } from "../../../contract/schemas/sensor-checks";
import { writeSuspect } from "./suspect";

const NOW = Date.parse("2026-03-02T12:00:00Z");
const AT = Date.parse("2026-03-02T02:00:00Z");
let d: MemoryDomain;
let staff: Actor;
let facility: string;
let upstream: string;
let downstream: string;

beforeAll(async () => {
  d = await memoryDomain(clockAt(NOW));
  staff = await d.actor("ООО «Сомнения»");
  facility = (await d.facility(staff, { name: "Шахта «Струя»", kind: "underground_mine" })).id;
  const meter = (code: string, place: string) =>
    d.write(() =>
      createSensor(
        d.deps,
        staff,
        facility,
        parseWith(sensorCreateSchema, { code, kind: "methane", working: "Лава 5", section: "Участок 5", place, warning: 1, alarm: 1.3 }),
      ),
    );
  upstream = (await meter("ДМ-2", "longwall_return")).id;
  downstream = (await meter("ДМ-3", "section_return")).id;
});

describe("a suspect event", () => {
  it("puts its minutes under doubt and is listed with the other meter", async () => {
    const finding = {
      company: staff.company,
      facility,
      sensor: downstream,
      reason: "airway" as const,
      start: AT,
      end: AT + 120 * MINUTE_MS,
      minutes: 120,
      text: "на исходящей меньше метана, чем приносит воздух с ДМ-2: проверьте ручным замером оба датчика",
      other_sensor: upstream,
    };
    expect(await writeSuspect(d.deps, finding)).toBe(true);
    // The same finding again writes nothing.
    expect(await writeSuspect(d.deps, finding)).toBe(false);
    const doubt = await facilityDoubt(d.deps, staff.company, facility, AT - 86_400_000, "Asia/Novokuznetsk");
    expect(doubt(downstream, AT - 60 * MINUTE_MS, AT + 180 * MINUTE_MS)).toMatchObject({
      minutes: 120,
      why: ["меньше метана, чем приносит воздух"],
    });
    // D103: the upstream meter of the pair is questioned over the same span.
    expect(doubt(upstream, AT, AT + 180 * MINUTE_MS).minutes).toBe(120);
    const { results } = await listEvents(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-03", kind: "suspect" });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      kind: "suspect",
      sensor_code: "ДМ-3",
      minutes_above: 120,
      suspect: { reason: "airway", other_sensor: upstream, other_code: "ДМ-2", asks_hand_measurement: true },
    });
  });

  it("open, questions its minutes to the window's end", async () => {
    await writeSuspect(d.deps, {
      company: staff.company,
      facility,
      sensor: upstream,
      reason: "stuck",
      start: AT + 300 * MINUTE_MS,
      end: null,
      minutes: 0,
      text: "показания не меняются 240 мин",
    });
    const doubt = await facilityDoubt(d.deps, staff.company, facility, AT - 86_400_000, "Asia/Novokuznetsk");
    expect(doubt(upstream, AT + 200 * MINUTE_MS, AT + 400 * MINUTE_MS).minutes).toBe(100);
  });

  it("is answered only with what was done, who and when kept", async () => {
    const { results } = await listEvents(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-03", kind: "suspect" });
    const airway = results.find((e) => e.suspect?.reason === "airway")!;
    // Who answered is kept and named by surname and initials, never by the e-mail.
    const dispatcher = await d.colleague(staff, { email: "dispatcher@struya.ru", first_name: "Ольга Ивановна", last_name: "Кузнецова" });
    await expect(acknowledgeEvent(d.deps, dispatcher, airway.id, { comment: "  " })).rejects.toThrow(Invalid);
    const answered = await acknowledgeEvent(d.deps, dispatcher, airway.id, { comment: "проверен ШИ-11: 0,62 %, датчик исправен" });
    expect(answered).toMatchObject({ acknowledged_by: "Кузнецова О. И.", comment: "проверен ШИ-11: 0,62 %, датчик исправен" });
    expect(answered.acknowledged_at).not.toBeNull();
    expect(answered.suspect?.other_code).toBe("ДМ-2");
  });
});

/** A section of three methane meters in airflow order (face, longwall return, section return) of a
 *  mine of its own; `fresh` marks fresh air entering before the section return. */
async function section(name: string, fresh = false) {
  const owner = await d.actor(name);
  const mine = (await d.facility(owner, { name: `Шахта «${name}»`, kind: "underground_mine" })).id;
  const ids: Record<string, string> = {};
  for (const [code, place] of [
    ["ДМ-1", "face"],
    ["ДМ-2", "longwall_return"],
    ["ДМ-3", "section_return"],
  ] as const)
    ids[code] = (
      await d.write(() =>
        createSensor(
          d.deps,
          owner,
          mine,
          parseWith(sensorCreateSchema, {
            code,
            kind: "methane",
            working: "Лава 7",
            section: "Участок 7",
            place,
            warning: 1,
            alarm: 1.3,
            ...(code === "ДМ-3" && fresh ? { fresh_air_joins: true } : {}),
          }),
        ),
      )
    ).id;
  return { owner, mine, ids };
}

/** Minute readings of `minutes` minutes from AT, each meter's value by minute. */
async function pushMinutes(m: Awaited<ReturnType<typeof section>>, minutes: number, value: (code: string, k: number) => number) {
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let k = 0; k < minutes; k++)
    for (const code of ["ДМ-1", "ДМ-2", "ДМ-3"])
      readings.push({ sensor: code, t: new Date(AT + k * MINUTE_MS + 20_000).toISOString(), value: value(code, k) });
  await storeBatch(d.deps, m.owner.company, m.mine, { json: { readings } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}

const suspects = async (m: Awaited<ReturnType<typeof section>>) =>
  (await listEvents(d.deps, m.owner, { facility: m.mine, from: "2026-03-01", to: "2026-03-03", kind: "suspect" })).results;

/** A longwall's air that moves: 0,30–0,50 % over a 40-minute swing. */
const moving = (k: number) => Math.round((0.4 + 0.1 * Math.sin((k * 2 * Math.PI) / 40)) * 100) / 100;

describe("the checks where the detector runs (D102, D103)", () => {
  it("a section return stuck at 0,37 % for 6 h beside a moving longwall return: one stuck event, 360 minutes in doubt", async () => {
    const m = await section("Залипание");
    // 6 h at 0,37 %, then it moves again for 30 minutes.
    await pushMinutes(m, 390, (code, k) =>
      code === "ДМ-3" ? (k < 360 ? 0.37 : moving(k) + 0.1) : code === "ДМ-2" ? moving(k) : 0.2 + (k % 3) * 0.03,
    );
    const found = await suspects(m);
    expect(found.map((e) => [e.sensor_code, e.suspect?.reason, e.start, e.end, e.minutes_above])).toEqual([
      ["ДМ-3", "stuck", new Date(AT).toISOString(), new Date(AT + 360 * MINUTE_MS).toISOString(), 360],
    ]);
    expect(found[0].suspect?.text).toBe("показания не меняются 360 мин");
    // The journal's day (D94's flag): the stuck meter's minutes under doubt, the moving ones' none.
    const doubt = await doubtOfDay(d.deps, m.owner.company, m.mine, AT - 2 * 3_600_000, AT + 22 * 3_600_000);
    expect(doubt.get(m.ids["ДМ-3"])).toEqual({ minutes: 360, text: "показания под сомнением: показания не меняются — 360 мин" });
    expect(doubt.has(m.ids["ДМ-2"])).toBe(false);
  });

  it("a section return at 0,25 % for 2 h under a longwall return at 0,9 %: one event naming both, both in doubt", async () => {
    const m = await section("Струя");
    await pushMinutes(m, 150, (code, k) =>
      code === "ДМ-1" ? 0.6 + (k % 2) * 0.02 : code === "ДМ-2" ? 0.89 + (k % 3) * 0.01 : 0.24 + (k % 3) * 0.01,
    );
    const found = await suspects(m);
    expect(found).toHaveLength(1);
    const [event] = found;
    expect(event).toMatchObject({
      sensor_code: "ДМ-3",
      suspect: { reason: "airway", other_sensor: m.ids["ДМ-2"], other_code: "ДМ-2", asks_hand_measurement: true },
    });
    expect(event.suspect?.text).toContain("ДМ-2");
    expect(event.suspect?.text).toContain("ручным замером");
    expect(event.minutes_above).toBeGreaterThanOrEqual(60);
    const doubt = await doubtOfDay(d.deps, m.owner.company, m.mine, AT - 2 * 3_600_000, AT + 22 * 3_600_000);
    expect(doubt.get(m.ids["ДМ-3"])?.minutes).toBe(event.minutes_above);
    expect(doubt.get(m.ids["ДМ-2"])?.minutes).toBe(event.minutes_above);
    expect(doubt.has(m.ids["ДМ-1"])).toBe(false);

    // Item 7: the day's open question in the handover's lists and the operator's journal, then answered.
    const handed = await handOver(d.deps, m.owner, m.mine, parseWith(handoverCreateSchema, {}));
    expect(handed.open.questioned).toEqual([
      {
        code: "ДМ-3",
        working: "Лава 7",
        text: expect.stringMatching(/^на исходящей меньше метана, чем приносит воздух с ДМ-2.* — ответа нет$/),
      },
    ]);
    // D106: the section's scheme as it stood, printed with the handover: in airflow order, both meters questioned.
    expect(handed.open.scheme).toEqual([
      { code: "Участок 7", working: "", text: expect.stringMatching(/^ДМ-1 .+ → ДМ-2 .+под сомнением.+ → ДМ-3 .+под сомнением\)$/) },
    ]);
    const journal = await operatorJournal(d.deps, m.owner, { facility: m.mine, date: "2026-03-02" });
    expect(journal.questions).toEqual([expect.objectContaining({ code: "ДМ-3", reason: "airway", answer: null })]);
    await acknowledgeEvent(d.deps, m.owner, event.id, { comment: "замер ШИ-11: 0,91 % у ДМ-2, 0,88 % у ДМ-3 — ДМ-3 снят, заменен" });
    const answered = await operatorJournal(d.deps, m.owner, { facility: m.mine, date: "2026-03-02" });
    expect(answered.questions?.[0].answer).toMatchObject({ text: "замер ШИ-11: 0,91 % у ДМ-2, 0,88 % у ДМ-3 — ДМ-3 снят, заменен" });
    expect(answered.questions?.[0].answer?.by).not.toBe("");
    // (Another handover: the same one sent again is the one written.)
    const next = await handOver(d.deps, m.owner, m.mine, parseWith(handoverCreateSchema, { remarks: "ДМ-3 заменен" }));
    expect(next.open.questioned).toEqual([]);
  });

  it("fresh air joining before the section return silences the airway check", async () => {
    const m = await section("Подсвежение", true);
    await pushMinutes(m, 150, (code, k) =>
      code === "ДМ-1" ? 0.6 + (k % 2) * 0.02 : code === "ДМ-2" ? 0.89 + (k % 3) * 0.01 : 0.24 + (k % 3) * 0.01,
    );
    expect(await suspects(m)).toEqual([]);
  });
});
