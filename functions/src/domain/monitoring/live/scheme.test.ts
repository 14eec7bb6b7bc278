// D106 on the in-memory repositories: the section's scheme draws its meters in airflow order (D103) whatever
// order the register holds them in — face → longwall return → section return — with each one's value and
// state, the meter questioned by a suspect event (D102–D105), a fresh-air junction, the shearer's run and
// position, and the mine's returns after the sections.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { NotFound } from "../../errors";
import { drainReadings } from "../minutes/consumer";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { writeSuspect } from "../derive/suspect";
import { monitoringIdle } from "./forecaster";
import { facilityScheme } from "./scheme";

const NOW = Date.parse("2026-03-02T12:00:00Z");
let d: MemoryDomain;
let staff: Actor;
let facility: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  d = await memoryDomain(clockAt(NOW));
  staff = await d.actor("ООО «Схема»");
  facility = (await d.facility(staff, { name: "Шахта «Схема»", kind: "underground_mine" })).id;
  // Entered out of airflow order, as a mine's list often is.
  const rows: Record<string, unknown>[] = [
    { code: "ДМ-3", kind: "methane", place: "section_return", fresh_air_joins: true },
    { code: "ДМ-1", kind: "methane", place: "face" },
    { code: "ДМ-2", kind: "methane", place: "longwall_return" },
    { code: "КМ-1", kind: "run_status", place: "other" },
    { code: "ПК-1", kind: "shearer_position", place: "other" },
  ];
  for (const row of rows)
    ids[row.code as string] = (
      await d.write(() =>
        createSensor(
          d.deps,
          staff,
          facility,
          parseWith(sensorCreateSchema, {
            working: "Лава 7",
            section: "Участок 7",
            warning: row.kind === "methane" ? 1 : undefined,
            alarm: row.kind === "methane" ? 1.3 : undefined,
            ...row,
          }),
        ),
      )
    ).id;
  ids["ВС-1"] = (
    await d.write(() =>
      createSensor(
        d.deps,
        staff,
        facility,
        parseWith(sensorCreateSchema, { code: "ВС-1", kind: "methane", place: "shaft", warning: 0.75, alarm: 0.75 }),
      ),
    )
  ).id;
  const readings: { sensor: string; t: string; value: number }[] = [];
  const values: Record<string, number> = { "ДМ-1": 0.42, "ДМ-2": 1.1, "ДМ-3": 0.36, "КМ-1": 1, "ПК-1": 84, "ВС-1": 0.31 };
  for (let k = 0; k < 10; k++)
    for (const [code, value] of Object.entries(values))
      readings.push({ sensor: code, t: new Date(NOW - (10 - k) * MINUTE_MS + 5_000).toISOString(), value });
  await storeBatch(d.deps, staff.company, facility, { json: { readings } });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  await writeSuspect(d.deps, {
    company: staff.company,
    facility,
    sensor: ids["ДМ-3"],
    reason: "stuck",
    start: NOW - 300 * MINUTE_MS,
    end: null,
    minutes: 0,
    text: "показания не меняются",
  });
});

describe("the section's scheme (D106)", () => {
  it("draws the section face → longwall return → section return, then the mine's returns", async () => {
    const scheme = await facilityScheme(d.deps, staff, facility);
    expect(scheme.sections.map((s) => [s.name, s.meters.map((m) => m.code)])).toEqual([
      ["Участок 7", ["ДМ-1", "ДМ-2", "ДМ-3"]],
      ["Крыло, ствол", ["ВС-1"]],
    ]);
    expect(scheme.sections[1].mine_returns).toBe(true);
  });

  it("gives each meter its place, value and state, the fresh-air junction and the shearer", async () => {
    const [section] = (await facilityScheme(d.deps, staff, facility)).sections;
    const [face, longwall, ret] = section.meters;
    expect(face).toMatchObject({
      place_label: "У забоя (призабойное пространство)",
      value: 0.42,
      value_text: "0,42 % об.",
      state: "normal",
      questioned: null,
    });
    // D98: 1,1 % at the longwall's return is a gassing (its norm 1 %), whatever its W.
    expect(longwall).toMatchObject({
      state: "gassing",
      state_label: "загазирование: 1,10 % об., запись книги не закрыта",
      fresh_air_joins: false,
    });
    expect(ret).toMatchObject({ fresh_air_joins: true, questioned: "показания не меняются", order: 40 });
    expect(section.shearer).toEqual({ run_code: "КМ-1", running: true, position_code: "ПК-1", position_m: 84 });
  });

  it("is the facility's own", async () => {
    const other = await d.actor("ООО «Чужая»");
    await expect(facilityScheme(d.deps, other, facility)).rejects.toThrow(NotFound);
  });
});
