// a version's signature is RSASSA-PKCS1-v1_5 with SHA-256 over the snapshot's bytes,
// made from their SHA-256 alone (as KMS signs a DIGEST): node:crypto's own verify of the bytes
// accepts it. The local key lives in the data folder and rotates like the token secret: the old
// public key stays listed with its end, so what it signed stays verifiable.
import { createHash, verify } from "node:crypto";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localVersionSigner, rotateLocalSigningKey } from "../../local/storage";
import { ephemeralSigner } from "./rsa-signer";

const snapshot = Buffer.from('{"approved_by":"reviewer@example.com","version":1}', "utf8");
const digest = createHash("sha256").update(snapshot).digest("hex");

describe("the version signer", () => {
  it("signs a snapshot's SHA-256 so that RSASSA-PKCS1-v1_5/SHA-256 over the snapshot's bytes verifies, by the key it lists", async () => {
    const signer = ephemeralSigner();
    const signature = await signer.sign(digest);
    const [key] = await signer.keys();
    expect(signature).toMatchObject({ kid: key.kid, alg: "RS256", fingerprint_sha256: key.fingerprint_sha256 });
    expect(key.kid).toBe(key.fingerprint_sha256.slice(0, 16));
    expect(key.pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(verify("sha256", snapshot, key.pem, Buffer.from(signature.value, "base64"))).toBe(true);
    expect(verify("sha256", Buffer.from("{}"), key.pem, Buffer.from(signature.value, "base64"))).toBe(false);
    await expect(signer.sign("not a hash")).rejects.toThrow(/64 hex/);
  });

  it("keeps the local key in the data folder (0600) and, rotated, lists the old public key with its end", async () => {
    const dir = mkdtempSync(join(tmpdir(), "signing-"));
    const first = localVersionSigner(dir, new Date("2026-01-01T00:00:00Z"));
    expect(statSync(join(dir, "version-signing-key.pem")).mode & 0o777).toBe(0o600);
    const old = await first.sign(digest);
    // A restart reads the same key.
    expect((await localVersionSigner(dir).sign(digest)).kid).toBe(old.kid);
    const rotated = rotateLocalSigningKey(dir, new Date("2026-06-01T00:00:00Z"));
    const second = localVersionSigner(dir);
    const keys = await second.keys();
    expect(keys.map((k) => [k.kid, k.from, k.to])).toEqual([
      [old.kid, "2026-01-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z"],
      [rotated.kid, "2026-06-01T00:00:00.000Z", undefined],
    ]);
    const fresh = await second.sign(digest);
    expect(fresh.kid).toBe(rotated.kid);
    expect(verify("sha256", snapshot, keys[0].pem, Buffer.from(old.value, "base64"))).toBe(true);
    expect(verify("sha256", snapshot, keys[1].pem, Buffer.from(fresh.value, "base64"))).toBe(true);
  });
});
