import { describe, expect, it } from "vitest";
import { hostRuntime } from "../../events/runtime";
import { dummyPasswordHash, hashPassword, PASSWORD_COST, verifyPassword } from "./passwords";

// A hash at the production cost is ~50 ms of CPU, but seconds on a machine busy with other tests.
describe("password hashes", { timeout: 30_000 }, () => {
  it("are made at scrypt N=16384, r=8, p=1 unless a cost is given", async () => {
    expect(PASSWORD_COST).toBe(16384);
    const stored = await hashPassword("correct-horse");
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword("correct-horse", stored)).toBe(true);
  });

  it("store the cost they were made at, and a check reads it from the hash", async () => {
    const cheap = await hashPassword("correct-horse", 16);
    expect(cheap).toMatch(/^scrypt\$16\$8\$1\$/);
    expect(await verifyPassword("correct-horse", cheap)).toBe(true);
    expect(await verifyPassword("wrong-horse", cheap)).toBe(false);
    expect(await verifyPassword("correct-horse", cheap.replace("scrypt$16$", "scrypt$32$"))).toBe(false);
  });

  it("check an unknown e-mail against a dummy hash at the cost new hashes are made at", async () => {
    const runtime = hostRuntime({ subscribers: [], deps: () => ({}) });
    expect(await dummyPasswordHash(runtime)).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await dummyPasswordHash(runtime, 16)).toMatch(/^scrypt\$16\$8\$1\$/);
    expect(await dummyPasswordHash(runtime, 16)).toBe(await dummyPasswordHash(runtime, 16));
  });
});
