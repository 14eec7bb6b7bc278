// @vitest-environment happy-dom
// «Загрузить выгрузку АГК» on «Датчики» (D57): an empty file refused before anything is sent;
// a CSV granted an upload, PUT with its progress, stored as a batch, and its state read again until
// the consumer is done — then the counts in Russian numbers («3 100») and the refused lines by number
// and reason, ten a page.
import { screen, within } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";
import { success } from "../../testing/contract-api";
import { api } from "../../api/client";
import SensorsPage from "./SensorsPage";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  vi.restoreAllMocks();
  closeApp();
});

const AT = "2026-03-01T03:00:00.000Z";
const FACILITY = {
  id: "f1",
  company: "company-1",
  name: "Шахта «Распадская»",
  kind: "underground_mine" as const,
  licence_number: "",
  address: "",
  is_active: true,
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const POINT = {
  id: "p1",
  company: "company-1",
  facility: "f1",
  name: "Ствол № 2",
  kind: "ventilation_shaft" as const,
  instrument: "",
  frequency: "",
  in_service_from: null,
  in_service_to: null,
  is_active: true,
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const register = {
  code: "М-12",
  kind: "methane" as const,
  point: "p1",
  role: "cut_off" as const,
  working: "",
  warning: null,
  alarm: null,
  area_m2: null,
  conditions: "standard" as const,
  in_service_from: null,
  in_service_to: null,
};
const METHANE = {
  id: "s1",
  company: "company-1",
  facility: "f1",
  ...register,
  is_active: true,
  revisions: [{ ...register, valid_from: "1970-01-01T00:00:00.000Z" }],
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const REFUSED = Array.from({ length: 12 }, (_, i) => ({ line: i + 3, reason: `«обрыв»: не число (строка ${i + 3})` }));

it("sends a dispatch export, follows its batch until done and lists the refused lines a page at a time", async () => {
  let reads = 0;
  const put = vi.spyOn(api, "putFile").mockImplementation(async (_url, file, _headers, onProgress) => {
    onProgress?.(file.size / 2, file.size);
    onProgress?.(file.size, file.size);
  });
  app = openPage({ path: "/facilities/f1/sensors", route: "/facilities/:facilityId/sensors", page: <SensorsPage /> }, (a) =>
    a
      .on("listFacilities", [FACILITY])
      .on("listEmissionPoints", [POINT])
      .on("listSensors", [METHANE])
      .on("listGatewayKeys", [])
      .on("telemetryUploadUrl", {
        url: "/api/v1/uploads/?token=t",
        method: "PUT",
        headers: { "Content-Type": "text/csv" },
        upload_id: "u1",
        expires_at: AT,
        file_upload: "telemetry/company-1/f1/x.csv",
      })
      .on("importTelemetryFile", () => success(202, { batch: "b1", status_url: "/api/v1/telemetry/batches/b1/" }))
      .on("getTelemetryBatch", () => {
        reads++;
        const done = reads > 1;
        return {
          batch: "b1",
          facility: "f1",
          state: done ? "done" : "queued",
          received_at: AT,
          lines: 3112,
          accepted: done ? 3100 : 0,
          duplicate: 0,
          corrected: 0,
          refused: done ? REFUSED : [],
          readings_sha256: "0".repeat(64),
          file_name: "Выгрузка.csv",
        };
      }),
  );
  await screen.findByText("М-12");
  await app.user.click(screen.getByText("Загрузить выгрузку АГК").closest("button")!);
  const dialog = (await screen.findByText("Загрузить выгрузку АГК", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  const ok = () => inside.getByText("Загрузить", { selector: "button span" }).closest("button")!;
  expect(ok().disabled).toBe(true);
  const input = () => dialog.querySelector<HTMLInputElement>("input[type=file]")!;

  await app.user.upload(input(), new File([], "Пустая.csv", { type: "text/csv" }));
  await inside.findByText("Файл пуст");
  expect(ok().disabled).toBe(true);

  await app.user.upload(input(), new File(["Время;М-12\n01.03.2026 10:00:00;0,42\n"], "Выгрузка.csv", { type: "text/csv" }));
  await inside.findByTestId("chosen-dispatch-file");
  await app.user.click(ok());

  await inside.findByText("Обработано; отклонено строк: 12");
  expect(reads).toBeGreaterThanOrEqual(2);
  expect(put).toHaveBeenCalledTimes(1);
  expect(app.api.calls("telemetryUploadUrl")[0].body).toMatchObject({ facility: "f1", content_type: "text/csv", name: "Выгрузка.csv" });
  expect(app.api.calls("importTelemetryFile")[0].body).toEqual({
    facility: "f1",
    file_upload: "telemetry/company-1/f1/x.csv",
    name: "Выгрузка.csv",
  });
  expect(dialog.textContent).toContain("3\u00a0112");
  expect(dialog.textContent).toContain("3\u00a0100");
  const table = (await inside.findByText("«обрыв»: не число (строка 3)")).closest("table")!;
  expect(within(table).queryByText("«обрыв»: не число (строка 13)")).toBeNull();
  await app.user.click(inside.getByTitle("2"));
  await within(table).findByText("«обрыв»: не число (строка 14)");
  expect(within(table).getByText("14").closest("tr")!.textContent).toContain("строка 14");
});
