// The calculation dialog alone, for the tests of what it asks, says and sends: shown while
// calculationDialogAtom holds it, as CalculationsWorkspace shows it, without the project's page and
// list around it (openPart). `openNewCalculation` opens «Новый расчет» as «Добавить расчет» does. The
// tests that follow a calculation into the list, its results or a refusal out of it render the page.
import { act } from "@testing-library/react";
import { useAtomValue } from "jotai";
import { onTestFinished } from "vitest";
import type { CalculationType } from "@core/registry";
import { appStore } from "../app/store";
import { calculationDialogAtom } from "../features/calculations/atoms";
import { CalculationDialog } from "../features/calculations/CalculationDialog";
import type { ContractApi } from "./contract-api";
import { openPart, type OpenApp } from "./render-app";

function WhileOpen({ type, projectId }: { type: CalculationType; projectId: string }) {
  return useAtomValue(calculationDialogAtom) && <CalculationDialog type={type} projectId={projectId} />;
}

/** The dialog of `type` in the project, closed until `openNewCalculation`; closed again after the test
 *  (the page closes it as it goes). */
export function openCalculationDialog(type: CalculationType, projectId: string, answer: (api: ContractApi) => void): OpenApp {
  onTestFinished(() => appStore.set(calculationDialogAtom, null));
  return openPart(<WhileOpen type={type} projectId={projectId} />, answer);
}

/** Opens «Новый расчет», as «Добавить расчет» does. */
export async function openNewCalculation(): Promise<void> {
  await act(async () => appStore.set(calculationDialogAtom, { mode: "create" }));
}
