// Each user's requests paced on the local server (docs/security.md, «A user's burst paced»;
// functions/src/http/request-pace.ts), on a clock the test moves: a user past their burst waits for
// the next start in their own line, served in the order they came, while another company's user
// and another user of the same company are answered at once, and a token whose signature fails
// never stands in anyone's line. The order is what is checked, not a time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import { requestPace } from "@server/http/request-pace";
import { accessToken } from "../support/server";
import { manualClock } from "../support/manual-clock";

const BURST = 4;
const PER_SECOND = 2;
const clock = manualClock();
let server: LocalServer;
let company: string;
let staff: { id: string; token: string };
let colleagueToken: string;
let otherToken: string;

async function userOf(companyId: string, email: string): Promise<{ id: string; token: string }> {
  const user = await createUser(server.deps, {
    ...{ companyId, email, password: "user-password" },
    ...{ first_name: "Иван", last_name: "Петров", role: "staff" },
  });
  return { id: user.id, token: await accessToken(server.url, { email, password: "user-password" }) };
}

beforeAll(async () => {
  server = await startLocalServer({ port: 0, pace: requestPace({ burst: BURST, perSecond: PER_SECOND }, clock) });
  company = (await createCompany(server.deps, { name: "Шахта Очередная" })).id;
  staff = await userOf(company, "staff@example.com");
  colleagueToken = (await userOf(company, "colleague@example.com")).token;
  otherToken = (await userOf((await createCompany(server.deps, { name: "Другая организация" })).id, "other@example.com")).token;
}, 60_000);

afterAll(() => server?.close());

/** get_me's status, and whether it has answered yet. */
function getMe(token: string): { answered: Promise<number>; done: () => boolean } {
  let done = false;
  const answered = fetch(`${server.url}/api/v1/users/get_me/`, { headers: { Authorization: `Bearer ${token}` } }).then(async (res) => {
    await res.arrayBuffer();
    done = true;
    return res.status;
  });
  return { answered, done: () => done };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`never came: ${what}`);
}

describe("a user's requests paced", () => {
  it("past the burst wait in the order they came, behind none of another user's", async () => {
    const who = `${company}/${staff.id}`;
    // The burst at once (the clock stands still: nothing comes back to the user meanwhile).
    const burst = Array.from({ length: BURST }, () => getMe(staff.token));
    expect(await Promise.all(burst.map((b) => b.answered))).toEqual(burst.map(() => 200));

    // Three more of the same user wait, in the order they came.
    const queued: ReturnType<typeof getMe>[] = [];
    for (let n = 1; n <= 3; n++) {
      queued.push(getMe(staff.token));
      await until(`${n} waiting`, () => server.pace.waiting(who) === n);
    }
    // Another company's user and a colleague are answered while they wait, and a forged token in
    // the user's name is refused by its signature, before any line.
    expect(await getMe(otherToken).answered).toBe(200);
    expect(await getMe(colleagueToken).answered).toBe(200);
    const [head, claims] = staff.token.split(".");
    expect(await getMe(`${head}.${claims}.${"A".repeat(43)}`).answered).toBe(401);
    expect(queued.map((q) => q.done())).toEqual([false, false, false]);
    expect(server.pace.waiting(who)).toBe(3);

    // Each start the pace gives goes to the oldest in line.
    for (let n = 0; n < 3; n++) {
      clock.advance(1_000 / PER_SECOND);
      expect(await queued[n].answered).toBe(200);
      expect(queued.map((q) => q.done())).toEqual(queued.map((_, i) => i <= n));
      expect(server.pace.waiting(who)).toBe(2 - n);
    }
  }, 60_000);
});
