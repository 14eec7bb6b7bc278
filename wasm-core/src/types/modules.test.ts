// A calculation type is one module (docs/architecture.md, «Adding a calculation type»): the lists of
// types elsewhere are read from the modules, and the few that still decide by the type itself (the
// balance's destroyed gas, the two-part uncertainty model, the measured tier) must know every type
// its module puts there. Each test here fails when a new type's module says one thing and such a
// list another.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { calculationModel } from "../calculation-uncertainty";
import { tierOf } from "../coefficient-sources";
import { DESTRUCTION_TYPES, INVENTORY_SOURCES, POINT_TYPES } from "../inventory";
import { BALANCE_TYPES, balanceRoleOf, methaneDestroyedBy } from "../methane-balance";
import { TYPE_VECTORS, vectors } from "../methodology-vectors";
import { CALCULATION_TYPES, EMISSION_TYPES, REGISTRY, TYPE_MODULES } from "../registry";
import type { CalculationDefinition, OtherField } from "./definition";

const SHARED = ["definition.ts", "fields.ts"];
const typesWith = (has: (type: (typeof CALCULATION_TYPES)[number]) => boolean) => CALCULATION_TYPES.filter(has);

describe("the calculation types' modules", () => {
  it("are one file per type, named after it, each listed in the registry under its own name", async () => {
    const files = readdirSync(import.meta.dirname).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !SHARED.includes(f));
    expect(files.map((f) => f.replace(/\.ts$/, "")).sort()).toEqual([...CALCULATION_TYPES].sort());
    for (const type of CALCULATION_TYPES) expect(await import(`./${type}.ts`), type).toBe(TYPE_MODULES[type]);
  });

  it("import nothing from Node, so browsers and the API share them", () => {
    for (const file of readdirSync(import.meta.dirname).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      expect(readFileSync(new URL(file, import.meta.url), "utf8"), file).not.toMatch(/from\s+["'](node:|fs|path)/);
    }
  });

  it("give the inventory, the balance and the emission points their lists of types", () => {
    expect(Object.keys(INVENTORY_SOURCES)).toEqual(typesWith((t) => TYPE_MODULES[t].inventory !== null));
    expect(BALANCE_TYPES).toEqual(typesWith((t) => TYPE_MODULES[t].balance !== null));
    expect(DESTRUCTION_TYPES).toEqual(typesWith((t) => TYPE_MODULES[t].balance === "destruction"));
    expect(POINT_TYPES).toEqual(typesWith((t) => ["mining_measured", "destruction"].includes(TYPE_MODULES[t].balance ?? "")));
    for (const type of BALANCE_TYPES) expect(INVENTORY_SOURCES, type).toHaveProperty(type);
  });

  it("state a methane basis exactly for the mining types, fixed for post-mining (D17)", () => {
    for (const type of CALCULATION_TYPES) {
      const def: CalculationDefinition = REGISTRY[type];
      const role = balanceRoleOf(type);
      expect(def.basis !== undefined, type).toBe(role === "mining_estimate" || role === "mining_measured" || role === "post_mining");
      expect(def.basisFixed === true, type).toBe(role === "post_mining");
    }
  });

  it("each destruction type's gas is what the balance reads as sent and destroyed", () => {
    const inputs = {
      volume: 100,
      koef_transform: 0.67,
      w_ch4: 50,
      w_co2: 5,
      p_ch4: 0.668,
      p_co2: 1.8393,
      cf: 0.0006,
      of: 1,
      k: 1,
      ef: 1.8393,
    };
    for (const type of CALCULATION_TYPES) {
      expect(TYPE_MODULES[type].destroys !== null, type).toBe(DESTRUCTION_TYPES.includes(type));
    }
    for (const type of DESTRUCTION_TYPES) {
      const destroyed = methaneDestroyedBy({ id: "c", type, facility: null, inputs, results: {} });
      expect(destroyed?.sent_t, type).toBeGreaterThan(0);
    }
  });

  it("give every inventory type the formula its passport lines print (8.1)", () => {
    for (const [type, source] of Object.entries(INVENTORY_SOURCES)) {
      expect(source.passportFormula({}), type).toMatch(/^(Приказ № 371|МГЭИК 2006)/);
    }
  });

  it("a type of CO2 and CH4 has the two-part uncertainty model, and its measured volume is tier 3 (D26, D29)", () => {
    for (const [type, source] of Object.entries(INVENTORY_SOURCES)) {
      if (source.gases.length === 2) {
        const results = { res_co2: 1, res_ch4_to_co2: 1, sum_co2: 2 };
        expect(calculationModel({ id: "c", type, name: "", results })?.terms, type).toHaveLength(2);
      }
      if (source.method === "measurement" || source.method === "composition") expect(tierOf(type, "volume", "input"), type).toBe(3);
    }
  });

  it("name as measured and as the two parts' factors only fields of their own type (D26, D29)", () => {
    for (const type of CALCULATION_TYPES) {
      const def: CalculationDefinition = REGISTRY[type];
      const names = [...def.inputs, ...def.settings, ...def.results].map((f) => f.name);
      for (const field of def.measured ?? []) {
        expect(names, `${type}.${field}`).toContain(field);
        expect(tierOf(type, field, "input"), `${type}.${field}`).toBe(3);
      }
      for (const field of [...(def.uncertaintyParts?.co2 ?? []), ...(def.uncertaintyParts?.ch4 ?? [])])
        expect(names, `${type}.${field}`).toContain(field);
      if (def.uncertaintyParts) expect(INVENTORY_SOURCES[type]?.gases, type).toHaveLength(2);
    }
  });

  it("give each file field its upload template, no example row longer than its upload columns", () => {
    for (const type of CALCULATION_TYPES) {
      const def: CalculationDefinition = REGISTRY[type];
      for (const field of def.inputs.filter((f) => f.type === "file")) {
        const { template, upload } = field as OtherField;
        expect(template?.example.length, type).toBeGreaterThan(0);
        for (const row of template?.example ?? []) expect(row.length, type).toBeLessThanOrEqual(upload?.length ?? 0);
      }
    }
  });

  it("give worked examples for every emission type, section 5's gathered under each type's name", () => {
    for (const type of EMISSION_TYPES) expect(TYPE_VECTORS[type].length, type).toBeGreaterThan(0);
    for (const type of typesWith((t) => TYPE_MODULES[t].vectors?.section === "section 5"))
      expect(vectors, type).toHaveProperty(type, TYPE_MODULES[type].vectors?.examples);
    expect(typesWith((t) => TYPE_MODULES[t].vectors === null)).toEqual(["regres_methane"]);
  });
});
