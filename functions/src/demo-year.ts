// The demo company's last reporting year, made on the first `npm start` so a newcomer opens a filled
// inventory, report passport and charts rather than empty screens: a mine (measured ventilation and
// drainage by month, coal handling, drained methane flared and burnt in a boiler, a Tier 1 estimate
// kept as an alternative) and an open pit (methane and the machinery's diesel), at a mid-sized
// Kuzbass mine's scale. Written through the same domain calls a user's requests take, so every
// figure is the platform's own calculation. The company's requisites and the person responsible
// are filled in as its staff would on Профиль, so the passport prints them.
import type { Actor, Deps } from "./domain/context";
import { createFacility } from "./domain/facilities";
import { createProject } from "./domain/projects";
import { createCalculation, type CalculationInput } from "./domain/calculations";
import { updateOwnCompany } from "./domain/admin/companies";
import { setCoalProcessed } from "./domain/inventory/activity";
import { getReview } from "./domain/inventory/review";
import { ownCompanyPatchSchema } from "./contract/schemas/company";
import type { CalculationType } from "@core/registry";
import { monthPeriod } from "@core/source-periods";

// Rows of the seeded dictionaries (functions/src/dictionaries/reference-data.json); every other
// coefficient is its dictionary's first row, the IPCC or Order 371 default.
const STANDARD_CONDITIONS = { get_underground: 1 }; // 20 °C, 101,325 кПа
const CAPTURED_MINE_METHANE = 8; // «Каптированный шахтный метан (100 % CH4), тыс. м³»
const SUMMER_DIESEL = 1; // «Дизельное топливо летнее»
const SMOKELESS_FLARE = 1; // «Бездымное сжигание (факел без сажи)»

type DemoCalculation = { type: CalculationType; input: Omit<CalculationInput, "project"> };

/** Twelve monthly measurements of the mine's methane-air mixture: the flow dips in the summer
 *  months, when the longwall moves to its next panel. */
function monthlyPeriods(year: number, baseFlow: number, wCh4: number, wCo2: number) {
  const seasonal = [1, 1, 0.98, 0.96, 0.93, 0.88, 0.85, 0.9, 0.95, 0.98, 1, 1.02];
  return seasonal.map((factor, index) => {
    const { from, to } = monthPeriod(year, index + 1);
    return {
      from,
      to,
      flow_m3_min: Math.round(baseFlow * factor * 10) / 10,
      hours: Number(to.slice(-2)) * 24,
      w_ch4: wCh4,
      w_co2: wCo2,
    };
  });
}

function mineCalculations(year: number): Array<{ name: string } & DemoCalculation> {
  return [
    {
      // D19: one primary figure per facility, code and gas, so the ventilation shafts and the
      // drainage station's vented part are one measured release.
      name: "Вентиляционные струи и дегазация, выброс без сжигания",
      type: "underground",
      input: {
        values: {
          periods: monthlyPeriods(year, 1_860, 0.81, 0.18),
          measurement_frequency: "непрерывно (АГК), сводка за месяц",
          measurement_instruments: "система аэрогазового контроля, датчики CH4 и CO2, анемометры, расходомер дегазационной установки",
        },
        dictionary_items: STANDARD_CONDITIONS,
      },
    },
    {
      name: "Оценка по коэффициенту МГЭИК, для сравнения",
      type: "underground_emission_ch4",
      input: { values: { volume: 2_400_000 }, dictionary_items: { get_underground_emission_ch4: 1 }, inventory_role: "alternative" },
    },
    {
      name: "Обработка и транспортировка угля",
      type: "handling_underground_ch4",
      input: { values: { volume: 2_400_000 }, dictionary_items: { get_handling_underground_ch4: 1 } },
    },
    {
      name: "Факельная установка дегазационного газа",
      type: "torch_composition",
      input: {
        values: { volume: 3_000, w_ch4: 38, w_co2: 1.2 },
        dictionary_items: { get_torch_cf: SMOKELESS_FLARE, get_coeff_co2_density: 1 },
      },
    },
    {
      name: "Котельная на шахтном метане",
      type: "disposal_co2_stat_sources",
      input: { values: { volume: 850, of: 1 }, dictionary_items: { get_disposal_co2_stat_sources: CAPTURED_MINE_METHANE } },
    },
  ];
}

function pitCalculations(): Array<{ name: string } & DemoCalculation> {
  return [
    {
      name: "Метан при добыче открытым способом",
      type: "open_mining_ch4",
      input: { values: { volume: 3_100_000 }, dictionary_items: { get_open_mining_ch4: 1 } },
    },
    {
      name: "Дизельное топливо карьерной техники",
      type: "open_mining_co2",
      input: { values: { volume: 4_200 }, dictionary_items: { get_open_mining_co2: SUMMER_DIESEL } },
    },
  ];
}

// ИНН with its check digit, КПП of the Kemerovo tax office: what the passport's header prints.
const DEMO_REQUISITES = ownCompanyPatchSchema.parse({
  inn: "4205001235",
  kpp: "420501001",
  responsible_name: "Петров Иван Сергеевич",
  responsible_position: "Главный эколог",
  responsible_phone: "+7 (3842) 12-34-56",
  responsible_email: "ecology@demo-ugol.example",
});

/** The year before the clock's: the one whose report is due this year. Idempotent only through its
 *  caller, which runs it once, when it creates the demo user. */
export async function seedDemoYear(deps: Deps, actor: Actor): Promise<void> {
  const year = deps.clock.now().getUTCFullYear() - 1;
  const sites = [
    {
      facility: { name: "Шахта «Демонстрационная»", kind: "underground_mine" as const },
      calculations: mineCalculations(year),
      // Its own processing plant takes nearly all it mines (8.1: activity data no calculation carries).
      coalProcessedT: 2_350_000,
    },
    {
      facility: { name: "Разрез «Демонстрационный»", kind: "open_pit" as const },
      calculations: pitCalculations(),
      coalProcessedT: undefined,
    },
  ];
  await updateOwnCompany(deps, actor, DEMO_REQUISITES);
  for (const site of sites) {
    const facility = await createFacility(deps, actor, site.facility);
    const project = await createProject(deps, actor, {
      name: `${site.facility.name}, ${year}`,
      start_date: `${year}-01-01`,
      end_date: `${year}-12-31`,
      facility: facility.id,
    });
    for (const calculation of site.calculations) {
      await createCalculation(deps, actor, calculation.type, { ...calculation.input, name: calculation.name, project: project.id });
    }
    if (site.coalProcessedT !== undefined) {
      const { version } = await getReview(deps, actor.company, year);
      await setCoalProcessed(deps, actor, year, { facility: facility.id, t: site.coalProcessedT, version });
    }
  }
}
