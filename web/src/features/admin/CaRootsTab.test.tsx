// @vitest-environment happy-dom
// «Сертификаты УЦ» on /admin: none loaded says the chain is not checked; a .cer
// chosen is posted as `file_data` and listed with its subject, dates and thumbprint; a file that is no
// CA's certificate is refused in the server's words, without the field's name. The server's side (a
// chain verified for a certificate the CA issued, refused for another) is climate-signatures.test.ts's.
import { screen, waitFor } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { closeApp, openPart, type OpenApp } from "../../testing/render-app";
import { failure } from "../../testing/contract-api";
import { CaRootsTab, type CaRoot } from "./CaRootsTab";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const ROOT: CaRoot = {
  id: "c".repeat(64),
  subject: "CN=Тестовый УЦ, O=АО «УЦ»",
  issuer: "CN=Тестовый УЦ, O=АО «УЦ»",
  valid_from: "2026-01-01T00:00:00.000Z",
  valid_to: "2036-01-01T00:00:00.000Z",
  created_at: "2026-11-27T09:00:00.000Z",
  created_by: "admin@example.test",
};

const text = (element: Element) => (element.textContent ?? "").replace(/[\u00a0\u202f]/g, " ");

it("loads a CA certificate and lists it; a certificate that is no CA's is refused in Russian", async () => {
  let roots: CaRoot[] = [];
  let refuse = false;
  app = openPart(<CaRootsTab />, (api) =>
    api
      .on("adminListCaRoots", () => ({ results: roots, count: roots.length }))
      .on("adminCreateCaRoots", () => {
        if (refuse) return failure(400, [["file_data", "сертификат не является сертификатом УЦ (в нем нет CA:TRUE)"]]);
        roots = [ROOT];
        return { results: [ROOT], count: 1 };
      }),
  );
  expect(await screen.findByText(/Корневые сертификаты не загружены/)).toBeTruthy();
  await app.user.upload(screen.getByLabelText("Файл сертификата УЦ"), new File(["-----BEGIN CERTIFICATE-----"], "root.cer"));
  await waitFor(() => expect(app.api.calls("adminCreateCaRoots")).toHaveLength(1));
  expect((app.api.calls("adminCreateCaRoots")[0].body as FormData).get("file_data")).toBeInstanceOf(File);
  const row = await screen.findByTestId("ca-root");
  expect(text(row)).toContain("CN=Тестовый УЦ, O=АО «УЦ»");
  expect(text(row)).toContain("Действует с 01.01.2026 по 01.01.2036");
  expect(text(row)).toContain(`Отпечаток SHA-256: ${"c".repeat(64)}`);

  refuse = true;
  await app.user.upload(screen.getByLabelText("Файл сертификата УЦ"), new File(["x"], "user.cer"));
  // The first load's «Загружено сертификатов: 1» is an alert too, for its three seconds: the refusal is
  // the alert that says so, not the only one.
  const refused = await screen.findByText(/^Сертификат не загружен/);
  expect(text(refused.closest("[role=alert]")!)).toContain(
    "Сертификат не загружен: сертификат не является сертификатом УЦ (в нем нет CA:TRUE)",
  );
});
