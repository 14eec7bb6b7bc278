// the security review's R14: a server open to the network (HOST=0.0.0.0) refuses to start while a user's password
// is the demo login's (local/network.ts), so a user who chose it stopped the server for everyone. No
// one may choose it, nor a password from a short list of leaked ones, wherever a password is set:
// one's own on Профиль, an administrator's new user and reset, `npm run admin -- set-password` and
// `create-user`. Each is refused with the reason in Russian, and nothing is changed; the first
// start's demo login keeps the password the README prints (the loopback's developer start).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownPasswordProblem, KNOWN_PASSWORDS } from "@server/domain/company/passwords";
import { createHarness, type Harness } from "../support/harness";
import { signedInAdmin, signIn, type SignedIn } from "../support/admin";
import { runAdmin } from "../support/admin-command";
import { DEMO } from "../support/server";
import { startLocalServer } from "@server/local/server";
import { fieldName } from "@server/contract/field-names";

const DEMO_REASON = "это пароль демо-входа, который README показывает всем; сервер, открытый в сеть, с ним не запустится — выберите другой";
const LEAKED_REASON = "этот пароль есть в списках утекших паролей и подбирается первым — выберите другой";

let h: Harness;
let admin: SignedIn;
let me: { token: string; email: string; companyId: string; userId: string };
const password = "correct-horse";
const root = mkdtempSync(join(tmpdir(), "known-passwords-"));

beforeAll(async () => {
  h = await createHarness();
  admin = await signedInAdmin(h, "Оператор платформы");
  me = await h.signedInUser("ООО «Пароли»");
});
afterAll(async () => {
  await h.close();
  rmSync(root, { recursive: true, force: true });
});

const call = (method: string, path: string, token: string, json?: unknown) => h.request(`/api/v1/${path}`, { method, token, json });

async function refused(res: Response): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(400);
  return ((await res.json()) as { detail: string }).detail;
}

describe("passwords everyone knows (the security review's R14)", () => {
  it("names the demo login's and the leaked ones, whatever their case and the spaces around them", () => {
    expect(knownPasswordProblem("demo-password")).toBe(DEMO_REASON);
    expect(knownPasswordProblem(" Demo-Password ")).toBe(DEMO_REASON);
    for (const leaked of KNOWN_PASSWORDS.slice(1)) expect(knownPasswordProblem(leaked.toUpperCase()), leaked).toBe(LEAKED_REASON);
    expect(knownPasswordProblem("correct-horse-battery")).toBeUndefined();
  });

  it("one's own new password: refused with the reason, the old one still signs in", async () => {
    const change = (next: string) => call("POST", "users/me/password/", me.token, { current_password: password, new_password: next });
    expect(await refused(await change("demo-password"))).toBe(`${fieldName("new_password")}: ${DEMO_REASON}`);
    expect(await refused(await change("qwerty123"))).toBe(`${fieldName("new_password")}: ${LEAKED_REASON}`);
    expect((await signIn(h, me.email, password)).status).toBe(200);
    expect((await call("GET", "users/get_me/", me.token)).status).toBe(200);
  });

  it("an administrator's new user and reset: refused with the reason, nothing written", async () => {
    const users = `admin/companies/${me.companyId}/users/`;
    expect(await refused(await call("POST", users, admin.token, { email: "miner@parol.example", password: "demo-password" }))).toBe(
      `${fieldName("password")}: ${DEMO_REASON}`,
    );
    const list = (await (await call("GET", users, admin.token)).json()) as { results: Array<{ email: string }> };
    expect(list.results.map((u) => u.email)).not.toContain("miner@parol.example");
    expect(await refused(await call("POST", `${users}${me.userId}/reset_password/`, admin.token, { password: "12345678" }))).toBe(
      `${fieldName("password")}: ${LEAKED_REASON}`,
    );
    expect((await signIn(h, me.email, password)).status).toBe(200);
  });

  it("npm run admin -- set-password and create-user refuse it (exit 1, the reason said); the first start's demo login keeps the README's", async () => {
    const dataDir = join(root, "cli");
    const server = await startLocalServer({ dataDir, port: 0, host: "127.0.0.1", demo: DEMO });
    await server.close();
    const set = await runAdmin(dataDir, ["set-password", "--email", DEMO.email, "--password", "demo-password"]);
    expect(set.status, set.stdout + set.stderr).not.toBe(0);
    expect(set.stdout + set.stderr).toContain(DEMO_REASON);
    const created = await runAdmin(dataDir, [
      "create-user",
      "--email",
      "second@example.com",
      "--password",
      "Password123",
      "--company",
      "ООО «Новая»",
      "--new-company",
    ]);
    expect(created.status, created.stdout + created.stderr).not.toBe(0);
    expect(created.stdout + created.stderr).toContain(LEAKED_REASON);
    const users = await runAdmin(dataDir, ["list-users"]);
    expect(users.stdout).not.toMatch(/second@example\.com|ООО «Новая»/);
  }, 90_000);
});
