// Every way a bearer token can be wrong is refused with 401 and a {"detail"} body.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, base64url, decodeJwt, exportJWK, generateKeyPair } from "jose";
import { createHarness, type Harness } from "../support/harness";
import { setUserActive } from "@server/domain/company/users";

let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;

beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser();
});
afterAll(() => h.close());

const secret = () => h.deps.config.jwtSecret;
const claims = () => ({ typ: "access", cid: user.companyId });

function unsigned(header: object, payload: object): string {
  const part = (o: object) => base64url.encode(new TextEncoder().encode(JSON.stringify(o)));
  return `${part(header)}.${part(payload)}.`;
}

async function expectRejected(token: string) {
  const res = await h.request("/api/v1/users/get_me/", { token });
  expect(res.status).toBe(401);
  const body = (await res.json()) as { detail: string };
  expect(body.detail).toEqual(expect.any(String));
  expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|node_modules|JWS|JWT[A-Z]/);
}

describe("access tokens", () => {
  it("accepts the real one", async () => {
    expect((await h.request("/api/v1/users/get_me/", { token: user.token })).status).toBe(200);
  });

  it("refuses alg none", async () => {
    const payload = decodeJwt(user.token);
    await expectRejected(unsigned({ alg: "none", typ: "JWT" }, payload));
  });

  it("refuses another HMAC algorithm with the same secret", async () => {
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS512" })
      .setSubject(user.userId)
      .setIssuer("fugitive-emissions")
      .setIssuedAt()
      .setNotBefore("0s")
      .setExpirationTime("10m")
      .sign(secret());
    await expectRejected(token);
  });

  it("refuses an RS256 token carrying its own key", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: "RS256", jwk: await exportJWK(publicKey) })
      .setSubject(user.userId)
      .setIssuer("fugitive-emissions")
      .setIssuedAt()
      .setNotBefore("0s")
      .setExpirationTime("10m")
      .sign(privateKey);
    await expectRejected(token);
  });

  it("refuses a changed payload (bad signature)", async () => {
    const [header, , signature] = user.token.split(".");
    const forged = base64url.encode(new TextEncoder().encode(JSON.stringify({ ...decodeJwt(user.token), cid: "another-company" })));
    await expectRejected(`${header}.${forged}.${signature}`);
  });

  it("refuses an expired token and one not valid yet", async () => {
    const sign = (iat: number, nbf: number, exp: number) =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.userId)
        .setIssuer("fugitive-emissions")
        .setIssuedAt(iat)
        .setNotBefore(nbf)
        .setExpirationTime(exp)
        .sign(secret());
    const now = Math.floor(Date.now() / 1000);
    await expectRejected(await sign(now - 3600, now - 3600, now - 60));
    await expectRejected(await sign(now, now + 600, now + 1200));
  });

  it("refuses a token without an expiry and one of another issuer", async () => {
    const noExp = await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.userId)
      .setIssuer("fugitive-emissions")
      .setIssuedAt()
      .setNotBefore("0s")
      .sign(secret());
    await expectRejected(noExp);
    const otherIssuer = await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.userId)
      .setIssuer("someone-else")
      .setIssuedAt()
      .setNotBefore("0s")
      .setExpirationTime("10m")
      .sign(secret());
    await expectRejected(otherIssuer);
  });

  it("refuses a refresh token used as an access token", async () => {
    await expectRejected(user.refresh);
  });

  it("refuses the token of a deactivated user", async () => {
    const other = await h.signedInUser();
    await setUserActive(h.deps, other.email, false);
    await expectRejected(other.token);
  });

  it("has the documented lifetimes: 15 minutes access, 24 hours refresh", () => {
    const access = decodeJwt(user.token);
    const refresh = decodeJwt(user.refresh);
    expect(access.exp! - access.iat!).toBe(15 * 60);
    expect(refresh.exp! - refresh.iat!).toBe(24 * 60 * 60);
  });

  it("refuses malformed Authorization headers", async () => {
    for (const header of ["Bearer", "Basic dXNlcjpwYXNz", `Token ${user.token}`, `Bearer ${user.token} extra`]) {
      const res = await h.request("/api/v1/users/get_me/", { headers: { Authorization: header } });
      expect(res.status, header).toBe(401);
    }
  });
});
