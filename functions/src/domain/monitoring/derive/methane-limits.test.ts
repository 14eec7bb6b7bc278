// Issue 99, item 3: the permissible methane concentrations by the act in force on an injected clock.
// Until 01.01.2027 Order 506 holds; on 02.01.2027 none holds (the screens say «редакция правил не
// подтверждена») while gassings are still read against Order 506's values; an administrator confirms the
// edition in force, kept with who and when, and Order 506's rows stay; staff may not.
import { beforeAll, describe, expect, it } from "vitest";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, Invalid } from "../../errors";
import { confirmMethaneLimits, limitsInForce, methaneLimitRows } from "./methane-limits";

let d: MemoryDomain;
let staff: Actor;
const at = (iso: string) => ({ now: () => new Date(iso) });
const deps = (iso: string): Deps => ({ ...d.deps, clock: at(iso) });
const NEW_EDITION = {
  act: "Приказ Ростехнадзора «Инструкция по аэрологической безопасности угольных шахт» (новая редакция)",
  edition: "Редакция с 01.01.2027",
  valid_from: "2027-01-01",
  rows: [
    { place: "working" as const, limit_pct: 1 },
    { place: "wing_outgoing" as const, limit_pct: 0.75 },
    { place: "local_accumulation" as const, limit_pct: 2 },
    { place: "suction_pipeline" as const, limit_pct: 3.5 },
  ],
};

beforeAll(async () => {
  d = await memoryDomain();
  staff = await d.actor("ООО «Редакция»");
});

describe("the limits by the act in force", () => {
  it("lists Order 506's four values with their act, in force until 01.01.2027", async () => {
    const rows = await methaneLimitRows(d.deps, Date.parse("2026-12-31T16:59:00Z"));
    expect(rows.map((r) => [r.place, r.limit_pct, r.valid_to, r.in_force])).toEqual([
      ["working", 1, "2027-01-01", true],
      ["wing_outgoing", 0.75, "2027-01-01", true],
      ["local_accumulation", 2, "2027-01-01", true],
      ["suction_pipeline", 3.5, "2027-01-01", true],
    ]);
    expect(rows.every((r) => r.act.includes("№ 506") && r.confirmed)).toBe(true);
  });

  it("holds no edition on 02.01.2027 until an administrator confirms one; Order 506's values still read gassings", async () => {
    const day = Date.parse("2027-01-02T03:00:00Z");
    expect((await methaneLimitRows(d.deps, day)).some((r) => r.in_force)).toBe(false);
    expect((await limitsInForce(d.deps, day)).map((r) => r.limit_pct)).toEqual([1, 0.75, 2, 3.5]);
    await expect(confirmMethaneLimits(deps("2027-01-02T03:00:00Z"), staff, NEW_EDITION)).rejects.toThrow(Forbidden);
    const admin = { ...staff, role: "admin" as const };
    await expect(
      confirmMethaneLimits(deps("2027-01-02T03:00:00Z"), admin, { ...NEW_EDITION, rows: NEW_EDITION.rows.slice(1) }),
    ).rejects.toThrow(Invalid);
    const rows = await confirmMethaneLimits(deps("2027-01-02T03:00:00Z"), admin, NEW_EDITION);
    expect(rows).toHaveLength(8);
    expect(rows.filter((r) => r.in_force).map((r) => [r.edition, r.confirmed_by, r.confirmed_at])).toEqual(
      Array.from({ length: 4 }, () => ["Редакция с 01.01.2027", staff.email, "2027-01-02T03:00:00.000Z"]),
    );
    // Order 506's rows stay for the years they held.
    expect(rows.slice(0, 4).every((r) => r.edition === "Приказ № 506 от 08.12.2020" && !r.in_force)).toBe(true);
    expect((await methaneLimitRows(d.deps, Date.parse("2026-06-01T00:00:00Z"))).filter((r) => r.in_force)).toHaveLength(4);
    await expect(confirmMethaneLimits(deps("2027-01-02T03:00:00Z"), admin, NEW_EDITION)).rejects.toThrow(Conflict);
  });
});
