// What the domain relies on from its repositories, as cases both implementations pass: the
// in-memory one in the unit tier (functions/src/adapters/memory/repositories.test.ts) and the
// DynamoDB one on dynalite in the integration tier (tests/integration/repository-behaviour.test.ts),
// so the memory one cannot drift from the real one. Conditional writes and their conflicts
// (versions, unique ids and e-mails, caps, the year's write guard), order and pages, consistent
// reads, and the statistics and inventory sums the table's stream keeps, read-your-writes.
import { describe, expect, it } from "vitest";
import { Conflict, Invalid, NotFound } from "@server/domain/errors";
import { newId } from "@server/domain/ids";
import { INVENTORY_SUMS_LAYOUT } from "@server/domain/inventory/sums";
import type { StoredCalculation, InventoryReview, Repositories, SensorEvent } from "@server/ports";
import type { CallCounter } from "@server/adapters/dynamodb/call-count";
import type { Project } from "@server/contract/schemas/project";

export interface Storage {
  repos: Repositories;
  /** Waits until the table's stream has handled every write so far. */
  settled(): Promise<void>;
  /** The DynamoDB tier's calls sent to the table (countCalls): a batch held to its writes. None in memory. */
  calls?: CallCounter;
}

const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();

function project(company: string, id: string, second: number, fields: Partial<Project> = {}): Project {
  return {
    id,
    company,
    user: "u",
    name: `Проект ${id}`,
    start_date: "2024-01-01",
    end_date: "2024-12-31",
    reporting_year: 2024,
    status: 1,
    is_active: true,
    is_deleted: false,
    version: 1,
    created_at: at(second),
    updated_at: at(second),
    ...fields,
  } as Project;
}

function calculation(
  company: string,
  projectId: string,
  id: string,
  second: number,
  fields: Partial<StoredCalculation> = {},
): StoredCalculation {
  return {
    id,
    type: "underground_emission_ch4",
    project: projectId,
    company,
    name: `Расчет ${id}`,
    is_active: true,
    is_deleted: false,
    version: 1,
    inputs: { volume: 1000, ef: 18 },
    results: { res_ch4: 12.06, res_ch4_to_co2: 301.5, sum_co2: 301.5 },
    coefficients: {},
    methodology_version: "test",
    created_at: at(second),
    created_by: "a@example.com",
    updated_at: at(second),
    updated_by: "a@example.com",
    ...fields,
  };
}

function review(company: string, year: number, fields: Partial<InventoryReview> = {}): InventoryReview {
  return { company, year, status: "draft", history: [], comments: [], updated_at: at(0), version: 1, ...fields } as InventoryReview;
}

function sensorEvent(company: string, facility: string, minute: number): SensorEvent {
  return {
    company,
    facility,
    id: `${facility}.s${minute}.s.none.${minute}`,
    sensor: `s${minute}`,
    kind: "stale",
    level: null,
    threshold: null,
    start: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString(),
    end: null,
    peak: null,
    peak_at: null,
    minutes_above: 0,
    acknowledged_by: null,
    acknowledged_at: null,
    comment: "",
    version: 1,
  };
}

const conflict = (detail: string) => expect.objectContaining({ constructor: Conflict, detail });

/** The cases, on the storage `open` gives (companies are new ids each time: a shared table is fine). */
export function repositoryBehaviour(open: () => Promise<Storage>): void {
  let s: Storage;
  const fresh = async () => {
    s ??= await open();
    return { repos: s.repos, company: newId() };
  };

  describe("calculations", () => {
    it("refuse a taken id and a stale version, and read back without the storage's marks", async () => {
      const { repos, company } = await fresh();
      const c = calculation(company, "p1", newId(), 1);
      await repos.calculations.create(c);
      await expect(repos.calculations.create(c)).rejects.toEqual(conflict("Расчет с таким идентификатором уже существует"));
      const stored = await repos.calculations.get(company, c.type, c.id);
      expect(stored).toEqual(c);
      await repos.calculations.replace({ ...c, name: "Новое", version: 2 }, 1);
      await expect(repos.calculations.replace({ ...c, name: "Старое", version: 2 }, 1)).rejects.toEqual(
        conflict("Расчет был изменен другим пользователем. Обновите страницу и повторите."),
      );
      expect((await repos.calculations.get(company, c.type, c.id))?.name).toBe("Новое");
      expect(await repos.calculations.get(newId(), c.type, c.id)).toBeUndefined();
    });

    it("list a project's calculations of a type newest first, paged and counted, and oldest first whole", async () => {
      const { repos, company } = await fresh();
      const ids = [newId(), newId(), newId()];
      for (const [i, id] of ids.entries()) await repos.calculations.create(calculation(company, "p1", id, 10 - i * 3));
      await repos.calculations.create(calculation(company, "p2", newId(), 1));
      await repos.calculations.create(calculation(company, "p1", newId(), 1, { type: "torch_ch4" }));
      const archived = calculation(company, "p1", newId(), 2, { is_deleted: true });
      await repos.calculations.create(archived);
      await s.settled();
      // created at 10, 7 and 4 s: newest first.
      const first = await repos.calculations.list(company, "p1", "underground_emission_ch4", "active", { limit: 2, offset: 0 });
      expect(first.results.map((c) => c.id)).toEqual(ids.slice(0, 2));
      expect(first.count).toBe(3);
      const second = await repos.calculations.list(company, "p1", "underground_emission_ch4", "active", { limit: 2, offset: 2 });
      expect(second).toEqual({ results: [expect.objectContaining({ id: ids[2] })], count: 3 });
      const old = await repos.calculations.list(company, "p1", "underground_emission_ch4", "archived", { limit: 10, offset: 0 });
      expect(old).toEqual({ results: [expect.objectContaining({ id: archived.id })], count: 1 });
      const all = await repos.calculations.listAllByProject(company, "p1", "underground_emission_ch4", "active");
      expect(all.map((c) => c.id)).toEqual([...ids].reverse());
      expect((await repos.calculations.firstOfProject(company, "p1", "underground_emission_ch4", 2)).map((c) => c.id)).toEqual(
        [...ids].reverse().slice(0, 2),
      );
      const byTypes = await repos.calculations.listOfCompanyByTypes(company, ["torch_ch4"]);
      expect(byTypes.map((c) => c.project)).toEqual(["p1"]);
      expect(await repos.calculations.listActiveByCompany(company)).toHaveLength(5);
      expect(await repos.calculations.listStatesOfCompany(company)).toHaveLength(6);
      expect(
        (await repos.statistics.listCounts(company, "p1"))
          .map(({ rev: _rev, ...counts }) => counts)
          .sort((a, b) => a.type.localeCompare(b.type)),
      ).toEqual([
        { project: "p1", type: "torch_ch4", active: 1, archived: 0 },
        { project: "p1", type: "underground_emission_ch4", active: 3, archived: 1 },
      ]);
    });

    it("keep the inventory's sums read-your-writes: a refused write gives its number back, the stream counts each write applied", async () => {
      const { repos, company } = await fresh();
      await repos.statistics.markInventorySumsLayout(company, INVENTORY_SUMS_LAYOUT);
      const c = calculation(company, "p1", newId(), 1);
      await repos.calculations.create(c);
      await expect(repos.calculations.replace({ ...c, version: 2 }, 5)).rejects.toBeInstanceOf(Conflict);
      // A guard that fails: nothing is written, and the number is given back.
      const refused = Promise.reject(new Conflict("Год заморожен"));
      await expect(repos.calculations.create(calculation(company, "p1", newId(), 2), refused)).rejects.toEqual(conflict("Год заморожен"));
      await s.settled();
      expect(await repos.statistics.inventoryWrites(company)).toEqual({ writes: 1, applied: 1 });
      const sums = await repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT);
      expect([...sums!.keys()]).toEqual(["p1"]);
      expect(await repos.statistics.projectInventorySums(company, "p1")).toEqual(sums!.get("p1"));
      expect(await repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT + 1)).toBeUndefined();
      expect(await repos.calculations.listActiveByCompany(company)).toHaveLength(1);
      // Archived, the project's sums come back to zero: as if it never had any.
      await repos.calculations.replace({ ...c, is_deleted: true, version: 2 }, 1);
      await s.settled();
      expect((await repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT))?.size).toBe(0);
      expect(await repos.statistics.projectInventorySums(company, "p1")).toEqual({});
    });

    it("end a write its year's lock counted begun once it is stored (the write guard, D32)", async () => {
      const { repos, company } = await fresh();
      expect(await repos.inventoryReviews.beginWrite(company, 2024, "a@example.com", at(1), at(0))).toBe(true);
      await repos.calculations.create(calculation(company, "p1", newId(), 1), Promise.resolve({ year: 2024 }));
      await s.settled();
      expect(await repos.inventoryReviews.writeCounts(company, 2024)).toEqual({ begun: 1, ended: 1, last_begun_at: at(1) });
      // The year's draft made by the write reads as a review never stored, with its editor.
      expect(await repos.inventoryReviews.get(company, 2024)).toMatchObject({ status: "draft", version: 0, changed_by: ["a@example.com"] });
    });
  });

  describe("a year's review and its lock", () => {
    it("refuses a stale version and creates only once", async () => {
      const { repos, company } = await fresh();
      await repos.inventoryReviews.put(review(company, 2024), 0);
      const CONFLICT = "Статус инвентаризации уже изменен другим пользователем. Обновите страницу и повторите.";
      await expect(repos.inventoryReviews.put(review(company, 2024), 0)).rejects.toEqual(conflict(CONFLICT));
      await repos.inventoryReviews.put(review(company, 2024, { status: "in_review", version: 2, changed_by: ["b@x.ru", "a@x.ru"] }), 1);
      await expect(repos.inventoryReviews.put(review(company, 2024, { version: 3 }), 1)).rejects.toEqual(conflict(CONFLICT));
      expect(await repos.inventoryReviews.get(company, 2024)).toEqual(
        review(company, 2024, { status: "in_review", version: 2, changed_by: ["a@x.ru", "b@x.ru"] }),
      );
      expect((await repos.inventoryReviews.listOfCompany(company)).map((r) => r.year)).toEqual([2024]);
    });

    it("refuses writes while the year is frozen or held, and a second hold", async () => {
      const { repos, company } = await fresh();
      const begin = () => repos.inventoryReviews.beginWrite(company, 2024, "a@example.com", at(30), at(0));
      expect(await begin()).toBe(true);
      await repos.inventoryReviews.endWrite(company, 2024);
      expect(await repos.inventoryReviews.holdWrites(company, 2024, at(31), at(0))).toBe(true);
      expect(await repos.inventoryReviews.holdWrites(company, 2024, at(32), at(0))).toBe(false);
      expect(await begin()).toBe(false);
      // A hold older than the stale bound belongs to a step that died.
      expect(await repos.inventoryReviews.beginWrite(company, 2024, "a@example.com", at(50), at(40))).toBe(true);
      await repos.inventoryReviews.releaseWrites(company, 2024);
      expect(await repos.inventoryReviews.writeCounts(company, 2024)).toEqual({ begun: 2, ended: 1, last_begun_at: at(50) });
      await repos.inventoryReviews.settleAbandoned(company, 2024, 2);
      expect((await repos.inventoryReviews.writeCounts(company, 2024)).ended).toBe(2);
      await repos.inventoryReviews.put(review(company, 2024, { status: "in_review" }), 0);
      expect(await begin()).toBe(false);
      // The lock's counts outlive the review's writes.
      expect((await repos.inventoryReviews.writeCounts(company, 2024)).begun).toBe(2);
    });
  });

  describe("projects and the statistics the stream keeps", () => {
    it("list newest first by state, counted from the year aggregates, and refuse a stale version", async () => {
      const { repos, company } = await fresh();
      const ids = [newId(), newId(), newId()];
      for (const [i, id] of ids.entries()) await repos.projects.create(project(company, id, i));
      await expect(repos.projects.create(project(company, ids[0], 0))).rejects.toEqual(
        conflict("Проект с таким идентификатором уже существует"),
      );
      await repos.projects.replace(project(company, ids[1], 1, { is_deleted: true, version: 2 }), 1);
      await expect(repos.projects.replace(project(company, ids[1], 1, { version: 2 }), 1)).rejects.toEqual(
        conflict("Проект был изменен другим пользователем. Обновите страницу и повторите."),
      );
      await s.settled();
      const active = await repos.projects.list(company, "active", { limit: 1, offset: 0 });
      expect(active).toEqual({ results: [expect.objectContaining({ id: ids[2] })], count: 2 });
      expect(await repos.projects.list(company, "archived", { limit: 5, offset: 0 })).toEqual({
        results: [expect.objectContaining({ id: ids[1], is_deleted: true })],
        count: 1,
      });
      expect((await repos.projects.listAllOfCompany(company)).map((p) => p.id).sort()).toEqual([...ids].sort());
      const years = await repos.statistics.years(company);
      expect(years).toEqual([expect.objectContaining({ year: "2025", projects_active: 2, projects_archived: 1 })]);
      // A stored project without a reporting year reads with its end date's.
      const { reporting_year: _none, ...old } = project(company, newId(), 5, { end_date: "2022-12-31" });
      await repos.projects.create(old as Project);
      expect((await repos.projects.get(company, old.id))?.reporting_year).toBe(2022);
    });

    it("keep a project's lock on its facility: a point write only on the facility read, a move never past one (D25)", async () => {
      const { repos, company } = await fresh();
      const stored = project(company, newId(), 1, { facility: "f1" });
      await repos.projects.create(stored);
      const moved = { ...stored, facility: "f3", version: 2 };
      const [before, now, after] = [at(0), at(30), at(59)];
      expect(await repos.projects.beginPointWrite(company, stored.id, "f3", now)).toBe(false);
      expect(await repos.projects.beginPointWrite(company, stored.id, "f1", now)).toBe(true);
      // A rename keeps the count: the move still waits for the write in flight.
      await repos.projects.replace({ ...stored, name: "Переименован", version: 2 }, 1);
      const renamed = { ...moved, name: "Переименован", version: 3 };
      let checked = 0;
      const check = async () => void (checked += 1);
      const inFlight = expect.objectContaining({
        constructor: Conflict,
        detail: expect.stringMatching(/^В проекте сейчас сохраняют расчет/),
      });
      await expect(repos.projects.replaceFacility(renamed, 2, before, check)).rejects.toEqual(inFlight);
      expect(checked).toBe(0);
      // One whose process died (begun before `staleBefore`) holds nothing.
      await expect(repos.projects.replaceFacility(renamed, 2, after, async () => Promise.reject(new Invalid("проверено")))).rejects.toEqual(
        new Invalid("проверено"),
      );
      await repos.projects.endPointWrite(company, stored.id);
      // A point write begun after the move's check: the move is not written.
      const racing = async () => {
        expect(await repos.projects.beginPointWrite(company, stored.id, "f1", now)).toBe(true);
        await repos.projects.endPointWrite(company, stored.id);
      };
      await expect(repos.projects.replaceFacility(renamed, 2, before, racing)).rejects.toEqual(
        conflict("Проект был изменен другим пользователем. Обновите страницу и повторите."),
      );
      await expect(repos.projects.replaceFacility(renamed, 1, before, check)).rejects.toEqual(
        conflict("Проект был изменен другим пользователем. Обновите страницу и повторите."),
      );
      await repos.projects.replaceFacility(renamed, 2, before, check);
      expect(checked).toBe(1);
      // Read back without the lock's counts; a point write of the old facility is refused.
      expect(await repos.projects.get(company, stored.id)).toEqual(renamed);
      expect(await repos.projects.beginPointWrite(company, stored.id, "f1", now)).toBe(false);
      expect(await repos.projects.beginPointWrite(company, stored.id, "f3", now)).toBe(true);
    });

    it("apply a stream record's difference once, and repair only what nothing changed since it was read", async () => {
      const { repos, company } = await fresh();
      const delta = { year: "2020", projects_active: 1, projects_archived: 0, calculations: { torch_ch4: 2 }, total_co2e: 5, counting: {} };
      const change = { source: "PROJECT#x", sequence: "0001", deltas: [delta], at: at(1) };
      expect(await repos.statistics.apply(company, change)).toBe(true);
      expect(await repos.statistics.apply(company, change)).toBe(false);
      const [year] = await repos.statistics.years(company);
      expect(year).toMatchObject({ year: "2020", projects_active: 1, calculations: { torch_ch4: 2 }, total_co2e: 5 });
      expect(await repos.statistics.repair(company, { ...delta, projects_active: -1 }, year.rev + 1, at(2))).toBe(false);
      expect(
        await repos.statistics.repair(company, { ...delta, projects_active: -1, calculations: {}, total_co2e: 0 }, year.rev, at(2)),
      ).toBe(true);
      expect((await repos.statistics.years(company))[0]).toMatchObject({ projects_active: 0, calculations: { torch_ch4: 2 } });
      expect(await repos.statistics.repair(company, { ...delta, year: "2019" }, undefined, at(3))).toBe(true);
      expect(await repos.statistics.repair(company, { ...delta, year: "2019" }, undefined, at(3))).toBe(false);
    });
  });

  describe("caps, companies, users and the other conditional writes", () => {
    it("a cap lets no more than its limit in, counting what exists when it has no counter", async () => {
      const { repos, company } = await fresh();
      expect(await repos.caps.take(company, "FORECASTS#PROJECT#p", 3, async () => 2)).toBe(true);
      expect(await repos.caps.take(company, "FORECASTS#PROJECT#p", 3, async () => 99)).toBe(false);
      await repos.caps.give(company, "FORECASTS#PROJECT#p");
      expect(await repos.caps.take(company, "FORECASTS#PROJECT#p", 3, async () => 99)).toBe(true);
      const taken = await Promise.all(Array.from({ length: 5 }, () => repos.caps.take(company, "COMMENTS#YEAR#2024", 2, async () => 0)));
      expect(taken.filter(Boolean)).toHaveLength(2);
      // A budget of bytes: amounts taken and given back, never past the limit nor below zero.
      const bytes = await Promise.all([700, 500, 300].map((n) => repos.caps.take(company, "UPLOADS#DAY#1", 1000, async () => 0, n)));
      const sum = [700, 500, 300].filter((_, i) => bytes[i]).reduce((a, n) => a + n, 0);
      expect(bytes[2] && sum >= 800 && sum <= 1000).toBe(true);
      expect(await repos.caps.taken(company, "UPLOADS#DAY#1")).toBe(sum);
      await repos.caps.give(company, "UPLOADS#DAY#1", 5000);
      expect(await repos.caps.taken(company, "UPLOADS#DAY#1")).toBe(sum);
      await repos.caps.give(company, "UPLOADS#DAY#1", 300 + 1000 - sum);
      expect(await repos.caps.take(company, "UPLOADS#DAY#1", 1000, async () => 0, 300)).toBe(true);
      expect(await repos.caps.taken(company, "UPLOADS#NONE")).toBe(0);
    });

    it("a counter of amounts takes all of a write's amounts or none, each within the limit, and is set only as read", async () => {
      const { repos, company } = await fresh();
      const name = "LINES#PROJECT#p";
      // A first counter starts from what exists.
      expect(await repos.caps.takeAmounts(company, name, { "t:x": 30 }, 100, async () => ({ "t:x": 50 }))).toBeUndefined();
      // One amount past the limit refuses the others with it, naming it with what it holds.
      expect(await repos.caps.takeAmounts(company, name, { "t:y": 10, "t:x": 21 }, 100, async () => ({}))).toEqual({
        key: "t:x",
        held: 80,
      });
      expect(await repos.caps.takeAmounts(company, name, { "t:z": 101 }, 100, async () => ({}))).toEqual({ key: "t:z", held: 0 });
      // Parallel writers: no more than the limit gets in, whatever the interleaving.
      const taken = await Promise.all(
        Array.from({ length: 8 }, () => repos.caps.takeAmounts(company, name, { "t:y": 30 }, 100, async () => ({}))),
      );
      expect(taken.filter((refused) => refused === undefined)).toHaveLength(3);
      await repos.caps.giveAmounts(company, name, { "t:x": 80, "t:y": 30 });
      // Giving back to a counter not made yet makes none (one made later counts what exists).
      await repos.caps.giveAmounts(company, "LINES#PROJECT#q", { "t:x": 5 });
      const [stored] = await repos.caps.listAmounts(company, "LINES#PROJECT#");
      expect(stored.name).toBe(name);
      expect(stored.amounts).toEqual({ "t:x": 0, "t:y": 60 });
      expect(await repos.caps.setAmounts(company, name, { "t:y": 1 }, stored.rev - 1)).toBe(false);
      expect(await repos.caps.setAmounts(company, name, { "t:y": 1 }, stored.rev)).toBe(true);
      expect((await repos.caps.listAmounts(company, "LINES#PROJECT#")).map((c) => c.amounts)).toEqual([{ "t:y": 1 }]);
    });

    it("companies list by name, versions are checked; e-mails are unique across companies", async () => {
      const { repos } = await fresh();
      const base = { email: "", ogrn: "", okved: "", inn: "", kpp: "", region: "", created_at: at(0) };
      const [b, a] = [newId(), newId()];
      const tag = newId();
      await repos.companies.create({ id: b, name: `Яблоко ${tag}`, ...base } as never);
      await repos.companies.create({ id: a, name: `арбуз ${tag}`, ...base } as never);
      const mine = (await repos.companies.list()).filter((c) => c.name.endsWith(tag));
      expect(mine.map((c) => c.id)).toEqual([a, b]);
      expect((await repos.companies.findByName(` АРБУЗ ${tag} `))?.id).toBe(a);
      await repos.companies.replace({ id: a, name: `Арбуз ${tag}`, ...base, version: 1 } as never, 0);
      await expect(repos.companies.replace({ id: a, name: "x", ...base, version: 2 } as never, 0)).rejects.toBeInstanceOf(Conflict);
      const email = `${newId()}@Example.com`;
      const user = {
        id: newId(),
        company: a,
        email,
        first_name: "",
        last_name: "",
        role: "staff" as const,
        is_active: true,
        password_hash: "h",
        created_at: at(0),
      };
      await repos.users.create(user);
      await expect(repos.users.create({ ...user, id: newId(), company: b, email: email.toUpperCase() })).rejects.toEqual(
        conflict("Пользователь с таким e-mail уже существует"),
      );
      expect((await repos.users.findByEmail(email.toLowerCase()))?.id).toBe(user.id);
      await repos.users.setActive(a, user.id, false);
      expect(await repos.users.get(a, user.id)).toMatchObject({ is_active: false, session_generation: 1, email: email.toLowerCase() });
      await expect(repos.users.setActive(a, newId(), false)).rejects.toEqual(conflict("Пользователь не найден"));
    });

    it("comments newest first and paged; versions, models and dictionary items claim their numbers once", async () => {
      const { repos, company } = await fresh();
      const ids = [newId(), newId(), newId()];
      for (const id of ids) await repos.inventoryComments.add({ id, company, year: 2024, target: null, text: id, by: "a", at: at(0) });
      const page = await repos.inventoryComments.list(company, 2024, { limit: 2, offset: 0 });
      expect(page).toEqual({ results: [expect.objectContaining({ id: ids[2] }), expect.objectContaining({ id: ids[1] })], count: 3 });
      await repos.inventoryComments.remove(company, 2024, ids[0]);
      await expect(repos.inventoryComments.remove(company, 2024, ids[0])).rejects.toBeInstanceOf(NotFound);
      expect(await repos.inventoryComments.count(company, 2024)).toBe(2);
      const version = {
        company,
        year: 2024,
        sha256: "x",
        blob_key: "k",
        action: "approve",
        approved_at: at(0),
        approved_by: "a",
        total_t_co2e: 1,
        facilities: [],
        calculations: 0,
        previous: null,
      };
      await repos.inventoryVersions.create({ ...version, version: 2 });
      await repos.inventoryVersions.create({ ...version, version: 10 });
      await expect(repos.inventoryVersions.create({ ...version, version: 2 })).rejects.toEqual(
        conflict("Инвентаризацию уже утверждает другой пользователь. Обновите страницу и повторите."),
      );
      expect((await repos.inventoryVersions.list(company, 2024)).map((v) => v.version)).toEqual([2, 10]);
      const facility = {
        id: newId(),
        company,
        name: "Б",
        kind: "underground_mine",
        is_active: true,
        version: 1,
        created_at: at(0),
        updated_at: at(0),
      };
      await repos.facilities.create(facility as never);
      await repos.facilities.create({ ...facility, id: newId(), name: "А" } as never);
      expect((await repos.facilities.list(company)).map((f) => f.name)).toEqual(["А", "Б"]);
      await expect(repos.facilities.replace({ ...facility, version: 3 } as never, 2)).rejects.toEqual(
        conflict("Площадка была изменена другим пользователем. Обновите страницу и повторите."),
      );
    });

    it("trend settings are created once and replaced only from the version read; another company's are not read", async () => {
      const { repos, company } = await fresh();
      const settings = { company, base_year: null, significance_pct: 5, targets: [], version: 1, updated_at: at(0) };
      expect(await repos.trendSettings.get(company)).toBeUndefined();
      await repos.trendSettings.put(settings, 0);
      const refusal = conflict("Настройки динамики уже изменены другим пользователем. Обновите страницу и повторите.");
      await expect(repos.trendSettings.put(settings, 0)).rejects.toEqual(refusal);
      const base = { year: 2020, reason: "Первый полный год", t_co2e: 100, conditions_year: 2025, set_at: at(1), set_by: "a" };
      await repos.trendSettings.put({ ...settings, base_year: base, version: 2 }, 1);
      await expect(repos.trendSettings.put({ ...settings, version: 2 }, 1)).rejects.toEqual(refusal);
      expect(await repos.trendSettings.get(company)).toEqual({ ...settings, base_year: base, version: 2 });
      expect(await repos.trendSettings.get(newId())).toBeUndefined();
    });

    it("answers every version of a dictionary's items, a change's new one as soon as it is written", async () => {
      const { repos } = await fresh();
      // A dictionary of its own: the seeded ones are platform-wide.
      const dictionary = `test_${newId()}`;
      const item = (id: number, version: number, value: number) => ({
        dictionary,
        id,
        name: `Запись ${id}`,
        values: { gwp_ch4: { value, unit: "", ref: "test", tag: "T" } },
        version,
        effective_from: "2021-01-01",
        changed_at: at(version),
        changed_by: "system",
        reason: "проверка",
      });
      await repos.dictionaries.seed([item(1, 1, 25), item(2, 1, 28)]);
      const versions = async () => (await repos.dictionaries.versions(dictionary)).map((v) => [v.id, v.version, v.values.gwp_ch4.value]);
      expect(await versions()).toEqual([
        [1, 1, 25],
        [2, 1, 28],
      ]);
      await repos.dictionaries.putVersion({ ...item(1, 2, 30), effective_from: "2026-01-01" });
      expect(await versions()).toEqual([
        [1, 1, 25],
        [1, 2, 30],
        [2, 1, 28],
      ]);
      expect((await repos.dictionaries.forOneRequest().versions(dictionary)).length).toBe(3);
    });

    it("keep the demo mine's feed: created once, moved on only from the version read, its drift read back to the bit", async () => {
      const { repos, company } = await fresh();
      const feed = {
        company,
        facility: "mine",
        seed: 20_260_301,
        zone: "Asia/Novokuznetsk",
        anchor: 1_771_477_200_000,
        next: 1_774_069_200_000,
        drift: [0.0012345678901234567, -0.049999999999999996, 5e-324, 0],
        held: [null, 0.45123456789012345, null, null],
        updated_at: at(1),
        version: 0,
      };
      expect(await repos.monitoring.putDemoFeed(feed, 0)).toBe(true);
      expect(await repos.monitoring.putDemoFeed(feed, 0)).toBe(false);
      const [stored] = (await repos.monitoring.demoFeeds()).filter((f) => f.company === company);
      expect(stored).toEqual({ ...feed, version: 1 });
      expect(await repos.monitoring.putDemoFeed({ ...stored, next: feed.next + 60_000 }, 1)).toBe(true);
      expect(await repos.monitoring.putDemoFeed({ ...stored, next: feed.next + 120_000 }, 1)).toBe(false);
      expect((await repos.monitoring.demoFeeds()).find((f) => f.company === company)).toMatchObject({
        next: feed.next + 60_000,
        version: 2,
      });
    });

    it("remove a facility's events together, at any version, a write per 25, and leave the rest", async () => {
      const { repos, company } = await fresh();
      const facility = newId();
      const events = Array.from({ length: 32 }, (_, minute) => sensorEvent(company, facility, minute));
      for (const event of events) expect(await repos.sensorEvents.put(event, 0)).toBe(true);
      // One acknowledged since it was read (version 2), one never stored: both are no obstacle.
      expect(await repos.sensorEvents.put({ ...events[3], acknowledged_by: "a@example.com", version: 1 }, 1)).toBe(true);
      const gone = [...events.slice(0, 30), sensorEvent(company, facility, 59)];
      s.calls?.reset();
      await repos.sensorEvents.removeAll(gone);
      if (s.calls) expect(s.calls.calls.map((c) => c.command)).toEqual(["BatchWrite", "BatchWrite"]);
      const left = await repos.sensorEvents.listOfFacility(company, facility, "2025-01-01T00:00:00.000Z", "2025-01-02T00:00:00.000Z");
      expect(left).toEqual(events.slice(30));
      await repos.sensorEvents.removeAll([]);
    });

    it("refuses what the storage cannot hold as bad input", async () => {
      const { repos, company } = await fresh();
      await expect(repos.calculations.create(calculation(company, "p1", newId(), 1, { inputs: { volume: 1e300 } }))).rejects.toBeInstanceOf(
        Invalid,
      );
      await s.settled();
      expect(await repos.calculations.listActiveByCompany(company)).toEqual([]);
    });
  });
}
