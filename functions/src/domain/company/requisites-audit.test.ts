// «История изменений реквизитов» (domain/company/requisites-audit.ts): each change of the change log
// as the company reads it — only the fields that differ, by their Russian labels, values the Russian
// way (a sensor's levels «1,25», the coal output «1 234 567,5», the base year «2 662,48»), a sensor's
// kind, role and flow conditions in words, a time zone by its city, yes/no for a flag; a webhook added
// without its secret; the list for the company's reviewers only, on the in-memory repositories. Over
// HTTP and across companies: tests/integration/isolation-matrix.test.ts, sensors.test.ts.
import { describe, expect, it } from "vitest";
import { clockAt, memoryDomain } from "../../../../tests/support/memory-domain";
import type { AdminAuditEntry } from "../../ports";
import { Forbidden } from "../errors";
import { REVIEWERS_ONLY, listRequisitesAudit, requisitesChange } from "./requisites-audit";

const entry = (over: Partial<AdminAuditEntry>): AdminAuditEntry => ({
  id: "a1",
  at: "2026-03-02T05:00:00.000Z",
  actor_id: "u1",
  actor_email: "agk@example.com",
  action: "sensor.update",
  target_type: "sensor",
  target_id: "s1",
  target_label: "М-7",
  before: null,
  after: null,
  ...over,
});
const NBSP = "\u00a0";

describe("a change as the company reads it", () => {
  it("lists a sensor's changed fields only, levels the Russian way and kinds, roles and conditions in words", () => {
    const sensor = {
      code: "М-7",
      kind: "methane",
      role: "signalling",
      working: "Лава 12-1",
      warning: 1,
      alarm: 2,
      conditions: "standard",
      is_active: true,
    };
    const change = requisitesChange(
      entry({
        before: sensor,
        after: {
          ...sensor,
          kind: "methane_high",
          role: "cut_off",
          // the row a meter at «другое место» is read against, in words.
          norm_place: "wing_outgoing",
          warning: 1.25,
          conditions: "actual",
          is_active: false,
          secret: "x",
        },
      }),
    );
    expect(change).toMatchObject({ id: "a1", actor_email: "agk@example.com", target_type: "sensor", target_label: "М-7", created: false });
    expect(change.changes).toEqual([
      { field: "kind", label: "Вид датчика", before: "Метан (0–4 % об.)", after: "Метан высоких концентраций (0–100 %)" },
      { field: "role", label: "Роль", before: "сигнализирующий", after: "отключающий" },
      { field: "norm_place", label: "Норма загазирования", before: "", after: "в исходящей струе крыла, шахты" },
      { field: "warning", label: "Предупредительный уровень, % об.", before: "1", after: "1,25" },
      {
        field: "conditions",
        label: "Условия расхода",
        before: "стандартные (20 °C, 101,325 кПа)",
        after: "рабочие (по датчикам P и T)",
      },
      { field: "is_active", label: "Датчик действует", before: "да", after: "нет" },
    ]);
  });

  it("says a webhook was added with its address and name, never its secret", () => {
    const change = requisitesChange(
      entry({
        target_type: "webhook",
        target_label: "Диспетчерская",
        after: { url: "https://agk.example.com/hook", label: "Диспетчерская", secret: "s3cr3t" },
      }),
    );
    expect(change.created).toBe(true);
    expect(change.changes).toEqual([
      { field: "url", label: "Адрес приемника", before: "", after: "https://agk.example.com/hook" },
      { field: "label", label: "Название", before: "", after: "Диспетчерская" },
    ]);
    expect(JSON.stringify(change)).not.toContain("s3cr3t");
  });

  it("writes the coal output and the base year's emissions the Russian way", () => {
    const coal = requisitesChange(
      entry({ target_type: "coal_output", before: { year: 2025, t: 1_200_000 }, after: { year: 2025, t: 1_234_567.5 } }),
    );
    expect(coal.changes).toEqual([
      { field: "t", label: "Добыча угля, т", before: `1${NBSP}200${NBSP}000`, after: `1${NBSP}234${NBSP}567,5` },
    ]);
    const base = requisitesChange(entry({ target_type: "base_year", after: { year: 2023, t_co2e: 2662.48, reason: "Новый базовый год" } }));
    expect(base.changes).toContainEqual({
      field: "t_co2e",
      label: "Выбросы базового года в сопоставимых условиях, т CO2-экв.",
      before: "",
      after: `2${NBSP}662,48`,
    });
  });

  it("names a time zone by its city, a company without one keeping Kemerovo's", () => {
    const unchanged = requisitesChange(
      entry({ target_type: "company", before: { name: "ООО «А»" }, after: { name: "ООО «А»", time_zone: "Asia/Novokuznetsk" } }),
    );
    expect(unchanged.changes).toEqual([]);
    const moved = requisitesChange(
      entry({ target_type: "company", before: { name: "ООО «А»" }, after: { name: "ООО «Б»", time_zone: "Asia/Omsk" } }),
    );
    expect(moved.changes).toEqual([
      { field: "name", label: "Название", before: "ООО «А»", after: "ООО «Б»" },
      { field: "time_zone", label: "Часовой пояс", before: "Кемерово, Новокузнецк (UTC+7)", after: "Омск (UTC+6)" },
    ]);
  });
});

describe("who reads the history", () => {
  it("refuses staff and gives the company's reviewers its changes", async () => {
    const d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
    const staff = await d.actor("ООО «История»");
    await d.facility(staff, { name: "Шахта «Летопись»", kind: "underground_mine" });
    await d.settled();
    await expect(listRequisitesAudit(d.deps, staff, { limit: 10, offset: 0 })).rejects.toThrow(Forbidden);
    await expect(listRequisitesAudit(d.deps, staff, { limit: 10, offset: 0 })).rejects.toThrow(REVIEWERS_ONLY);
    const page = await listRequisitesAudit(d.deps, { ...staff, role: "reviewer" }, { limit: 10, offset: 0 });
    const facility = page.results.find((c) => c.target_type === "facility");
    expect(facility).toMatchObject({ created: true, target_label: "Шахта «Летопись»" });
    expect(facility?.changes).toContainEqual({ field: "name", label: "Название", before: "", after: "Шахта «Летопись»" });
  });
});

describe("an accepted drainage month the platform made gross (D92)", () => {
  it("is read as its basis corrected, «чистый» → «валовый», with the reason in words and no decision's code", () => {
    const change = requisitesChange(
      entry({
        actor_id: "system",
        actor_email: "system",
        action: "telemetry.basis_gross",
        target_type: "accepted_month",
        target_label: "Дегазационная установка, 03.2026 (по данным АГК) (Шахта «Замер»)",
        before: { month: "2026-03", point_name: "Дегазационная установка", basis: "net", calculation_version: 3 },
        after: {
          month: "2026-03",
          point_name: "Дегазационная установка",
          basis: "gross",
          calculation_version: 4,
          // As the migration stored it before the reason lost its decision's number.
          reason:
            "D92: месяц дегазационной установки, принятый по ее собственным счетчикам на трубопроводе, измеряет весь каптированный газ",
        },
      }),
    );
    expect(change.target_type).toBe("accepted_month_basis");
    expect(change.changes).toEqual([
      { field: "basis", label: "Основа учета", before: "чистый", after: "валовый" },
      { field: "calculation_version", label: "Версия расчета", before: "3", after: "4" },
      {
        field: "reason",
        label: "Причина",
        before: "",
        after: "Месяц дегазационной установки, принятый по ее собственным счетчикам на трубопроводе, измеряет весь каптированный газ",
      },
    ]);
  });
});
