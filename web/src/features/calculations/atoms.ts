import { atom } from "jotai";
import type { EditState } from "../../shared/EditDialog";
import type { Calculation } from "../../api/calculations";

/** The create/edit dialog; edit names the calculation, whose stored version the dialog fetches. */
export type CalculationDialogState = EditState<"calculation", Calculation>;

export const calculationDialogAtom = atom<CalculationDialogState>(null);

/** The read-only results dialog of a row. */
export const resultsDialogAtom = atom<Calculation | null>(null);
