// «Подписать КЭП» on a climate period's view in a real browser against the real local
// server: the period computed on the screen, «Скачать файл для подписи» downloads the pack's manifest
// (the same bytes the API offers), the test signs them as the executor's CryptoPro would — a GOST R
// 34.10-2012 key and certificate made with OpenSSL's GOST engine — and «Загрузить подпись» takes the
// .sig: the signer, the organisation, ИНН and ОГРН, the certificate's dates and «цепочка не проверена:
// корневые сертификаты не загружены» are shown; a signature by an expired certificate is refused in
// Russian. Screenshot (SCREENSHOTS=1) to SCREENSHOT_DIR (default /tmp). Needs web/dist
// (`npm run build:web`), Chromium and libengine-gost-openssl.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { dropSigner, gostCertificate, requireGostEngine, signDetached, type GostSigner } from "../support/gost";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const SUBJECT =
  "/CN=Иванов Иван Иванович/SN=Иванов/GN=Иван Иванович/O=ООО «Шахта Климат»/title=Главный инженер" +
  "/1.2.643.3.131.1.1=421234567890/1.2.643.100.1=1024200001234";

describe("web app: «Подписать КЭП» on a climate period", () => {
  let server: TestServer;
  let token: string;
  let project: string;
  const signers: GostSigner[] = [];
  const call = apiCaller(
    () => server.url,
    () => token,
  );

  beforeAll(async () => {
    requireGostEngine();
    server = await startTestServer();
    token = await accessToken(server.url, server.demo);
    const facility = await call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «КЭП»", kind: "underground_mine" });
    const point = await call<{ id: string }>("POST", `v1/facilities/${facility.id}/points/`, {
      name: "Факельная установка (КЭП)",
      kind: "drainage_station",
      instrument: "АГК",
    });
    const codes = { q: "Q-КЭП", c: "C-КЭП", flame: "FL-КЭП" };
    for (const [code, kind] of [
      [codes.q, "flow"],
      [codes.c, "methane_high"],
      [codes.flame, "flame"],
    ]) {
      await call("POST", `v1/facilities/${facility.id}/sensors/`, { code, kind, point: point.id });
    }
    project = (
      await call<{ id: string }>("POST", "v1/climate-projects/", {
        name: "Факел Ф-1 (КЭП)",
        facility: facility.id,
        start: "2026-06-01",
        methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
        devices: [{ name: "Ф-1", point: point.id, kind: "flare_open", flow_basis: "normal_0C", sensors: codes }],
      })
    ).id;
  }, 180_000);

  afterAll(async () => {
    for (const s of signers) dropSigner(s);
    await server?.close();
  });

  it("downloads the file to sign, takes its GOST signature and shows the signer; an expired certificate is refused", {
    timeout: 180_000,
  }, async () => {
    const app = await openWebApp(server, { user: server.demo, viewport: { width: 1440, height: 900 }, timeout: 30_000 });
    try {
      const { page } = app;
      await page.goto(`${server.url}/climate-projects`);
      await page.getByRole("heading", { name: "Климатические проекты", level: 2 }).waitFor();
      await page.getByRole("button", { name: "Факел Ф-1 (КЭП)" }).click();
      await page.getByTestId("climate-project").waitFor();
      for (const label of ["Начало периода", "Конец периода (включительно)"]) {
        const input = page.getByLabel(label);
        await input.click();
        await input.pressSequentially("01.06.2026");
        await input.press("Tab");
      }
      await page.getByRole("button", { name: "Рассчитать" }).click();
      const signatures = page.getByTestId("climate-signatures");
      await signatures.waitFor({ timeout: 60_000 });
      await signatures.getByText("Период еще не подписан.").waitFor();
      await signatures.getByRole("button", { name: /Подписать КЭП/ }).click();

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        signatures.getByRole("button", { name: /Скачать файл для подписи/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^Манифест пакета .*\.json$/);
      const bytes = new Uint8Array(readFileSync(await download.path()));
      const period = (await call<{ results: { id: string }[] }>("GET", `v1/climate-projects/${project}/periods/`)).results[0].id;
      const offered = await fetch(`${server.url}/api/v1/climate-projects/${project}/periods/${period}/signatures/payload/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(Buffer.from(bytes).equals(Buffer.from(await offered.arrayBuffer()))).toBe(true);

      const signer = gostCertificate({ subject: SUBJECT, days: 365 });
      signers.push(signer);
      const input = signatures.getByLabel("Файл подписи");
      await input.setInputFiles({
        name: "manifest.json.sig",
        mimeType: "application/octet-stream",
        buffer: Buffer.from(signDetached(signer, bytes)),
      });
      await signatures.getByText(/Подпись принята: Иванов Иван Иванович, ООО «Шахта Климат»/).waitFor({ timeout: 60_000 });
      // the accepted signature is listed with the notice, never «не подписан» under it.
      expect(await signatures.getByText("Период еще не подписан.").count()).toBe(0);
      const item = signatures.getByTestId("climate-signature");
      expect(await item.count()).toBe(1);
      // the test certificate is self-signed, and the card says so.
      expect(await item.getByTestId("climate-signature-warning").allInnerTexts()).toContain(
        "сертификат самоподписанный: выдан самим подписантом, а не удостоверяющим центром",
      );
      const shown = (await item.innerText()).replace(/[\u00a0\u202f]/g, " ");
      for (const words of [
        "Иванов Иван Иванович",
        "ООО «Шахта Климат», Главный инженер",
        "ИНН 421234567890, ОГРН 1024200001234",
        "Сертификат действует с",
        "цепочка не проверена: корневые сертификаты не загружены",
      ]) {
        expect(shown).toContain(words);
      }

      const expired = gostCertificate({
        subject: "/CN=Сидоров Сидор/O=ООО Тест",
        startdate: "20200101000000Z",
        enddate: "20210101000000Z",
      });
      signers.push(expired);
      await input.setInputFiles({
        name: "old.sig",
        mimeType: "application/octet-stream",
        buffer: Buffer.from(signDetached(expired, bytes)),
      });
      await signatures
        .getByText(/Подпись не принята: Срок действия сертификата подписанта истек 01\.01\.2021/)
        .waitFor({ timeout: 60_000 });
      expect(await signatures.getByTestId("climate-signature").count()).toBe(1);
      await screenshot(signatures, { path: `${SHOTS}/climate-signatures-1440.png` });
      expect(app.pageErrors).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
