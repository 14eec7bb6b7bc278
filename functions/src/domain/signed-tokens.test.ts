// The short signatures of ids a client holds (an export job's) follow the secret's rotation as the
// tokens do: accepted under the previous secret until its overlap ends, never under another. A token
// checked once is answered again without its HMAC only for the same checks, secret and time.
import { hostRuntime } from "../events/runtime";
import { randomBytes } from "node:crypto";
import { errors } from "jose";
import { describe, expect, it, vi } from "vitest";
import { partsSigned, signJwt, signParts, verifyJwt, type SigningKeys } from "./signed-tokens";

const parts = ["export-job", "company-1", "3f1c0c4e-5a0b-4c55-9a6e-1f2d3c4b5a69"];
const now = new Date("2026-11-25T10:00:00Z");

describe("signed parts", () => {
  it("accepts its own signature and refuses another company's or a changed one", () => {
    const keys: SigningKeys = { jwtSecret: randomBytes(32) };
    const signature = signParts(keys, parts);
    expect(signature).toHaveLength(22);
    expect(partsSigned(keys, parts, signature, now)).toBe(true);
    expect(partsSigned(keys, ["export-job", "company-2", parts[2]], signature, now)).toBe(false);
    expect(partsSigned(keys, parts, signature === "B".repeat(22) ? "C".repeat(22) : "B".repeat(22), now)).toBe(false);
    expect(partsSigned(keys, parts, signature.slice(0, 10), now)).toBe(false);
  });

  it("keeps a signature made before a rotation for the overlap and no longer", () => {
    const before: SigningKeys = { jwtSecret: randomBytes(32) };
    const signature = signParts(before, parts);
    const rotated: SigningKeys = {
      jwtSecret: randomBytes(32),
      previousJwtSecret: { secret: before.jwtSecret, validUntil: new Date("2026-11-25T11:00:00Z") },
    };
    expect(partsSigned(rotated, parts, signature, now)).toBe(true);
    expect(partsSigned(rotated, parts, signature, new Date("2026-11-25T11:00:00Z"))).toBe(false);
    expect(partsSigned({ jwtSecret: rotated.jwtSecret }, parts, signature, now)).toBe(false);
    // New ids are signed with the new secret only.
    expect(signParts(rotated, parts)).not.toBe(signature);
  });
});

describe("a token checked again", () => {
  const content = (expiresAt: number) => ({
    claims: { typ: "access" },
    subject: "user-1",
    issuedAt: Math.floor(now.getTime() / 1000),
    expiresAt,
  });
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  it("is answered without its HMAC for the same checks, inside its time, by the same secret", async () => {
    const keys: SigningKeys = { jwtSecret: randomBytes(32) };
    const token = await signJwt(keys, content(Math.floor(now.getTime() / 1000) + 60));
    const verify = vi.spyOn(crypto.subtle, "verify");
    // The host keeps the checked tokens (its runtime).
    const runtime = hostRuntime({ subscribers: [], deps: () => ({}) });
    const first = await verifyJwt(keys, token, { now, requiredClaims: ["sub", "exp"] }, runtime);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(await verifyJwt(keys, token, { now: at(30), requiredClaims: ["sub", "exp"] }, runtime)).toEqual(first);
    expect(verify).toHaveBeenCalledTimes(1);
    // Its time over, another audience asked, another secret: checked again, and refused.
    await expect(verifyJwt(keys, token, { now: at(60), requiredClaims: ["sub", "exp"] }, runtime)).rejects.toBeInstanceOf(
      errors.JWTExpired,
    );
    await expect(verifyJwt(keys, token, { now, audience: "media", requiredClaims: ["sub"] }, runtime)).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed,
    );
    await expect(verifyJwt({ jwtSecret: randomBytes(32) }, token, { now, requiredClaims: ["sub"] }, runtime)).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );
    expect(verify).toHaveBeenCalledTimes(4);
    vi.restoreAllMocks();
  });
});
