// Russian names of the calculation types (docs/api.md) for the statistics block: the registry's titles,
// the same names the calculations screen offers.
import { REGISTRY, isCalculationType } from "@core/registry";

export function calcTypeLabel(type: string): string {
  return isCalculationType(type) ? REGISTRY[type].title : type;
}
