// @vitest-environment happy-dom
// D37: the measured release's dialog asks what its meter saw — «всё каптированное (валовый)» or
// «только выброшенное без сжигания (чистый)» — and says what each means; where the project's
// facility has a flare, a boiler or an engine, a new measurement starts as gross. The dialog is
// rendered alone, as «Добавить расчет» opens it.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MEASURED_BASIS_LABELS, REGISTRY } from "@core/registry";
import { project, referenceDictionary } from "../../testing/fixtures";
import { closeApp, type OpenApp } from "../../testing/render-app";
import { openCalculationDialog, openNewCalculation } from "../../testing/calculation-dialog";

const TYPE = "underground";
const PROJECT = project({ facility: "facility-1" });

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const point = (id: string, name: string, kind: string) => ({
  id,
  company: "company-1",
  facility: "facility-1",
  name,
  kind,
  instrument: "",
  frequency: "",
  in_service_from: null,
  in_service_to: null,
  is_active: true,
  created_at: "2025-01-10T08:00:00.000Z",
  updated_at: "2025-01-10T08:00:00.000Z",
  version: 1,
});

/** «Новый расчет» of a measured release in a project of a facility with these points. */
async function newMeasurement(points: ReturnType<typeof point>[]) {
  app = openCalculationDialog(TYPE, PROJECT.id, (api) =>
    api
      .on("getProject", PROJECT)
      .on("getDictionary", ({ params }) => referenceDictionary(params.name))
      .on("listEmissionPoints", () => points),
  );
  await openNewCalculation();
  const title = await screen.findByText("Новый расчет", { selector: ".ant-modal-title" });
  const dialog = within(title.closest<HTMLElement>("[role=dialog]")!);
  await dialog.findByText(REGISTRY[TYPE].title, { exact: true });
  return dialog;
}

describe("what a drainage meter saw (D37)", () => {
  it("starts as all the drained gas (gross) where the facility burns it, and says what each basis means", async () => {
    const dialog = await newMeasurement([point("p1", "ВДУ-1", "drainage_station"), point("p2", "Факел", "flare")]);
    const basis = dialog.getByLabelText("Что измерено").closest(".ant-select")!;
    await waitFor(() => expect(basis.textContent).toContain(MEASURED_BASIS_LABELS.gross));
    expect(
      dialog.getByText(/Если прибор измеряет весь каптированный газ, а выбран чистый, сожженный метан будет учтен дважды/),
    ).toBeTruthy();
    expect(dialog.getByText(/На площадке есть факел или котельная: по умолчанию — валовый/)).toBeTruthy();
    // the volume is what the meter measured, burnt gas and all; its label does not
    // say «выброшенной без сжигания» above the gross basis.
    expect(dialog.getByLabelText("Объём газовой смеси (вентиляция, дегазация), измеренный", { exact: true })).toBeTruthy();
    expect(dialog.queryByText(/без сжигания/, { selector: "label" })).toBeNull();
  });

  it("starts as vented unburnt (net) where the facility burns nothing", async () => {
    const dialog = await newMeasurement([point("p1", "ВС-1", "ventilation_shaft")]);
    // The facility's points have been read (the point field lists them): still net.
    await waitFor(() => expect(app.api.calls("listEmissionPoints").length).toBeGreaterThan(0));
    await app.user.click(dialog.getByLabelText("Источник выбросов"));
    await screen.findByTitle("ВС-1 — вентиляционный ствол (вентилятор)");
    const basis = dialog.getByLabelText("Что измерено").closest(".ant-select")!;
    expect(basis.textContent).toContain(MEASURED_BASIS_LABELS.net);
    expect(dialog.queryByText(/по умолчанию — валовый/)).toBeNull();
  });
});
