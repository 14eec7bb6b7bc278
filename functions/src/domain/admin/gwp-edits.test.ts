// D41: an administrator's GWP edit takes effect for reporting years from its effective_from on and
// never reaches an approved year. On the in-memory repositories: a 2018 draft keeps its figures
// after an edit from 2026 while a 2026 year converts at the new value; with 2025 approved, an edit
// of the value or of year_to that would apply to 2025 is refused naming the year, and nothing moves;
// the same edit from 2026 is taken. The 409 over HTTP: tests/integration/inventory-four-eyes.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import { changeCoefficientAsAdmin } from "./dictionaries";
import type { Actor } from "../context";
import { Conflict } from "../errors";
import { getInventory } from "../inventory/year";
import { getDictionaryItem } from "../reference/dictionaries";
import { createUser } from "../company/users";

let d: MemoryDomain;
let staff: Actor;
let admin: Actor;

const torch = async (year: number) => {
  const project = await d.project(staff, { name: `Шахта ${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31` });
  return d.calc(staff, "torch_ch4", { name: "Факел", project: project.id, volume: 1000, koef_transform: 0.67, inventory_role: "primary" });
};
const total = async (year: number) => (await getInventory(d.deps, staff, year)).total_t_co2e;

async function editGwp(field: string, value: number, effective_from: string) {
  const { version } = await getDictionaryItem(d.deps, "get_gwp", 1);
  return d.write(() =>
    changeCoefficientAsAdmin(d.deps, admin, "get_gwp", 1, { field, value, effective_from, reason: "Новое распоряжение", version }),
  );
}

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «ПГП по годам»");
  admin = await d.actor("Оператор платформы", "admin");
  const user = await createUser(d.deps, {
    companyId: staff.company,
    email: "reviewer@gwp-years.example",
    password: "reviewer-password",
    role: "reviewer",
  });
  const reviewer: Actor = { id: user.id, company: staff.company, email: user.email, role: "reviewer" };
  await torch(2018);
  await torch(2025);
  await d.settled();
  await d.approveYear(staff, reviewer, 2025);
});

describe("a GWP edit by reporting year (D41)", () => {
  it("refuses an edit of the value or of year_to that would apply to the approved 2025, naming the year; nothing moves", async () => {
    const before = { 2018: await total(2018), 2025: await total(2025) };
    for (const [field, value] of [
      ["gwp_ch4", 28],
      ["year_to", 2024],
    ] as const) {
      const refused = editGwp(field, value, "2025-01-01");
      await expect(refused).rejects.toBeInstanceOf(Conflict);
      await expect(refused).rejects.toThrow(
        /^Набор ПГП, действующий для 2025 года, изменить нельзя: инвентаризации заморожены — 2025 год: «ООО «ПГП по годам»», статус «Утверждена»\. Укажите дату «Действует с» в году после 2025/,
      );
    }
    // An edit from 2018 on reaches 2018 to 2025 and more: only the frozen 2025 is named.
    await expect(editGwp("gwp_ch4", 28, "2018-01-01")).rejects.toThrow(/^Набор ПГП, действующий для 2025 года, изменить нельзя/);
    expect((await getDictionaryItem(d.deps, "get_gwp", 1)).values.gwp_ch4.value).toBe(25);
    expect({ 2018: await total(2018), 2025: await total(2025) }).toEqual(before);
  });

  it("takes an edit from 2026: the 2018 draft keeps its figures and calculations, a 2026 year converts at the new value", async () => {
    const before2018 = await total(2018);
    await editGwp("gwp_ch4", 28, "2026-01-01");
    expect(await total(2018)).toBe(before2018);
    expect((await getInventory(d.deps, staff, 2018)).gwp.gwp_ch4).toBe(25);
    expect((await getInventory(d.deps, staff, 2025)).gwp.gwp_ch4).toBe(25);
    // A calculation stores the set's version for its project's year.
    expect((await torch(2018)).gwp_ch4).toBe(25);
    const c2026 = await torch(2026);
    expect(c2026).toMatchObject({ gwp_ch4: 28, gwp_not_in_force: false });
    await d.settled();
    const inventory2026 = await getInventory(d.deps, staff, 2026);
    expect(inventory2026.gwp.gwp_ch4).toBe(28);
    expect(inventory2026.total_t_co2e).toBeCloseTo(c2026.res_ch4 * 28, 9);
  });
});
