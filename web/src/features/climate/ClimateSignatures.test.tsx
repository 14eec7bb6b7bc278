// @vitest-environment happy-dom
// «Подписать КЭП» of a climate period: the button opens the two steps; «Скачать файл
// для подписи» asks the period's payload, «Загрузить подпись» posts the chosen .sig as `file_data`; the
// accepted signature is listed with its signer, organisation, ИНН and ОГРН, the certificate's dates
// «01.06.2026 – 01.06.2027» and the chain's state in Russian; a refusal is said in the server's words
// without the field's name.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";
import { failure } from "../../testing/contract-api";
import { ClimateSignatures, type ClimateSignature } from "./ClimateSignatures";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const SIGNATURE: ClimateSignature = {
  id: "s1",
  project: "p1",
  period: "per1",
  file_name: "Манифест пакета Факелы 2026-06-01–2026-06-02.json",
  file_sha256: "a".repeat(64),
  signer: {
    common_name: "Иванов Иван Иванович",
    surname: "Иванов",
    given_name: "Иван Иванович",
    organization: "ООО «Шахта Северная»",
    title: "Генеральный директор",
    inn: "421234567890",
    ogrn: "1024200001234",
    issuer: "Тестовый УЦ",
    serial: "01",
    valid_from: "2026-05-31T17:00:00.000Z",
    valid_to: "2027-05-31T17:00:00.000Z",
    fingerprint_sha256: "b".repeat(64),
  },
  signing_time: "2026-06-02T03:00:00.000Z",
  chain: { state: "unchecked" },
  current: true,
  created_at: "2026-06-02T03:00:05.000Z",
  created_by: "staff@example.test",
  warnings: [],
};

const text = (element: Element) => (element.textContent ?? "").replace(/[\u00a0\u202f]/g, " ");

it("downloads the file to sign, posts the .sig and shows the signer, organisation, validity and chain in Russian", async () => {
  let kept: ClimateSignature[] = [];
  app = openPage({ path: "/climate-projects", route: "/climate-projects", page: <ClimateSignatures project="p1" period="per1" /> }, (api) =>
    api
      .on("listClimateSignatures", () => ({ results: kept, count: kept.length }))
      .on("climateSignaturePayload", () => "{}")
      .on("createClimateSignature", () => {
        kept = [SIGNATURE];
        return SIGNATURE;
      }),
  );
  expect(await screen.findByText("Период еще не подписан.")).toBeTruthy();
  await app.user.click(screen.getByRole("button", { name: /Подписать КЭП/ }));
  await app.user.click(screen.getByRole("button", { name: /Скачать файл для подписи/ }));
  await waitFor(() => expect(app.api.calls("climateSignaturePayload")).toHaveLength(1));
  expect(app.api.calls("climateSignaturePayload")[0].params).toEqual({ id: "p1", period: "per1" });

  const sig = new File([new Uint8Array([0x30, 0x82, 0x05, 0x00])], "manifest.json.sig");
  await app.user.upload(screen.getByLabelText("Файл подписи"), sig);
  await waitFor(() => expect(app.api.calls("createClimateSignature")).toHaveLength(1));
  const sent = app.api.calls("createClimateSignature")[0];
  expect(sent.params).toEqual({ id: "p1", period: "per1" });
  expect((sent.body as FormData).get("file_data")).toBeInstanceOf(File);

  expect(text(await screen.findByRole("alert"))).toContain("Подпись принята: Иванов Иван Иванович, ООО «Шахта Северная»");
  const item = await screen.findByTestId("climate-signature");
  expect(text(item)).toContain("Иванов Иван Иванович");
  expect(text(item)).toContain("ООО «Шахта Северная», Генеральный директор");
  expect(text(item)).toContain("ИНН 421234567890, ОГРН 1024200001234");
  expect(text(item)).toContain("Сертификат действует с 01.06.2026 по 01.06.2027, выдан: Тестовый УЦ");
  expect(text(item)).toContain("цепочка не проверена: корневые сертификаты не загружены");
  expect(screen.queryByTestId("climate-signature-stale")).toBeNull();
});

it("marks a signature over an earlier state of the file «подпись к прежней версии файла»", async () => {
  const stale = { ...SIGNATURE, current: false };
  app = openPage({ path: "/climate-projects", route: "/climate-projects", page: <ClimateSignatures project="p1" period="per1" /> }, (api) =>
    api.on("listClimateSignatures", { results: [stale], count: 1 }),
  );
  const item = await screen.findByTestId("climate-signature");
  expect(text(item)).toContain("Иванов Иван Иванович");
  expect(text(await screen.findByTestId("climate-signature-stale"))).toBe("подпись к прежней версии файла");
  expect(text(item)).toContain("подпись сделана над прежним файлом и в пакет для верификатора не входит");
});

it("warns on the card of a certificate whose ИНН is not the executor's, or that is self-signed", async () => {
  const warned = {
    ...SIGNATURE,
    warnings: [
      "ИНН в сертификате (421234567890) не ИНН исполнителя (4205000000)",
      "сертификат самоподписанный: выдан самим подписантом, а не удостоверяющим центром",
    ],
  };
  app = openPage({ path: "/climate-projects", route: "/climate-projects", page: <ClimateSignatures project="p1" period="per1" /> }, (api) =>
    api.on("listClimateSignatures", { results: [warned], count: 1 }),
  );
  const item = await screen.findByTestId("climate-signature");
  const warnings = within(item as HTMLElement)
    .getAllByTestId("climate-signature-warning")
    .map(text);
  expect(warnings).toEqual(warned.warnings);
});

it("says a refused signature in the server's words, without the field's name", async () => {
  app = openPage({ path: "/climate-projects", route: "/climate-projects", page: <ClimateSignatures project="p1" period="per1" /> }, (api) =>
    api
      .on("listClimateSignatures", { results: [], count: 0 })
      .on("createClimateSignature", () =>
        failure(400, [["file_data", "срок действия сертификата подписанта истек 01.01.2021 (действовал 01.01.2020 – 01.01.2021)"]]),
      ),
  );
  await app.user.click(await screen.findByRole("button", { name: /Подписать КЭП/ }));
  await app.user.upload(screen.getByLabelText("Файл подписи"), new File(["MIIB"], "old.sig"));
  expect(text(await screen.findByRole("alert"))).toContain(
    "Подпись не принята: Срок действия сертификата подписанта истек 01.01.2021 (действовал 01.01.2020 – 01.01.2021)",
  );
});
