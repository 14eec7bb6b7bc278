// @vitest-environment happy-dom
// «Данные АГК» (D61–D63): the completeness heat map by point and month, the month's figures in Russian
// numbers, «Принять» into a project of the facility — below 95 % only once a reason is typed, which is
// sent with it — and an accepted month whose readings moved it flagged.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { signedInUser, project } from "../../testing/fixtures";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";
import { atPhoneWidth } from "../../testing/dom-globals";
import TelemetryOffersPage from "./TelemetryOffersPage";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const AT = "2026-03-01T03:00:00.000Z";
const offer = (month: string, completeness: number, accepted: unknown = null) => ({
  point: "p1",
  point_name: "Ствол № 2",
  month,
  volume_thousand_m3: 720,
  ef_ch4: 0.4516666667,
  ch4_t: 2.172336,
  minutes: { expected: 44640, valid: 50, substituted: 10, missing: 44580 },
  completeness,
  longest_gap_min: 10,
  readings_sha256: "a".repeat(64),
  demo: false,
  accepted,
});

it("shows the heat map and the figures, asks for a reason below 95 % and sends it with the project", async () => {
  const year = new Date().getFullYear();
  const changed = {
    calculation: "c1",
    project: "pr1",
    ch4_t: 2.1,
    accepted_at: AT,
    accepted_by: "a@b.ru",
    reason: "",
    changed: true,
    difference_pct: 1.62,
  };
  app = openPage({ path: "/facilities/f1/telemetry", route: "/facilities/:facilityId/telemetry", page: <TelemetryOffersPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listProjects", {
        results: [project({ id: "pr1", name: "Замеры", facility: "f1" }), project({ id: "pr2", name: "Чужой", facility: "f2" })],
        count: 2,
      })
      .on("listTelemetryOffers", [offer(`${year}-03`, 0.0013), offer(`${year}-04`, 0.9639, changed)])
      .on("acceptTelemetryOffers", ({ body }) => [
        { ...offer(`${year}-03`, 0.0013), accepted: { ...changed, changed: false, reason: (body as { reason: string }).reason } },
      ]),
  );
  const map = await screen.findByLabelText("Полнота данных");
  // «№ 2» kept on one line (a no-break space).
  expect(map.textContent).toContain("Ствол №\u00a02");
  expect(map.textContent).toContain("96");
  // The months scroll inside the card, not the page; the offers' table sizes its columns to their
  // content (no column fixed, no fixed layout that clipped «Принять» to «Пр»).
  expect(screen.getByTestId("offers-heat-map").style.overflowX).toBe("auto");
  const row = (await screen.findByText(`03.${year}`)).closest("tr")!;
  expect(row.closest("table")!.style.tableLayout).toBe("auto");
  expect(document.querySelector(".ant-table-cell-fix-left, .ant-table-cell-fix-right")).toBeNull();
  expect(row.textContent).toContain("720,00");
  expect(row.textContent).toContain("0,4517");
  expect(row.textContent).toContain("2,172");
  expect(row.textContent?.replace(/\s/g, " ")).toContain("50 / 10 / 44 580");
  expect(screen.getByText(`04.${year}`).closest("tr")!.textContent?.replace(/\s/g, " ")).toContain(
    "Данные АГК изменились после принятия: +1,62 %",
  );

  await app.user.click(within(row).getByText("Принять").closest("button")!);
  const dialog = (await screen.findByText(`Принять: Ствол № 2, 03.${year}`, { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  expect(dialog.textContent).toContain("ниже 95\u00a0%");
  await app.user.click(inside.getByLabelText("Проект"));
  await app.user.click(await screen.findByText("Замеры"));
  const ok = inside
    .getAllByText("Принять")
    .map((e) => e.closest("button")!)
    .find((b) => b.className.includes("primary"))!;
  expect(ok.disabled).toBe(true);
  await app.user.type(inside.getByLabelText("Причина"), "Пробный замер");
  await waitFor(() => expect(ok.disabled).toBe(false));
  await app.user.click(ok);
  await waitFor(() => expect(app.api.calls("acceptTelemetryOffers")).toHaveLength(1));
  expect(app.api.calls("acceptTelemetryOffers")[0].body).toEqual({
    facility: "f1",
    point: "p1",
    months: [`${year}-03`],
    project: "pr1",
    reason: "Пробный замер",
  });
});

it("on a phone shows each offer as a block of lines with its figures and «Принять», the heat map scrolling inside its card", async () => {
  atPhoneWidth();
  const year = new Date().getFullYear();
  app = openPage({ path: "/facilities/f1/telemetry", route: "/facilities/:facilityId/telemetry", page: <TelemetryOffersPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listFacilities", [])
      .on("listProjects", { results: [project({ id: "pr1", name: "Замеры", facility: "f1" })], count: 1 })
      .on("listTelemetryOffers", [offer(`${year}-03`, 0.0013)]),
  );
  const block = (await screen.findByText(`03.${year}`)).closest<HTMLElement>("[data-testid=stacked-rows]")!;
  expect(block.querySelector("table")).toBeNull();
  for (const shown of [
    "Источник",
    "Ствол №\u00a02",
    "Объём смеси, тыс. м³",
    "720,00",
    "CH4, т",
    "2,172",
    "Полнота",
    "Наибольший пропуск, мин",
  ]) {
    expect(block.textContent).toContain(shown);
  }
  expect(screen.getByTestId("offers-heat-map").style.overflowX).toBe("auto");
  await app.user.click(within(block).getByText("Принять").closest("button")!);
  await screen.findByText(`Принять: Ствол № 2, 03.${year}`, { selector: ".ant-modal-title" });
});
