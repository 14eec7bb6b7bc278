// D32: approval is atomic with respect to writes (the deep tier). 20 rounds: four staff users save
// their calculation of the year over and over while one of them sends the year to review and a
// reviewer approves it at once. In every round the approved snapshot equals the year's stored data
// (each calculation's version and volume, and the total), every save answered 200 is in it, and no
// save of that year is answered 200 after the approval answered; the saves after the freeze are
// refused with 409. Then the reviewer reopens the year for the next round.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

const ROUNDS = 20;
const WRITERS = 4;
const YEAR = 2024;

let h: Harness;
let writers: string[] = [];
let reviewer: string;
const calculations: Array<{ id: string; version: number }> = [];

type Line = { id: string; version: number; inputs: { volume: number } };
type Snapshot = { version: number; inventory: { total_t_co2e: number; calculations: Line[] } };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const reviewVersion = async () =>
  (await json<{ review: { version: number } }>(await h.request(`/api/v1/inventory/?year=${YEAR}`, { token: reviewer }), 200)).review
    .version;
const step = async (token: string, action: string, extra: Record<string, unknown> = {}) =>
  h.request(`/api/v1/inventory/${YEAR}/review/`, { method: "POST", token, json: { action, version: await reviewVersion(), ...extra } });

async function signedIn(companyId: string, email: string, role?: "reviewer") {
  await createUser(h.deps, { companyId, email, password: "race-password", ...(role ? { role } : {}) });
  return ((await (await signIn(h, email, "race-password")).json()) as { access: string }).access;
}

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Гонка»");
  writers = [a.token];
  for (let i = 1; i < WRITERS; i++) writers.push(await signedIn(a.companyId, `writer${i}@race.example`));
  reviewer = await signedIn(a.companyId, "reviewer@race.example", "reviewer");
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: writers[0],
      json: { name: "Гонка 2024", start_date: "2024-01-01", end_date: "2024-12-31" },
    }),
    201,
  );
  // A quarter each: four sources of the year, none counted twice (D19).
  const quarters = [
    ["2024-01-01", "2024-03-31"],
    ["2024-04-01", "2024-06-30"],
    ["2024-07-01", "2024-09-30"],
    ["2024-10-01", "2024-12-31"],
  ];
  for (let i = 0; i < WRITERS; i++) {
    calculations.push(
      await json(
        await h.request("/api/v1/torch_ch4/", {
          method: "POST",
          token: writers[i],
          json: {
            name: `Факел ${i + 1}`,
            project: project.id,
            volume: 100,
            koef_transform: 0.67,
            inventory_role: "primary",
            period: { from: quarters[i][0], to: quarters[i][1] },
          },
        }),
        201,
      ),
    );
  }
}, 120_000);
afterAll(() => h?.close());

describe("approval while four writers save (D32)", () => {
  it(`in each of ${ROUNDS} rounds freezes exactly what was saved, and no save is answered after it`, { timeout: 900_000 }, async () => {
    let refusedAfterFreeze = 0;
    let savedInTime = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      let frozen = false;
      // Per writer: the versions answered 200, and when each was received.
      const saved: Array<Array<{ version: number; volume: number; at: number }>> = writers.map(() => []);
      const writer = async (i: number) => {
        // Each keeps saving until refused twice once the year is frozen.
        let refusals = 0;
        for (let n = 1; refusals < 2; n++) {
          const volume = round * 1000 + n;
          const res = await h.request(`/api/v1/torch_ch4/${calculations[i].id}/`, {
            method: "PATCH",
            token: writers[i],
            json: { volume, version: calculations[i].version },
          });
          if (res.status === 200) {
            const body = (await res.json()) as { version: number };
            calculations[i].version = body.version;
            saved[i].push({ version: body.version, volume, at: performance.now() });
          } else {
            expect(res.status, await res.clone().text()).toBe(409);
            if (frozen) refusals += 1;
            if (!frozen && n > 2000) throw new Error("the year was never frozen");
          }
        }
      };
      const approval = async () => {
        // Let the writers get going: the freeze lands in the middle of their saves.
        await new Promise((resolve) => setTimeout(resolve, 20 + ((round * 37) % 60)));
        await json(await step(writers[round % WRITERS], "send_to_review"), 200);
        frozen = true;
        const approved = await step(reviewer, "approve");
        const answeredAt = performance.now();
        const body = await json<{ snapshot: { version: number } }>(approved, 200);
        return { answeredAt, version: body.snapshot.version };
      };
      const [{ answeredAt, version }] = await Promise.all([approval(), ...writers.map((_, i) => writer(i))]);
      expect(version).toBe(round);

      const snapshot = await json<Snapshot>(await h.request(`/api/v1/inventory/${YEAR}/versions/${version}/`, { token: reviewer }), 200);
      const lines = new Map(snapshot.inventory.calculations.map((line) => [line.id, line]));
      for (const [i, calculation] of calculations.entries()) {
        const stored = await json<{ version: number; volume: number }>(
          await h.request(`/api/v1/torch_ch4/${calculation.id}/`, { token: reviewer }),
          200,
        );
        const line = lines.get(calculation.id);
        // The snapshot equals the stored data...
        expect({ round, version: line?.version, volume: line?.inputs.volume }).toEqual({
          round,
          version: stored.version,
          volume: stored.volume,
        });
        // ...which is the last save answered: every save answered is in it, none after it.
        const last = saved[i].at(-1);
        if (last)
          expect({ round, version: last.version, volume: last.volume }).toEqual({ round, version: stored.version, volume: stored.volume });
        for (const save of saved[i]) expect(save.at, `round ${round}: a save answered after the approval`).toBeLessThan(answeredAt);
        savedInTime += saved[i].length;
      }
      const live = await json<{ total_t_co2e: number }>(await h.request(`/api/v1/inventory/?year=${YEAR}`, { token: reviewer }), 200);
      expect(snapshot.inventory.total_t_co2e).toBe(live.total_t_co2e);
      refusedAfterFreeze += WRITERS * 2;

      expect((await step(reviewer, "reopen", { reason: `раунд ${round}` })).status).toBe(200);
    }
    // The rounds raced: saves were answered in every round, and refused once frozen.
    expect(savedInTime).toBeGreaterThan(ROUNDS * WRITERS);
    expect(refusedAfterFreeze).toBe(ROUNDS * WRITERS * 2);
  });
});
