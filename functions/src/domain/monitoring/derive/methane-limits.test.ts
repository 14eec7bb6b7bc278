// the permissible methane concentrations by act, point and edition on an injected
// clock. Until 01.01.2027 the safety rules' Appendix 3 (Order 507, its text not read here) holds; Decree
// 315's norms hold without an end date and stand for a working and a gas-suction line once no edition
// does; an administrator confirms an edition, refused 409 naming the other where it overlaps one; a past
// day is read against its own day's edition.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, Invalid } from "../../errors";
import { confirmMethaneLimits, limitsOnDay, methaneLimitRows } from "./methane-limits";

let d: MemoryDomain;
let staff: Actor;
let admin: Actor;
const at = (iso: string) => ({ now: () => new Date(iso) });
const deps = (iso: string): Deps => ({ ...d.deps, clock: at(iso) });
const NEW_EDITION = {
  act: "Приказ Ростехнадзора «Правила безопасности в угольных шахтах» (новая редакция)",
  edition: "Редакция с 01.01.2027",
  valid_from: "2027-01-01",
  rows: [
    { place: "intake" as const, limit_pct: 0.5, point: "прил. 3, п. 4" },
    { place: "working" as const, limit_pct: 0.8, point: "прил. 3, п. 1" },
    { place: "wing_outgoing" as const, limit_pct: 0.75, point: "прил. 3, п. 2" },
    { place: "local_accumulation" as const, limit_pct: 2, point: "прил. 3, п. 3" },
    { place: "suction_pipeline" as const, limit_pct: 3.5, point: null },
  ],
};
const limitsOf = async (day: string) =>
  (await limitsOnDay(d.deps, day)).map((l) => [l.place, l.limit_pct, l.edition.slice(0, 24), l.standing]);

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Редакция»");
  admin = { ...staff, role: "admin" as const };
});

describe("the limits by act, point and edition", () => {
  it("lists Appendix 3 of Order 507 with its point marked unread, and Decree 315's norms without an end date", async () => {
    const rows = await methaneLimitRows(d.deps, Date.parse("2026-12-31T16:59:00Z"));
    expect(rows.map((r) => [r.kind, r.place, r.limit_pct, r.point, r.text_read, r.valid_to, r.in_force, r.applied])).toEqual([
      ["edition", "intake", 0.5, "п. 122, приложение № 3", false, "2027-01-01", true, true],
      ["edition", "working", 1, "п. 122, приложение № 3", false, "2027-01-01", true, true],
      ["edition", "wing_outgoing", 0.75, "п. 122, приложение № 3", false, "2027-01-01", true, true],
      ["edition", "local_accumulation", 2, "п. 122, приложение № 3", false, "2027-01-01", true, true],
      ["edition", "suction_pipeline", 3.5, "п. 122, приложение № 3", false, "2027-01-01", true, true],
      ["rule", "working", 1, "п. 1", true, null, true, false],
      ["rule", "suction_pipeline", 3.5, "п. 3", true, null, true, false],
    ]);
    expect(rows.slice(0, 5).every((r) => r.act.includes("№ 507") && r.act.includes("Правила безопасности в угольных шахтах"))).toBe(true);
    expect(rows.slice(5).every((r) => r.act.includes("№ 315"))).toBe(true);
  });

  it("reads a day no edition holds against Decree 315 where it has a norm, else the last edition", async () => {
    expect(await limitsOf("2027-01-02")).toEqual([
      ["intake", 0.5, "Правила безопасности в у", "last_edition"],
      ["working", 1, "Постановление № 315 от 2", "rule"],
      ["wing_outgoing", 0.75, "Правила безопасности в у", "last_edition"],
      ["local_accumulation", 2, "Правила безопасности в у", "last_edition"],
      ["suction_pipeline", 3.5, "Постановление № 315 от 2", "rule"],
    ]);
  });

  it("refuses an edition overlapping another (409 naming it); a past day keeps its own edition", async () => {
    const later = deps("2027-01-02T03:00:00Z");
    await expect(confirmMethaneLimits(later, staff, NEW_EDITION)).rejects.toThrow(Forbidden);
    await expect(confirmMethaneLimits(later, admin, { ...NEW_EDITION, rows: NEW_EDITION.rows.slice(1) })).rejects.toThrow(Invalid);
    // From 01.06.2026 it would share seven months with Order 507's Appendix 3.
    const early = confirmMethaneLimits(later, admin, { ...NEW_EDITION, valid_from: "2026-06-01" });
    await expect(early).rejects.toThrow(Conflict);
    await expect(early).rejects.toThrow(
      "«Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020)» (с 01.01.2021 до 01.01.2027)",
    );
    const rows = await confirmMethaneLimits(later, admin, NEW_EDITION);
    expect(rows.filter((r) => r.applied).map((r) => [r.place, r.limit_pct, r.point, r.text_read, r.confirmed_by])).toEqual([
      ["intake", 0.5, "прил. 3, п. 4", true, staff.email],
      ["working", 0.8, "прил. 3, п. 1", true, staff.email],
      ["wing_outgoing", 0.75, "прил. 3, п. 2", true, staff.email],
      ["local_accumulation", 2, "прил. 3, п. 3", true, staff.email],
      ["suction_pipeline", 3.5, null, false, staff.email],
    ]);
    // The new edition names no end: one from 2028 overlaps it.
    await expect(confirmMethaneLimits(later, admin, { ...NEW_EDITION, valid_from: "2028-01-01" })).rejects.toThrow(
      "«Редакция с 01.01.2027» (с 01.01.2027 без срока окончания)",
    );
    // Each day against its own edition.
    expect((await limitsOf("2026-12-31"))[1]).toEqual(["working", 1, "Правила безопасности в у", "edition"]);
    expect((await limitsOf("2027-01-05"))[1]).toEqual(["working", 0.8, "Редакция с 01.01.2027", "edition"]);
  });
});
