// Files a calculation was saved with (uploads/, forecasts/) that no calculation refers to any more
// (a process that died between writing the file and the item) are deleted once a day old; every
// file a calculation names stays, whatever its age. The local server runs the sweep with the
// abandoned uploads' one (local/upload-sweep.ts); AWS runs it nightly (lambda/orphan-sweep.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshHarness, type Harness } from "../support/harness";
import { calculationForm, validInputs } from "../support/tenant-objects";
import { sweepOrphanBlobs } from "@server/domain/files/orphan-blobs";

const DAY = 24 * 60 * 60 * 1000;
let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;

beforeAll(async () => {
  // A table of its own: the sweep reads every stored file, any company's.
  h = await createFreshHarness();
  user = await h.signedInUser();
});
afterAll(() => h.close());

const later = (ms: number) => ({ ...h.deps, clock: { now: () => new Date(Date.now() + ms) } });

describe("the orphan sweep", () => {
  it("deletes day-old files no calculation names and keeps every file a calculation names", async () => {
    const project = await h.newProject(user.token, "Лава 3");
    const { form, file } = validInputs("regres_methane");
    const res = await h.request("/api/v1/regres_methane/", {
      method: "POST",
      token: user.token,
      body: calculationForm({ ...form, name: "Прогноз из файла", project: project.id }, file),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const named = [...(await h.deps.repos.calculations.blobKeysOfCompany(user.companyId))];
    expect(named.some((key) => key.startsWith("uploads/"))).toBe(true);
    expect(named.some((key) => key.startsWith("forecasts/"))).toBe(true);

    const orphans = [
      `forecasts/${user.companyId}/${id}/0199a0a0-0000-7000-8000-0000000000f1.json`,
      `uploads/${user.companyId}/0199a0a0-0000-7000-8000-0000000000f2/0199a0a0-0000-7000-8000-0000000000f3.csv`,
      `uploads/0199a0a0-0000-7000-8000-0000000000f4/0199a0a0-0000-7000-8000-0000000000f5/x.csv`,
    ];
    for (const key of orphans) await h.deps.blobs.put(key, new Uint8Array([1, 2, 3]), "text/csv");

    // Younger than a day: nothing is touched.
    expect(await sweepOrphanBlobs(h.deps)).toEqual([]);
    expect(await sweepOrphanBlobs(later(DAY / 2))).toEqual([]);

    expect((await sweepOrphanBlobs(later(2 * DAY))).sort()).toEqual([...orphans].sort());
    for (const key of orphans) expect(await h.deps.blobs.get(key)).toBeUndefined();
    for (const key of named) expect(await h.deps.blobs.get(key)).toBeDefined();
    const view = await h.request(`/api/v1/regres_methane/${id}/`, { token: user.token });
    expect(view.status).toBe(200);
    const downloaded = await h.request(`/api/v1/regres_methane/${id}/file/`, { token: user.token });
    expect(downloaded.status).toBe(200);
  });

  it("keeps the files of an archived calculation while its item is kept", async () => {
    const project = await h.newProject(user.token, "Лава 4");
    const { form, file } = validInputs("sensitivity");
    const res = await h.request("/api/v1/sensitivity/", {
      method: "POST",
      token: user.token,
      body: calculationForm({ ...form, name: "Чувствительность", project: project.id }, file),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const before = await h.deps.repos.calculations.blobKeysOfCompany(user.companyId);
    const archived = await h.request(`/api/v1/sensitivity/${id}/`, {
      method: "PATCH",
      token: user.token,
      json: { is_deleted: true, version: 1 },
    });
    expect(archived.status).toBe(200);
    expect(await sweepOrphanBlobs(later(2 * DAY))).toEqual([]);
    for (const key of before) expect(await h.deps.blobs.get(key)).toBeDefined();
  });
});
