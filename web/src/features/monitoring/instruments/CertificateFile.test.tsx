// @vitest-environment happy-dom
// a verification's certificate scan on the sensor's record — its name a link that
// downloads it, with its size in Russian («5 КБ») and who attached it and when; a verification without
// one offers «Приложить скан свидетельства» to the facility's staff (a PDF chosen is PUT to the
// verification's certificate), nothing to a reviewer; a file that is no PDF, PNG or JPEG, or over the
// limit, is refused before sending, in Russian.
import { screen, waitFor } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { LIMITS } from "@server/contract";
import { closeApp, openPart, type OpenApp } from "../../../testing/render-app";
import { CertificateFile, certificateProblem } from "./CertificateFile";
import type { Verification } from "../../../api/instruments";

let app: OpenApp;
afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const VERIFICATION: Verification = {
  id: "v1",
  sensor: "s1",
  instrument_type: "ДМС 03",
  register_number: "12345-06",
  serial: "0419",
  verified_on: "2026-03-01",
  valid_to: "2027-02-28",
  certificate: "С-419",
  corrects: null,
  corrected_by: null,
  recorded_by: "Кузнецова О.",
  recorded_at: "2026-03-01T03:00:00.000Z",
};
const ATTACHED: Verification = {
  ...VERIFICATION,
  certificate_file: {
    name: "Свидетельство С-419.pdf",
    size: 5000,
    format: "pdf",
    uploaded_at: "2026-03-02T03:30:00.000Z",
    uploaded_by: "Сидоров А.",
  },
};

it("shows an attached scan as a link with its size, who attached it and when", async () => {
  app = openPart(<CertificateFile facility="f1" sensor="s1" verification={ATTACHED} canAttach />, () => {});
  const link = await screen.findByRole("button", { name: "Свидетельство С-419.pdf" });
  const line = screen.getByTestId("certificate-v1").textContent ?? "";
  expect(line.replace(/[\u00a0\u202f]/g, " ")).toMatch(
    /^ ?Скан свидетельства: Свидетельство С-419\.pdf \(5 КБ; приложил Сидоров А\., 02\.03\.2026 \d\d:30\)$/,
  );
  expect(link).toBeTruthy();
  // Attached once: no button to attach another.
  expect(screen.queryByText("Приложить скан свидетельства")).toBeNull();
});

it("goes to the storage address the server hands out in AWS instead of the bytes", async () => {
  const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
  try {
    app = openPart(<CertificateFile facility="f1" sensor="s1" verification={ATTACHED} canAttach />, (api) =>
      api.on("downloadVerificationCertificate", { download_url: "https://scans.example/c?sig=1", file_name: "Свидетельство С-419.pdf" }),
    );
    await app.user.click(await screen.findByRole("button", { name: "Свидетельство С-419.pdf" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://scans.example/c?sig=1"));
    expect(app.api.calls("downloadVerificationCertificate")[0].params).toMatchObject({ id: "f1", sensor: "s1", verification: "v1" });
  } finally {
    assign.mockRestore();
  }
});

it("attaches a chosen PDF to the verification", async () => {
  app = openPart(<CertificateFile facility="f1" sensor="s1" verification={VERIFICATION} canAttach />, (api) =>
    api.on("attachVerificationCertificate", ATTACHED),
  );
  const input = await waitFor(() => document.querySelector<HTMLInputElement>("input[type=file]")!);
  expect(input.accept).toBe(".pdf,.png,.jpg,.jpeg");
  await app.user.upload(input, new File(["%PDF-1.7 scan"], "Свидетельство С-419.pdf", { type: "application/pdf" }));
  await waitFor(() => expect(app.api.calls("attachVerificationCertificate")).toHaveLength(1));
  expect(app.api.calls("attachVerificationCertificate")[0].params).toMatchObject({ id: "f1", sensor: "s1", verification: "v1" });
});

it("offers a reviewer nothing to attach", () => {
  app = openPart(<CertificateFile facility="f1" sensor="s1" verification={VERIFICATION} canAttach={false} />, () => {});
  expect(screen.queryByText("Приложить скан свидетельства")).toBeNull();
  expect(document.querySelector("input[type=file]")).toBeNull();
});

it("refuses before sending a file that is no scan, an empty one or one over the limit, in Russian", () => {
  expect(certificateProblem({ name: "свидетельство.xlsx", size: 100 })).toBe(
    "Приложите скан свидетельства в PDF или изображение PNG или JPEG",
  );
  expect(certificateProblem({ name: "скан.JPG", size: 0 })).toBe("Файл пуст");
  expect(certificateProblem({ name: "скан.pdf", size: LIMITS.sensorChecks.certificateFileBytes + 1 })).toBe("Файл больше 10 МБ");
  expect(certificateProblem({ name: "скан.png", size: LIMITS.sensorChecks.certificateFileBytes })).toBeUndefined();
});
