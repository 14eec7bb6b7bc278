// Finding one of the caller's company's calculations by type and id: used by the calculations and
// by what hangs off a calculation (its evidence files), which calculations.ts in turn uses.
import type { Actor, Deps } from "./context";
import { Conflict, NotFound } from "./errors";
import { damageOf } from "./calculation-shape";
import type { StoredCalculation } from "../ports";
import { isCalculationType, type CalculationType } from "@core/registry";

/** A type the registry does not know: the path `v1/:type/` catches every unknown path under v1/, so its
 *  404 is the router's «Не найдено», naming nothing («Тип расчета telemetry не найден»). */
export function supportedType(type: string): CalculationType {
  if (isCalculationType(type)) return type;
  throw new NotFound("Не найдено");
}

/** The calculation as stored, whole or not: only an edit reads one of the wrong shape, to archive it. */
export async function getStoredCalculation(
  deps: Deps,
  actor: Pick<Actor, "company">,
  typeName: string,
  id: string,
): Promise<StoredCalculation> {
  const type = supportedType(typeName);
  const calculation = await deps.repos.calculations.get(actor.company, type, id);
  if (!calculation) throw new NotFound("Расчет не найден");
  return calculation;
}

/** The calculation; one of the wrong shape (calculation-shape.ts) is refused, naming what is wrong. */
export async function getCalculation(deps: Deps, actor: Pick<Actor, "company">, typeName: string, id: string): Promise<StoredCalculation> {
  const calculation = await getStoredCalculation(deps, actor, typeName, id);
  const problem = damageOf(calculation);
  if (problem !== undefined) throw damagedRefusal(calculation, problem);
  return calculation;
}

/** What a stored calculation of the wrong shape answers to anything but its archiving. */
export function damagedRefusal(calculation: StoredCalculation, problem: string): Conflict {
  const name = typeof calculation.name === "string" ? calculation.name : "без названия";
  return new Conflict(`Расчет «${name}» поврежден (${problem}): его можно только архивировать, затем ввести заново`);
}
