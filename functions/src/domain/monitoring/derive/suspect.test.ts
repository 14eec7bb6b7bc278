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
import { acknowledgeEvent, listEvents } from "./events";
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
    expect(doubt(upstream, AT, AT + 180 * MINUTE_MS).minutes).toBe(0);
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
    expect(doubt(upstream, AT, AT + 400 * MINUTE_MS).minutes).toBe(100);
  });

  it("is answered only with what was done, who and when kept", async () => {
    const { results } = await listEvents(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-03", kind: "suspect" });
    const airway = results.find((e) => e.suspect?.reason === "airway")!;
    await expect(acknowledgeEvent(d.deps, staff, airway.id, { comment: "  " })).rejects.toThrow(Invalid);
    const answered = await acknowledgeEvent(d.deps, staff, airway.id, { comment: "проверен ШИ-11: 0,62 %, датчик исправен" });
    expect(answered).toMatchObject({ acknowledged_by: staff.email, comment: "проверен ШИ-11: 0,62 %, датчик исправен" });
    expect(answered.acknowledged_at).not.toBeNull();
    expect(answered.suspect?.other_code).toBe("ДМ-2");
  });
});
