// D20: the canonical JSON a version's SHA-256 is taken of, and what version n+1 says changed.
import { describe, expect, it } from "vitest";
import { canonicalJson, changesBetween, sha256Of, type InventorySnapshot, type InventoryState, type SnapshotLine } from "./versions";

const line = (id: string, t_co2e: number, version = 1, counted = true) =>
  ({
    id,
    name: `Расчет ${id}`,
    project: { id: "p", name: "Проект" },
    version,
    counted,
    gases: [{ gas: "CO2", t: t_co2e, t_co2e }],
  }) as unknown as SnapshotLine;
const state = (lines: SnapshotLine[]) =>
  ({ total_t_co2e: lines.reduce((s, l) => s + (l.counted ? l.gases[0].t_co2e : 0), 0), calculations: lines }) as unknown as InventoryState;

describe("canonical JSON", () => {
  it("sorts every object's keys and keeps arrays in order, so equal inventories hash the same", () => {
    const a = canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined });
    expect(a).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(sha256Of(a)).toBe(sha256Of(canonicalJson({ a: { d: [3, { y: 2, z: 1 }], c: null }, b: 1 })));
    expect(sha256Of(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("changes against the previous version", () => {
  it("lists lines added, removed and changed with before → after, and the totals", () => {
    const before = { version: 1, inventory: state([line("a", 10), line("b", 5), line("c", 1)]) } as unknown as InventorySnapshot;
    const changes = changesBetween(before, state([line("a", 12, 2), line("c", 1), line("d", 7)]));
    expect(changes).toEqual({
      against: 1,
      total: { before: 16, after: 20 },
      added: [{ id: "d", name: "Расчет d", project: "Проект", after: 7 }],
      removed: [{ id: "b", name: "Расчет b", project: "Проект", before: 5 }],
      changed: [{ id: "a", name: "Расчет a", project: "Проект", before: 10, after: 12 }],
    });
  });

  it("gives a line the sums do not count (an alternative) its own value, so the list says «не учтен», not «было 0,00»", () => {
    const before = { version: 1, inventory: state([line("a", 149_301.68, 1, false), line("b", 5)]) } as unknown as InventorySnapshot;
    const changes = changesBetween(before, state([line("b", 5, 1, false), line("e", 3, 1, false)]));
    expect(changes).toEqual({
      against: 1,
      total: { before: 5, after: 0 },
      added: [{ id: "e", name: "Расчет e", project: "Проект", after: 0, uncounted_after: 3 }],
      removed: [{ id: "a", name: "Расчет a", project: "Проект", before: 0, uncounted_before: 149_301.68 }],
      changed: [{ id: "b", name: "Расчет b", project: "Проект", before: 5, after: 0, uncounted_after: 5 }],
    });
  });
});

describe("one facility of an approved version (D40)", () => {
  it("nets each line by what the version's netting took off its calculations, so the lines add up to the facility's total", async () => {
    const { scopedState } = await import("./versions");
    const row = (id: string, facility: string, ch4: number, off: number) => ({
      id,
      facility,
      counted: true,
      ipcc_code: "1.B.1.a.i.1",
      gases: [{ gas: "CH4", t: ch4, t_co2e: ch4 * 25 }],
      ...(off > 0 ? { netting: [{ gas: "CH4", t: off, t_co2e: off * 25 }] } : {}),
    });
    const state = {
      total_t_co2e: (40_053.2 - 13_880 + 100) * 25,
      categories: [
        {
          category: 3,
          ipcc_code: "1.B.1.a.i.1",
          gas: "CH4",
          t: 40_053.2 - 13_880 + 100,
          t_co2e: 0,
          calculations: ["shaft", "drain", "other"],
        },
      ],
      facilities: [
        { id: "mine", name: "Шахта", t_co2e: (40_053.2 - 13_880) * 25 },
        { id: "pit", name: "Разрез", t_co2e: 100 * 25 },
      ],
      calculations: [row("shaft", "mine", 26_173.2, 0), row("drain", "mine", 13_880, 13_880), row("other", "pit", 100, 0)],
      checks: [],
    } as unknown as InventoryState;
    const mine = scopedState(state, "mine");
    expect(mine.categories).toHaveLength(1);
    expect(mine.categories[0].t).toBeCloseTo(26_173.2, 9);
    expect(mine.categories.reduce((sum, line) => sum + line.t_co2e, 0)).toBeCloseTo(mine.total_t_co2e, 6);
    expect(mine.categories[0].calculations).toEqual(["shaft", "drain"]);
  });
});
