// How often one create goes down into the core (wasm-core/src) and back up: every function the core's
// modules export is wrapped, and a call whose caller is outside wasm-core/src is counted, during one
// create of a formula type on the in-memory repositories (a create before it warms the caches).
// CORE_CALLERS=1 prints each call's caller. In the deep tier (npm run test:deep), whose files each
// import their modules afresh: vi.mock does not reach modules a worker shared before (the unit tier).
import { beforeAll, describe, expect, it, vi } from "vitest";

const counter = vi.hoisted(() => {
  const calls: string[] = [];
  const state = { counting: false };
  const wrap = (name: string, module: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(module).map(([key, value]) => {
        // Classes (FieldError, EmissionsCore) and constants pass as they are.
        if (typeof value !== "function" || /^[A-Z]/.test(key)) return [key, value];
        const original = value as (...args: unknown[]) => unknown;
        const wrapped = function (this: unknown, ...args: unknown[]) {
          if (state.counting) {
            const caller = new Error().stack?.split("\n")[2] ?? "";
            if (!caller.includes("/wasm-core/src/")) calls.push(`${name}.${key} ${process.env.CORE_CALLERS ? caller.trim() : ""}`.trim());
          }
          return original.apply(this, args);
        };
        return [key, wrapped];
      }),
    );
  return { calls, state, wrap };
});

vi.mock("@core/registry", async (original) => counter.wrap("registry", await original()));
vi.mock("@core/inventory", async (original) => counter.wrap("inventory", await original()));
vi.mock("@core/gwp-in-force", async (original) => counter.wrap("gwp-in-force", await original()));
vi.mock("@core/emissions", async (original) => counter.wrap("emissions", await original()));
vi.mock("@core/measured-release", async (original) => counter.wrap("measured-release", await original()));
vi.mock("@core/source-periods", async (original) => counter.wrap("source-periods", await original()));
vi.mock("@core/methane-balance", async (original) => counter.wrap("methane-balance", await original()));
vi.mock("@core/entry-units", async (original) => counter.wrap("entry-units", await original()));
vi.mock("@core/coefficient-sources", async (original) => counter.wrap("coefficient-sources", await original()));
vi.mock("@core/coefficient-rules", async (original) => counter.wrap("coefficient-rules", await original()));
vi.mock("@core/typed-numbers", async (original) => counter.wrap("typed-numbers", await original()));
vi.mock("@core/company-clock", async (original) => counter.wrap("company-clock", await original()));
vi.mock("@core/calendar-days", async (original) => counter.wrap("calendar-days", await original()));
vi.mock("@core/types/fields", async (original) => counter.wrap("fields", await original()));

const { clockAt, memoryDomain } = await import("../../../../tests/support/memory-domain");

describe("one create's calls into the core", () => {
  let calls: string[] = [];

  beforeAll(async () => {
    const d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
    const actor = await d.actor("ООО Вызовы ядра");
    const project = (await d.project(actor, { name: "Шахта", start_date: "2025-01-01", end_date: "2025-12-31" })).id;
    await d.calc(actor, "underground_emission_ch4", { project, name: "Прогрев", volume: 1000, ef: 18 });
    counter.calls.length = 0;
    counter.state.counting = true;
    await d.calc(actor, "underground_emission_ch4", {
      project,
      name: "Добыча",
      volume: 1_000_000,
      ef: 18,
      entered: { volume: { value: 1000, unit: "тыс. т" } },
    });
    counter.state.counting = false;
    calls = [...counter.calls];
  });

  it("computes the figures in one call: bounds, formula and results' bounds", () => {
    const byName = new Map<string, number>();
    for (const call of calls) byName.set(call, (byName.get(call) ?? 0) + 1);
    console.log(`calls into the core: ${calls.length}\n${[...byName].map(([name, n]) => `  ${n} × ${name}`).join("\n")}`);
    expect(calls.filter((call) => call.startsWith("emissions."))).toEqual(["emissions.evaluate"]);
    // The calls around it: the type (5), its inventory line (4), its role (1) and basis (1), the GWP
    // set (1), the coefficients' entry (2), the units typed (1), the project's kept sums (5) and the
    // answer's view (3): 23, from 26 before the figures, the units and the role were one call each.
    expect(calls.filter((call) => call.startsWith("entry-units."))).toEqual(["entry-units.enteredValues"]);
    expect(calls.length).toBeLessThanOrEqual(23);
  });
});
