// D103's air path: a section's meters in airflow order by place (face → 10–20 m → the longwall's return →
// the section's return), the register's own order over the place's, the mine's returns closing the path,
// and a fresh-air junction that leaves its pair uncompared.
import { describe, expect, it } from "vitest";
import { airPaths, airwayPairs, MINE_RETURNS, neighboursOf, type AirPathMeter } from "./air-path";

const meter = (code: string, place: AirPathMeter["place"], more: Partial<AirPathMeter> = {}): AirPathMeter => ({
  id: code,
  code,
  kind: "methane",
  place,
  section: "Участок 7",
  working: "Лава 7",
  ...more,
});

describe("the air path", () => {
  it("orders a section face → longwall return → section return whatever the register's order", () => {
    const [path] = airPaths([meter("ДМ-3", "section_return"), meter("ДМ-1", "face"), meter("ДМ-2", "longwall_return")]);
    expect(path.name).toBe("Участок 7");
    expect(path.meters.map((m) => m.code)).toEqual(["ДМ-1", "ДМ-2", "ДМ-3"]);
  });

  it("takes the register's own order over the place's, leaves the drainage line out, the mine's returns last", () => {
    const paths = airPaths([
      meter("ДМ-3", "section_return"),
      meter("ДМ-1", "face"),
      // A meter the mine set between the face and the longwall's return.
      meter("ДМ-X", "other", { airflow_order: 25 }),
      meter("ДМ-2", "longwall_return"),
      meter("ДГ", "drainage_pipeline"),
      meter("ВС-1", "shaft", { section: "", working: "" }),
    ]);
    expect(paths.map((p) => [p.name, p.meters.map((m) => m.code)])).toEqual([
      ["Участок 7", ["ДМ-1", "ДМ-X", "ДМ-2", "ДМ-3"]],
      [MINE_RETURNS, ["ВС-1"]],
    ]);
  });

  it("compares each methane meter with the nearest upstream, not across fresh air", () => {
    const meters = [meter("ДМ-1", "face"), meter("ДМ-2", "longwall_return"), meter("ДМ-3", "section_return")];
    expect(airwayPairs(meters).map((p) => `${p.upstream.code}→${p.downstream.code}`)).toEqual(["ДМ-1→ДМ-2", "ДМ-2→ДМ-3"]);
    const fresh = [meters[0], meters[1], meter("ДМ-3", "section_return", { fresh_air_joins: true })];
    expect(airwayPairs(fresh).map((p) => `${p.upstream.code}→${p.downstream.code}`)).toEqual(["ДМ-1→ДМ-2"]);
    expect(neighboursOf(meters[2], meters).map((m) => m.code)).toEqual(["ДМ-1", "ДМ-2"]);
  });
});
