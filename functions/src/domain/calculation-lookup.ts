// Finding one of the caller's company's calculations by type and id: used by the calculations and
// by what hangs off a calculation (its evidence files), which calculations.ts in turn uses.
import type { Actor, Deps } from "./context";
import { NotFound } from "./errors";
import type { Calculation } from "../ports";
import { isCalculationType, type CalculationType } from "@core/registry";

export function supportedType(type: string): CalculationType {
  if (isCalculationType(type)) return type;
  throw new NotFound(`Тип расчета ${type} не найден`);
}

export async function getCalculation(deps: Deps, actor: Pick<Actor, "company">, typeName: string, id: string): Promise<Calculation> {
  const type = supportedType(typeName);
  const calculation = await deps.repos.calculations.get(actor.company, type, id);
  if (!calculation) throw new NotFound("Расчет не найден");
  return calculation;
}
