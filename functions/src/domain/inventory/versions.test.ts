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
