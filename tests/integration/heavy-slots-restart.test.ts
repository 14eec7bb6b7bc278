// the heavy-work slots a stop leaves taken are given back by the next start. After a
// stop under load a user's slots stayed taken across two restarts for 13 minutes (429 «Повторите через
// 30 с» throughout): the requests that held them never gave them back, and they counted until their
// window lapsed. Here a server on a data folder holds both of a user's slots when it stops; the next
// server on the folder gives them back before it serves a request (local/slot-ledger.ts), so the user
// gets a slot at once — where, before, it was refused.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createCompany, createUser } from "@server/domain/company/users";
import { HEAVY_PER_USER, takeHeavySlot } from "@server/domain/heavy-work";
import { startLocalServer } from "@server/local/server";
import { HELD_FILE } from "@server/local/slot-ledger";

const dataDir = mkdtempSync(join(tmpdir(), "heavy-slots-restart-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("gives back at start the slots the last server's requests held when it stopped", async () => {
  const first = await startLocalServer({ dataDir, port: 0 });
  const company = await createCompany(first.deps, { name: "Шахта «Перезапуск»" });
  const user = await createUser(first.deps, {
    companyId: company.id,
    email: "slots@heavy-slots-restart.example",
    password: "heavy-slots-2026",
  });
  const actor = { id: user.id, company: company.id };
  // Both of the user's slots taken by requests still running when the server stops.
  const held = [];
  for (let i = 0; i < HEAVY_PER_USER; i++) held.push(await takeHeavySlot(first.deps, actor));
  await expect(takeHeavySlot(first.deps, actor)).rejects.toThrow(/Слишком много тяжелых операций/);
  await expect
    .poll(() => (existsSync(join(dataDir, HELD_FILE)) ? JSON.parse(readFileSync(join(dataDir, HELD_FILE), "utf8")).length : 0))
    .toBe(2 * HEAVY_PER_USER);
  await first.close();

  const second = await startLocalServer({ dataDir, port: 0 });
  try {
    // Given back at start: the user has all its slots again, and the ledger starts empty.
    const again = [];
    for (let i = 0; i < HEAVY_PER_USER; i++) again.push(await takeHeavySlot(second.deps, actor));
    for (const slot of again) await slot();
    await expect.poll(() => JSON.parse(readFileSync(join(dataDir, HELD_FILE), "utf8"))).toEqual([]);
  } finally {
    await second.close();
  }
}, 120_000);
