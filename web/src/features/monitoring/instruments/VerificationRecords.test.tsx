// @vitest-environment happy-dom
// D94: a verification's correction on the sensor's record. «Исправить» on one not yet
// corrected opens the verification's form filled with it and sends `corrects`; the corrected one stays
// listed, greyed and marked «исправлена (запись от ДД.ММ.ГГГГ)», with no button; a reviewer sees none.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { closeApp, openPart, setField, type OpenApp } from "../../../testing/render-app";
import { VerificationRecords } from "./VerificationRecords";
import type { Verification } from "../../../api/instruments";

let app: OpenApp;
afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const TYPED: Verification = {
  id: "v1",
  sensor: "s1",
  instrument_type: "ДМС 03",
  register_number: "12345-06",
  serial: "0417",
  verified_on: "2026-03-10",
  valid_to: "2027-03-09",
  certificate: "С-ГШ/417",
  corrects: null,
  corrected_by: null,
  recorded_by: "Кузнецова О.",
  recorded_at: "2026-03-10T03:00:00.000Z",
};
const CORRECTION: Verification = {
  ...TYPED,
  id: "v2",
  verified_on: "2025-03-01",
  valid_to: "2026-02-28",
  corrects: "v1",
  recorded_by: "Петров И.",
  recorded_at: "2026-03-12T03:00:00.000Z",
};

it("corrects a verification in its form filled with it, sending the one it corrects", async () => {
  app = openPart(<VerificationRecords facility="f1" sensor="s1" code="М-7" verifications={[TYPED]} canRecord />, (api) =>
    api.on("recordSensorVerification", CORRECTION),
  );
  await app.user.click(screen.getByRole("button", { name: "Исправить" }));
  const dialog = await screen.findByRole("dialog");
  expect(within(dialog).getByText("Исправление поверки датчика М-7 от 10.03.2026")).toBeTruthy();
  for (const [label, value] of [
    ["Тип средства измерений", "ДМС 03"],
    ["Номер в Госреестре СИ", "12345-06"],
    ["Заводской номер", "0417"],
    ["Дата поверки", "10.03.2026"],
    ["Действительна до", "09.03.2027"],
    ["Номер свидетельства (записи) о поверке", "С-ГШ/417"],
  ])
    expect(within(dialog).getByLabelText(label, { exact: true })).toHaveProperty("value", value);
  await setField(app.user, within(dialog).getByLabelText("Дата поверки", { exact: true }), "01.03.2025");
  await setField(app.user, within(dialog).getByLabelText("Действительна до", { exact: true }), "28.02.2026");
  await app.user.click(within(dialog).getByRole("button", { name: "Записать исправление" }));
  await waitFor(() => expect(app.api.calls("recordSensorVerification")).toHaveLength(1));
  expect(app.api.calls("recordSensorVerification")[0].body).toEqual({
    instrument_type: "ДМС 03",
    register_number: "12345-06",
    serial: "0417",
    verified_on: "2025-03-01",
    valid_to: "2026-02-28",
    certificate: "С-ГШ/417",
    corrects: "v1",
  });
});

it("keeps the corrected verification listed, greyed and marked, with no button; the correction says what it corrects", () => {
  app = openPart(
    <VerificationRecords facility="f1" sensor="s1" code="М-7" verifications={[CORRECTION, { ...TYPED, corrected_by: "v2" }]} canRecord />,
    () => {},
  );
  const corrected = screen.getByTestId("verification-v1");
  expect(corrected.textContent).toContain("поверен 10.03.2026, действительна до 09.03.2027");
  expect(corrected.textContent).toContain("исправлена (запись от 12.03.2026)");
  expect(corrected.style.opacity).toBe("0.6");
  expect(within(corrected).queryByRole("button", { name: "Исправить" })).toBeNull();
  const correction = screen.getByTestId("verification-v2");
  expect(correction.textContent).toContain("исправляет запись от 10.03.2026");
  expect(within(correction).getByRole("button", { name: "Исправить" })).toBeTruthy();
});

it("offers a reviewer no correction", () => {
  app = openPart(<VerificationRecords facility="f1" sensor="s1" code="М-7" verifications={[TYPED]} canRecord={false} />, () => {});
  expect(screen.getByTestId("verification-v1").textContent).toContain("поверен 10.03.2026");
  expect(screen.queryByRole("button", { name: "Исправить" })).toBeNull();
});
