import { describe, expect, it } from "vitest";
import { kindOptions, sensorWhereText } from "./sensorTexts";

describe("where a sensor hangs, as its pages head it", () => {
  it("names the place and section of a longwall meter that measures no point, with no dangling «·»", () => {
    const text = sensorWhereText({
      kind: "methane",
      place: "face",
      section: "Выемочный участок 12-3",
      working: "Лава 12-3",
      point_name: "",
    });
    expect(text).toMatch(/^Метан.* · .+ · Выемочный участок 12-3$/);
    expect(text).not.toMatch(/·\s*$/);
  });

  it("names the working where no section is given, and the point a shaft's channel measures", () => {
    const text = sensorWhereText({
      kind: "methane",
      place: "shaft",
      section: "",
      working: "Ствол № 2",
      point_name: "Вентиляционный ствол № 2",
    });
    expect(text).toMatch(/ · Ствол № 2 · Вентиляционный ствол № 2$/);
  });
});

// the register's select offers the shearer's position in metres beside its run state.
describe("the register's kinds as its select offers them", () => {
  it("offers the shearer's position, м, right after the run state", () => {
    const labels = kindOptions.map((o) => o.label);
    const run = labels.indexOf("Работа агрегата, 1/0");
    expect(run).toBeGreaterThanOrEqual(0);
    expect(labels[run + 1]).toBe("Положение комбайна в лаве, м");
    expect(kindOptions[run + 1].value).toBe("shearer_position");
  });
});
