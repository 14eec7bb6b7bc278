// The calculation kinds the calculations screen shows without owning them: the regression's forecast
// (features/forecast/) and the file-based series (features/series/). A feature imports no other, so
// app/registerCalculationKinds.tsx fills this registry and the calculations screen reads it: the dialog's form,
// the results dialog's body and the list's result column of each such type.
import type { ComponentType, ReactNode } from "react";
import type { CalculationType } from "@core/registry";
import type { Calculation, DictionaryEntry } from "../api/calculations";
import { LIMITS } from "@server/contract";

/** What the create/edit dialog hands the form of its type. */
export interface KindFormProps {
  type: CalculationType;
  mode: "create" | "edit";
  projectId: string;
  /** The GWP sets, loaded first when the kind asks for them (`needsGwp`). */
  gwpEntries: readonly DictionaryEntry[];
  /** D12: the id of the GWP set in force for the project's reporting year. */
  gwpInForce?: number;
  stored?: Calculation;
  onDone(): void;
  onReload(): void;
}

export interface CalculationKindViews {
  Form: ComponentType<KindFormProps>;
  Results: ComponentType<{ calculation: Calculation }>;
  /** The list's one result column for a calculation of this type. */
  summary(calculation: Calculation): ReactNode;
  /** Whether the form needs the GWP sets before it starts. */
  needsGwp(type: CalculationType): boolean;
}

const kinds = new Map<CalculationType, CalculationKindViews>();

export function registerCalculationKind(type: CalculationType, views: CalculationKindViews): void {
  kinds.set(type, views);
}

/** The registered views of a type; none for the formula types, which the calculations screen owns. */
export function calculationKind(type: CalculationType): CalculationKindViews | undefined {
  return kinds.get(type);
}

/** docs/user-guide.md: the results tables of a forecast and of a series show 5 rows a page. */
export const RESULTS_PAGE_SIZE = LIMITS.page.forecastRows;

let loadKinds: () => Promise<unknown> = () => Promise.resolve();

/** app/ says how the module that registers the kinds loads: with the list, not with the page, so the
 *  page's first load stays light. */
export function setCalculationKindsLoader(load: () => Promise<unknown>): void {
  loadKinds = load;
}

export function loadCalculationKinds(): Promise<unknown> {
  return loadKinds();
}
