import { describe, expect, it } from "vitest";
import { fakeJwt } from "../testing/fakes";
import { InvalidTokenError, isTokenValid, tokenExpiry } from "./tokens";

describe("tokenExpiry", () => {
  it("reads exp from the payload", () => {
    expect(tokenExpiry(fakeJwt({ exp: 1_900_000_000, sub: "u1" }))).toBe(1_900_000_000);
  });

  it("reads payloads that need base64url padding and non-ASCII claims", () => {
    expect(tokenExpiry(fakeJwt({ exp: 42, name: "Иван" }))).toBe(42);
  });

  it.each([["not-a-token"], ["a.b"], ["a.%%%.c"], [fakeJwt({ sub: "no exp" })], [fakeJwt({ exp: "soon" })]])(
    "raises an invalid-token error for %s",
    (token) => {
      expect(() => tokenExpiry(token)).toThrow(InvalidTokenError);
    },
  );
});

describe("isTokenValid", () => {
  const now = 1_700_000_000;

  it("accepts a token whose expiry is in the future, in seconds", () => {
    expect(isTokenValid(fakeJwt({ exp: now + 1 }), now)).toBe(true);
  });

  it("rejects a token expiring this very second or earlier", () => {
    expect(isTokenValid(fakeJwt({ exp: now }), now)).toBe(false);
    expect(isTokenValid(fakeJwt({ exp: now - 60 }), now)).toBe(false);
  });

  it("treats a token inside the safety margin as expired", () => {
    expect(isTokenValid(fakeJwt({ exp: now + 5 }), now, 10)).toBe(false);
  });

  it("rejects a missing or malformed token instead of throwing", () => {
    expect(isTokenValid(null, now)).toBe(false);
    expect(isTokenValid("garbage", now)).toBe(false);
  });
});
