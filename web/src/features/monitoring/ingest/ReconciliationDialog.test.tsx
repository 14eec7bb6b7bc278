// @vitest-environment happy-dom
// «Сверка с выгрузкой АГК» rendered alone: the export granted an upload, PUT, named for a
// reconciliation and its state read again until done; then the summary and the counts in Russian numbers
// («2 662»), the unknown sensor named, a row per sensor and day with its readings that differ under it,
// and «Догрузить недостающие» making the one batch and following it until applied.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { closeApp, openPart, type OpenApp } from "../../../testing/render-app";
import { success } from "../../../testing/contract-api";
import { api } from "../../../api/client";
import { DISPATCH_TIME_FORMATS } from "@server/contract";
import ReconciliationDialog from "./ReconciliationDialog";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  vi.restoreAllMocks();
  closeApp();
});

const AT = "2026-03-01T13:00:00.000Z";
const counts = { in_file: 120_000, stored: 117_339, missing: 2_662, extra: 0, different: 1 };
const GRANT = {
  url: "/api/v1/uploads/?token=t",
  method: "PUT",
  headers: { "Content-Type": "text/csv" },
  upload_id: "u1",
  expires_at: AT,
  file_upload: "telemetry-uploads/company-1/f1/x.csv",
};

/** The dialog, its file chosen and «Сверить» pressed. */
async function sent(file: File) {
  const dialog = (await screen.findByText("Сверка с выгрузкой АГК", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  const ok = () => inside.getByText("Сверить", { selector: "button span" }).closest("button")!;
  expect(ok().disabled).toBe(true);
  await app.user.upload(dialog.querySelector<HTMLInputElement>("input[type=file]")!, file);
  await inside.findByTestId("chosen-reconciliation-file");
  await app.user.click(ok());
  return { dialog, inside };
}

it("reconciles an export, shows its differences by sensor and day and «Догрузить недостающие» stores the missing as one batch", async () => {
  let reads = 0;
  let filled = false;
  vi.spyOn(api, "putFile").mockImplementation(async () => undefined);
  app = openPart(<ReconciliationDialog facility="f1" onClose={() => {}} />, (a) =>
    a
      .on("readingsUploadUrl", GRANT)
      .on("createReadingsReconciliation", () => success(202, { id: "r1", status_url: "/api/v1/telemetry/reconciliations/r1/" }))
      .on("getReadingsReconciliation", () => {
        reads++;
        const done = reads > 1;
        return {
          id: "r1",
          facility: "f1",
          state: done ? "done" : "running",
          verdict: done ? "differences" : null,
          file_name: "АГК март.csv",
          created_at: AT,
          from: done ? AT : null,
          to: done ? "2026-03-02T12:59:00.000Z" : null,
          totals: done ? counts : { in_file: 0, stored: 0, missing: 0, extra: 0, different: 0 },
          days_count: done ? 1 : 0,
          days: done
            ? [
                {
                  sensor: "s1",
                  sensor_code: "М-12",
                  day: "2026-03-01",
                  ...counts,
                  examples: [
                    { t: "2026-03-01T13:03:00.000Z", file: 0.44, stored: null },
                    { t: "2026-03-01T13:50:00.000Z", file: 2662.48, stored: 2662.5 },
                  ],
                },
              ]
            : [],
          refused_count: 0,
          refused: [],
          unknown_sensors: done ? ["Q-9"] : [],
          ...(done ? { detail: "Датчики не найдены в реестре датчиков площадки, их показания не сверены: «Q-9»" } : {}),
          ...(filled ? { fill: { batch: "b9", status_url: "/api/v1/telemetry/batches/b9/" } } : {}),
        };
      })
      .on("fillReadingsReconciliation", () => {
        filled = true;
        return success(202, { batch: "b9", status_url: "/api/v1/telemetry/batches/b9/" });
      })
      .on("getReadingsBatch", {
        batch: "b9",
        facility: "f1",
        state: "done",
        received_at: AT,
        lines: 2_662,
        accepted: 2_662,
        duplicate: 0,
        corrected: 0,
        refused: [],
        readings_sha256: "0".repeat(64),
        file_name: "Догрузка по сверке АГК март.csv",
      }),
  );
  const { dialog, inside } = await sent(new File(["Время;М-12\n01.03.2026 20:00:00;0,42\n"], "АГК март.csv", { type: "text/csv" }));

  // The counts grouped as Russian numbers (a no-break space, which the queries read as a space).
  await inside.findByText(/^Найдены расхождения; нет в хранилище: 2\s662, другое значение: 1$/);
  expect(reads).toBeGreaterThanOrEqual(2);
  expect(app.api.calls("createReadingsReconciliation")[0].body).toEqual({
    facility: "f1",
    file_upload: "telemetry-uploads/company-1/f1/x.csv",
    name: "АГК март.csv",
  });
  expect(dialog.textContent).toContain("Датчики не найдены в реестре датчиков площадки, их показания не сверены: «Q-9»");
  expect(dialog.textContent).toContain("120\u00a0000");
  const row = (await inside.findByText("М-12")).closest("tr")!;
  expect(
    within(row)
      .getAllByRole("cell")
      .map((c) => c.textContent),
  ).toEqual(["", "М-12", "01.03.2026", "120\u00a0000", "117\u00a0339", "2\u00a0662", "0", "1"]);
  await app.user.click(row.querySelector("button")!);
  const examples = await inside.findByRole("table", { name: "Расхождения М-12 за 01.03.2026" });
  expect(examples.textContent).toContain("нет");
  expect(examples.textContent).toContain("2\u00a0662,48");
  expect(examples.textContent).toContain("01.03.2026 20:50");
  expect(dialog.textContent).not.toContain("s1");

  await app.user.click(inside.getByText(/^Догрузить недостающие \(2\s662\)$/).closest("button")!);
  await inside.findByText(/^Догружено: принято 2\s662 из 2\s662 показаний/);
  expect(app.api.calls("fillReadingsReconciliation")).toHaveLength(1);
  await waitFor(() => expect(inside.getByText(/^Догрузить недостающие \(2\s662\)$/).closest("button")!.disabled).toBe(true));
});

// an export whose every line was refused (a two-digit year before the reader took it)
// read «Расхождений нет: все показания выгрузки есть в хранилище»; one read in half, the same.
it.each([
  {
    verdict: "unread" as const,
    title: "Выгрузка не прочитана: ни одно показание не сверено",
    in_file: 0,
    lines: 20,
  },
  {
    verdict: "partly_read" as const,
    title: "Выгрузка прочитана не вся: не прочитано строк и значений — 10; сверено только прочитанное, расхождений в нем нет",
    in_file: 30,
    lines: 10,
  },
])("says a file $verdict with its first reasons and what to change, never a match", async ({ verdict, title, in_file, lines }) => {
  vi.spyOn(api, "putFile").mockImplementation(async () => undefined);
  const refused = Array.from({ length: lines }, (_, i) => ({
    line: 21 - lines + i,
    reason: "время «26.11.26 00:00» не в формате: «ДД.ММ.ГГГГ ЧЧ:ММ:СС»",
  }));
  app = openPart(<ReconciliationDialog facility="f1" onClose={() => {}} />, (a) =>
    a
      .on("readingsUploadUrl", GRANT)
      .on("createReadingsReconciliation", () => success(202, { id: "r1", status_url: "/api/v1/telemetry/reconciliations/r1/" }))
      .on("getReadingsReconciliation", {
        id: "r1",
        facility: "f1",
        state: "done",
        verdict,
        file_name: "АГК.csv",
        created_at: AT,
        from: in_file ? AT : null,
        to: in_file ? AT : null,
        totals: { in_file, stored: in_file, missing: 0, extra: 0, different: 0 },
        days_count: 0,
        days: [],
        refused_count: lines,
        refused,
        unknown_sensors: [],
      }),
  );
  const { dialog, inside } = await sent(new File(["Время;М-12\n26.11.26 00:00;0,42\n"], "АГК.csv", { type: "text/csv" }));
  const alert = (await inside.findByText(title)).closest<HTMLElement>(".ant-alert")!;
  expect(alert.textContent).toContain(`Строка ${21 - lines}: время «26.11.26 00:00» не в формате`);
  expect(alert.querySelectorAll("li")).toHaveLength(3);
  expect(alert.textContent).toContain("Что изменить: исправьте в выгрузке строки с этими причинами");
  expect(alert.textContent).toContain("коды датчиков — как в реестре датчиков площадки");
  expect(dialog.textContent).not.toContain("Расхождений нет");
});

// three lines of a time not read each repeated the time's formats (some 200 characters) in
// the summary, and the stored readings at their instants were «нет в выгрузке» beside them.
it("says the time's formats once, and the readings of the lines not read apart from «нет в выгрузке»", async () => {
  vi.spyOn(api, "putFile").mockImplementation(async () => undefined);
  const refused = [6, 7, 8].map((line) => ({
    line,
    reason: `время «2026-03-01T13:0${line - 1}» не в формате: ${DISPATCH_TIME_FORMATS}`,
  }));
  app = openPart(<ReconciliationDialog facility="f1" onClose={() => {}} />, (a) =>
    a
      .on("readingsUploadUrl", GRANT)
      .on("createReadingsReconciliation", () => success(202, { id: "r1", status_url: "/api/v1/telemetry/reconciliations/r1/" }))
      .on("getReadingsReconciliation", {
        id: "r1",
        facility: "f1",
        state: "done",
        verdict: "partly_read",
        file_name: "АГК.csv",
        created_at: AT,
        from: AT,
        to: AT,
        totals: { in_file: 34, stored: 40, missing: 0, extra: 0, different: 0, unread: 6 },
        days_count: 0,
        days: [],
        refused_count: 3,
        refused,
        unknown_sensors: [],
      }),
  );
  const { dialog, inside } = await sent(new File(["Время;М-12\n"], "АГК.csv", { type: "text/csv" }));
  const alert = (await inside.findByText(/^Выгрузка прочитана не вся/)).closest<HTMLElement>(".ant-alert")!;
  expect([...alert.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
    "Строка 6: время «2026-03-01T13:05» не в формате",
    "Строка 7: время «2026-03-01T13:06» не в формате",
    "Строка 8: время «2026-03-01T13:07» не в формате",
  ]);
  expect(alert.textContent?.split(DISPATCH_TIME_FORMATS)).toHaveLength(2);
  expect(alert.textContent).toContain(`время — ${DISPATCH_TIME_FORMATS}; значения —`);
  expect(alert.querySelector(".ant-alert-title")?.textContent).toBe(
    "Выгрузка прочитана не вся: не прочитано строк и значений — 3; сверено только прочитанное, расхождений в нем нет",
  );
  const summary = within(dialog.querySelector<HTMLElement>(".ant-descriptions")!);
  const value = (label: string) =>
    summary.getByText(label).closest(".ant-descriptions-item-container")?.querySelector(".ant-descriptions-item-content")?.textContent;
  expect(value("Не сверено показаний хранилища (строки выгрузки не прочитаны)")).toBe("6");
  expect(value("Нет в выгрузке")).toBe("0");
});

// a large export's rows of sensor and day are thousands; the table reads them a page at a time.
it("reads the rows of sensor and day a page at a time from the server", async () => {
  vi.spyOn(api, "putFile").mockImplementation(async () => undefined);
  const row = (n: number) => ({
    sensor: `s${n}`,
    sensor_code: `М-${n}`,
    day: "2026-03-01",
    in_file: 1,
    stored: 0,
    missing: 1,
    extra: 0,
    different: 0,
    examples: [],
  });
  app = openPart(<ReconciliationDialog facility="f1" onClose={() => {}} />, (a) =>
    a
      .on("readingsUploadUrl", GRANT)
      .on("createReadingsReconciliation", () => success(202, { id: "r1", status_url: "/api/v1/telemetry/reconciliations/r1/" }))
      .on("getReadingsReconciliation", (request) => {
        const offset = Number(request.query.get("offset"));
        const limit = Number(request.query.get("limit"));
        return {
          id: "r1",
          facility: "f1",
          state: "done",
          verdict: "differences",
          file_name: "АГК.csv",
          created_at: AT,
          from: AT,
          to: AT,
          totals: { in_file: 25, stored: 0, missing: 25, extra: 0, different: 0 },
          days_count: 25,
          days: Array.from({ length: Math.max(0, Math.min(limit, 25 - offset)) }, (_, i) => row(offset + i + 1)),
          refused_count: 0,
          refused: [],
          unknown_sensors: [],
        };
      }),
  );
  const { inside } = await sent(new File(["Время;М-1\n01.03.2026 20:00:00;0,42\n"], "АГК.csv", { type: "text/csv" }));
  await inside.findByText("М-1");
  expect(inside.queryByText("М-11")).toBeNull();
  await app.user.click(inside.getByTitle("2"));
  await inside.findByText("М-11");
  const asked = app.api.calls("getReadingsReconciliation").map((c) => `${c.query.get("offset")}/${c.query.get("limit")}`);
  expect(asked).toContain("10/10");
});
