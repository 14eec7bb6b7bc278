// The demo company's last reporting year, made on the first `npm start` so a newcomer opens a filled
// inventory, report passport and charts rather than empty screens: a mine with its emission points
// (D25: a ventilation shaft and a drainage station measured apart by month, a flare and a boiler on
// the drained gas), coal handling and a Tier 1 estimate kept as an alternative) and an open pit (methane and the machinery's diesel), at a mid-sized
// Kuzbass mine's scale. Written through the same domain calls a user's requests take, so every
// figure is the platform's own calculation. The company's requisites and the person responsible
// are filled in as its staff would on Профиль, so the passport prints them.
import type { Actor, Deps } from "./domain/context";
import { createFacility } from "./domain/company/facilities";
import { createPoint } from "./domain/company/emission-points";
import type { PointCreateInput } from "./contract/schemas/facility";
import { createProject } from "./domain/calculations/projects";
import { createCalculation, type CalculationInput } from "./domain/calculations/calculations";
import { updateOwnCompany } from "./domain/admin/companies";
import { setCoalProcessed } from "./domain/inventory/activity";
import { getReview } from "./domain/inventory/review";
import { ownCompanyPatchSchema } from "./contract/schemas/company";
import type { CalculationType } from "@core/registry";
import { monthPeriod } from "@core/source-periods";
import { seedDemoReadings } from "./demo-readings";

// Rows of the seeded dictionaries (functions/src/dictionaries/reference-data.json); every other
// coefficient is its dictionary's first row, the IPCC or Order 371 default.
const STANDARD_CONDITIONS = { get_underground: 1 }; // 20 °C, 101,325 кПа
const CAPTURED_MINE_METHANE = 8; // «Каптированный шахтный метан (100 % CH4), тыс. м³»
const SUMMER_DIESEL = 1; // «Дизельное топливо летнее»
const SMOKELESS_FLARE = 1; // «Бездымное сжигание (факел без сажи)»

/** A calculation of the demo year; `point`: the name of the emission point it belongs to. */
type DemoCalculation = { type: CalculationType; input: Omit<CalculationInput, "project">; point?: string };

/** D25: the mine's emission points, each measured on its own. */
const MINE_POINTS: PointCreateInput[] = [
  {
    name: "Вентиляционный ствол № 2",
    kind: "ventilation_shaft",
    instrument: "система аэрогазового контроля: анемометр, датчики CH4 и CO2",
    frequency: "непрерывно (АГК), сводка за месяц",
    in_service_from: "1998-03-01",
  },
  {
    name: "Поверхностная дегазационная установка",
    kind: "drainage_station",
    instrument: "расходомер газа ДРГ.М, газоанализатор CH4",
    frequency: "непрерывно, сводка за месяц",
    in_service_from: "2012-10-01",
  },
  { name: "Факельная установка", kind: "flare", instrument: "расходомер на линии факела", frequency: "непрерывно" },
  { name: "Котельная на шахтном метане", kind: "boiler_engine", instrument: "узел учета газа котельной", frequency: "ежесуточно" },
];

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
      // D25: the ventilation shaft and the drainage station are two sources, each measured by month;
      // gross, so the drained gas flared and burnt comes off the mining line (D17).
      name: "Вентиляционный ствол № 2, исходящая струя",
      type: "underground",
      point: "Вентиляционный ствол № 2",
      input: {
        values: { periods: monthlyPeriods(year, 1_800, 0.65, 0.12), basis: "gross" },
        dictionary_items: STANDARD_CONDITIONS,
      },
    },
    {
      name: "Дегазационная установка, каптированный газ",
      type: "underground",
      point: "Поверхностная дегазационная установка",
      input: {
        values: { periods: monthlyPeriods(year, 20, 38, 1.2), basis: "gross" },
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
      point: "Факельная установка",
      input: {
        values: { volume: 3_000, w_ch4: 38, w_co2: 1.2 },
        dictionary_items: { get_torch_cf: SMOKELESS_FLARE, get_coeff_co2_density: 1 },
      },
    },
    {
      name: "Котельная на шахтном метане",
      type: "disposal_co2_stat_sources",
      point: "Котельная на шахтном метане",
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
      points: MINE_POINTS,
      calculations: mineCalculations(year),
      // Its own processing plant takes nearly all it mines (8.1: activity data no calculation carries).
      coalProcessedT: 2_350_000,
      // Its АГК: a sensor register and the last 30 days of simulated minutes (demo-readings.ts).
      readings: { shaft: "Вентиляционный ствол № 2", drainage: "Поверхностная дегазационная установка" },
    },
    {
      facility: { name: "Разрез «Демонстрационный»", kind: "open_pit" as const },
      points: [] as PointCreateInput[],
      calculations: pitCalculations(),
      coalProcessedT: undefined,
      readings: undefined,
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
    const points = new Map<string, string>();
    for (const point of site.points) points.set(point.name, (await createPoint(deps, actor, facility.id, point)).id);
    for (const calculation of site.calculations) {
      const point = calculation.point ? points.get(calculation.point) : undefined;
      await createCalculation(deps, actor, calculation.type, {
        ...calculation.input,
        name: calculation.name,
        project: project.id,
        ...(point ? { point } : {}),
      });
    }
    if (site.readings) {
      const { shaft, drainage } = site.readings;
      await seedDemoReadings(deps, actor, facility.id, { shaft: points.get(shaft)!, drainage: points.get(drainage)! });
    }
    if (site.coalProcessedT !== undefined) {
      const { version } = await getReview(deps, actor.company, year);
      await setCoalProcessed(deps, actor, year, { facility: facility.id, t: site.coalProcessedT, version });
    }
  }
}
