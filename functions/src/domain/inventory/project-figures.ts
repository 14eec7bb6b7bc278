// A project's figures as its outputs print them (methodology D26): the exports' «Итоги», the
// infographics and the project's uncertainty page show its calculations at the GWP of its
// reporting year and, where its facility-year nets anything (D17), the netting line and the netted
// total. The netting comes from the facility-year's balance as the inventory has it (the kept sums,
// domain/inventory/sums.ts) and the core's one function (nettedGasesOf), so a project's netted
// total is its part of the facility's total and the projects of a facility-year add up to it.
import { inventorySourceOf, nettedGasesOf, roleOf, type NettedGas, type NettingBalance } from "@core/inventory";
import type { Deps } from "../context";
import type { StoredCalculation, EmissionPoint } from "../../ports";
import type { Project } from "../../contract/schemas/project";
import { gwpOfYear, keptOrLiveSums } from "./year";
import { yearFigures, type YearFigures } from "./sums";
import { duplicateScan, sumsWithoutDuplicates } from "./checks";

/** What a project's outputs net by: its reporting year's GWP set and its facility-year's balance. */
export interface ProjectNetting {
  readonly year: number;
  readonly gwp: { readonly name: string; readonly gwp_ch4: number };
  /** Undefined: the facility-year has no balance (nothing is netted). */
  readonly balance: NettingBalance | undefined;
  /** D43: the calculations the year's totals leave out while they duplicate another. */
  readonly duplicates: ReadonlySet<string>;
  /** The projects of its facility-year (itself alone without a facility): where the flares, boilers
   *  and engines whose gas the netting takes off are. */
  readonly facility_year_projects: readonly string[];
  /** The facility-year's balance whole (the infographics draw it) and the company's emission points. */
  readonly yearBalance: YearFigures["balances"][number] | undefined;
  readonly points: readonly EmissionPoint[];
}

/** The GWP set of the project's reporting year and its facility-year's balance. */
export async function projectNetting(deps: Pick<Deps, "repos">, companyId: string, project: Project): Promise<ProjectNetting> {
  const full = deps as Deps;
  const [gwp, { projects, sums }, points] = await Promise.all([
    gwpOfYear(full, project.reporting_year),
    keptOrLiveSums(full, companyId),
    deps.repos.emissionPoints.listOfCompany(companyId),
  ]);
  const facility = project.facility || null;
  const ofYear = projects.filter((p) => !p.is_deleted && p.reporting_year === project.reporting_year);
  const scan = await duplicateScan(full, companyId, points, sums, ofYear);
  const counted = sumsWithoutDuplicates(sums, scan);
  const figures = yearFigures(counted, projects, project.reporting_year, gwp.gwp_ch4, facility ? { facility, points } : { points });
  const balance = figures.balances.find((b) => b.facility === facility);
  return {
    year: project.reporting_year,
    gwp: { name: gwp.name, gwp_ch4: gwp.gwp_ch4 },
    balance,
    duplicates: new Set(scan.leftOut.keys()),
    facility_year_projects: facility ? ofYear.filter((p) => (p.facility || null) === facility).map((p) => p.id) : [project.id],
    yearBalance: balance,
    points,
  };
}

export interface ProjectFigures {
  /** Each counted calculation of an inventory type: its gases gross, subtracted and net. */
  readonly calculations: ReadonlyMap<string, NettedGas[]>;
  readonly gross_t_co2e: number;
  /** What the netting takes off the project's gross mining figures, t CO2-eq. */
  readonly subtracted_t_co2e: number;
  readonly t_co2e: number;
}

/** D26: the project's counted calculations at the year's GWP, netted. */
export function projectFigures(netting: ProjectNetting, counted: readonly StoredCalculation[]): ProjectFigures {
  const calculations = new Map<string, NettedGas[]>();
  let gross = 0;
  let subtracted = 0;
  let net = 0;
  for (const calculation of counted) {
    if (!inventorySourceOf(calculation.type) || roleOf(calculation) !== "primary" || netting.duplicates.has(calculation.id)) continue;
    const gases = nettedGasesOf(calculation, netting.balance, netting.gwp.gwp_ch4);
    calculations.set(calculation.id, gases);
    for (const g of gases) {
      gross += g.gross_t_co2e;
      subtracted += g.subtracted_t_co2e;
      net += g.t_co2e;
    }
  }
  return { calculations, gross_t_co2e: gross, subtracted_t_co2e: subtracted, t_co2e: net };
}

/** How an output names the GWP it applies: «Распоряжение № 2979-р (МГЭИК AR4): ПГП CH4 = 25 (отчетный год 2025)». */
export const gwpText = (netting: ProjectNetting) =>
  `${netting.gwp.name}: ПГП CH4 = ${String(netting.gwp.gwp_ch4).replace(".", ",")} (отчетный год ${netting.year})`;
