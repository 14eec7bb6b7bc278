// `npm start`'s first start fills the demo company's last reporting year (functions/src/demo-year.ts):
// the newcomer signs in to an inventory that counts, balances and checks clean, a passport with the
// company's requisites, and a second start adds nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { DEMO, accessToken } from "../support/server";
import { demoLoginFromEnv, startBanner, usersByCompany } from "@server/seed";
import type { InventorySummary } from "../support/inventory";

const dataDir = mkdtempSync(join(tmpdir(), "demo-year-"));
const year = new Date().getUTCFullYear() - 1;
let server: LocalServer | undefined;
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () => startLocalServer({ dataDir, port: 0, demo: DEMO, demoYear: true });

async function get<T>(path: string, token: string): Promise<T> {
  const res = await fetch(`${server!.url}/api/${path}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
}

describe("the demo company's year on the first `npm start`", () => {
  it("is an inventory of two sites that counts, balances and checks clean, with the requisites the passport prints", async () => {
    server = await start();
    await server.settled();
    expect(server.firstStart).toEqual({ company: "Демо-компания", ...DEMO });
    const token = await accessToken(server.url, DEMO);
    const inventory = await get<InventorySummary>(`v1/inventory/?year=${year}`, token);
    expect(inventory.facilities.map((f) => f.name).sort()).toEqual(["Разрез «Демонстрационный»", "Шахта «Демонстрационная»"]);
    expect(inventory.checks.filter((c) => c.level !== "info")).toEqual([]);
    expect(inventory.total_t_co2e).toBeGreaterThan(50_000);
    expect(inventory.threshold).toMatchObject({ regulated: true });
    const line = (ipcc: string, gas = "CH4") => inventory.categories.find((c) => c.ipcc_code === ipcc && c.gas === gas);
    // Measured net release, post-mining, the flare and the boiler, the pit and its machinery.
    for (const ipcc of ["1.B.1.a.i.1", "1.B.1.a.i.2", "1.B.1.a.i.4", "1.B.1.a.ii.1"]) expect(line(ipcc)?.t, ipcc).toBeGreaterThan(0);
    expect(line("1.A.1.c.ii", "CO2")?.t).toBeGreaterThan(0);
    // D17: the measured release is net, so the gas the flare and the boiler destroyed comes off nothing.
    const [balance] = inventory.balance;
    expect(balance).toMatchObject({ facility_name: "Шахта «Демонстрационная»" });
    expect(balance.destroyed_t).toBeGreaterThan(0);
    // D25: a ventilation shaft and a drainage station measured apart (gross), a flare and a boiler
    // on the drained gas: no blended stream, the drained gas destroyed comes off the mining line.
    expect(balance.netted_t).toBeGreaterThan(0);
    expect(balance.ventilation_t).toBeGreaterThan(0);
    expect(balance.drained_t).toBeGreaterThan(balance.flared_t + balance.used_t);
    expect(balance.drained_vented_t).toBeCloseTo((balance.drained_t ?? 0) - balance.flared_t - balance.used_t, 6);
    expect(balance.streams?.map((s) => [s.name, s.route])).toEqual([
      ["Вентиляционный ствол № 2", "atmosphere"],
      ["Поверхностная дегазационная установка", "drained"],
      ["Факельная установка", "flared"],
      ["Котельная на шахтном метане", "used"],
    ]);
    // The Tier 1 estimate is kept for comparison, not counted.
    expect(inventory.checks.find((c) => c.code === "alternatives_excluded")?.message).toBe("Не учтен: 1 альтернативный расчет");
    const me = await get<{ company: { inn?: string; kpp?: string; responsible_name?: string } }>("v1/users/get_me/", token);
    expect(me.company).toMatchObject({ inn: "4205001235", kpp: "420501001", responsible_name: "Петров Иван Сергеевич" });
    const { review } = inventory;
    expect(review.status).toBe("draft");
    const mine = inventory.facilities.find((f) => f.name === "Шахта «Демонстрационная»")!;
    expect(review.coal_processed).toEqual([{ facility: mine.id, t: 2_350_000 }]);
  }, 120_000);

  it("is made once: a second start over the same data adds nothing", async () => {
    const token = await accessToken(server!.url, DEMO);
    const before = await get<{ count: number }>("v1/projects/", token);
    await server!.close();
    server = await start();
    expect(server.firstStart).toBeUndefined();
    const again = await accessToken(server.url, DEMO);
    expect((await get<{ count: number }>("v1/projects/", again)).count).toBe(before.count);
    expect(before.count).toBe(2);
  }, 120_000);
});

describe("a first start with LOCAL_COMPANY: the user's own empty company", () => {
  const emptyDir = mkdtempSync(join(tmpdir(), "own-company-"));
  let own: LocalServer | undefined;
  afterAll(async () => {
    await own?.close();
    rmSync(emptyDir, { recursive: true, force: true });
  });
  const env = {
    LOCAL_COMPANY: "  ООО «Моя шахта» ",
    LOCAL_DEMO_EMAIL: "me@mine.example",
    LOCAL_FIRST_NAME: "Ольга",
    LOCAL_LAST_NAME: "Кузнецова",
  };

  it("is named as set, its user named as set with a password made up and printed once, no requisites, projects or year of the demo", async () => {
    const login = demoLoginFromEnv(env);
    expect(login).toEqual({ email: "me@mine.example", company: "ООО «Моя шахта»", first_name: "Ольга", last_name: "Кузнецова" });
    expect(demoLoginFromEnv({ LOCAL_COMPANY: "  " })).toEqual(DEMO);
    own = await startLocalServer({ dataDir: emptyDir, port: 0, demo: login, demoYear: true });
    await own.settled();
    const made = own.firstStart!;
    expect(made).toMatchObject({ company: "ООО «Моя шахта»", email: "me@mine.example" });
    expect(made.password).toMatch(/^[\w-]{16}$/);
    const banner = startBanner(own.url, emptyDir, login, made, await usersByCompany(own.deps)).join("\n");
    expect(banner).toContain(`Пароль: ${made.password}`);
    const token = await accessToken(own.url, { email: made.email, password: made.password });
    const res = await fetch(`${own.url}/api/v1/users/get_me/`, { headers: { Authorization: `Bearer ${token}` } });
    const me = (await res.json()) as { first_name: string; last_name: string; company: Record<string, string> };
    expect(me).toMatchObject({ first_name: "Ольга", last_name: "Кузнецова" });
    expect(me.company).toMatchObject({ name: "ООО «Моя шахта»", inn: "", ogrn: "", responsible_name: "" });
    const projects = await fetch(`${own.url}/api/v1/projects/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await projects.json()) as { count: number }).count).toBe(0);
    expect(await own.deps.repos.companies.findByName("Демо-компания")).toBeUndefined();
  }, 120_000);

  it("stays its owner's on a restart without the variables: no demo company or user, no password printed", async () => {
    await own!.close();
    // As README's restart: DATA_DIR kept, the first-start variables not given again.
    const login = demoLoginFromEnv({});
    own = await startLocalServer({ dataDir: emptyDir, port: 0, demo: login, demoYear: true });
    await own.settled();
    expect(own.firstStart).toBeUndefined();
    expect((await own.deps.repos.companies.list()).map((c) => c.name)).toEqual(["ООО «Моя шахта»"]);
    expect(await own.deps.repos.users.findByEmail(DEMO.email)).toBeUndefined();
    const refused = await fetch(`${own.url}/api/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...DEMO, guardant_code: "" }),
    });
    expect(refused.status).toBe(401);
    const banner = startBanner(own.url, emptyDir, login, own.firstStart, await usersByCompany(own.deps)).join("\n");
    expect(banner).toContain(own.url);
    expect(banner).toContain("ООО «Моя шахта»: me@mine.example");
    expect(banner).not.toMatch(/Пароль|demo-password|demo@example\.com/);
  }, 120_000);

  it("does not take another LOCAL_COMPANY on a restart, and says so", async () => {
    await own!.close();
    const login = demoLoginFromEnv({
      ...env,
      LOCAL_COMPANY: "ООО «Другая»",
      LOCAL_DEMO_EMAIL: "other@mine.example",
      LOCAL_DEMO_PASSWORD: "пароль-надежный",
    });
    own = await startLocalServer({ dataDir: emptyDir, port: 0, demo: login });
    expect(own.firstStart).toBeUndefined();
    expect((await own.deps.repos.companies.list()).map((c) => c.name)).toEqual(["ООО «Моя шахта»"]);
    expect(await own.deps.repos.users.findByEmail("other@mine.example")).toBeUndefined();
    const banner = startBanner(own.url, emptyDir, login, own.firstStart, await usersByCompany(own.deps)).join("\n");
    expect(banner).toContain("LOCAL_COMPANY не применен");
    expect(banner).not.toContain("пароль-надежный");
  }, 120_000);
});
