// the AWS host signs an approved version's snapshot hash with the KMS key the stack makes
// (aws-sdk-client-mock stands in for KMS, which here signs with a key of the test's own): Sign is
// asked for the DIGEST with RSASSA_PKCS1_V1_5_SHA_256, the signature verifies as RSASSA-PKCS1-v1_5
// over the snapshot's bytes against the public key GetPublicKey gives, and the keys listed are
// each KMS key of VERSION_SIGNING_KEY_IDS, in force from its creation until the next one's.
import { createHash, createPrivateKey, generateKeyPairSync, privateEncrypt, constants, verify } from "node:crypto";
import { DescribeKeyCommand, GetPublicKeyCommand, KMSClient, SignCommand } from "@aws-sdk/client-kms";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, describe, expect, it } from "vitest";
import { kmsSigner } from "@server/adapters/signing/kms-signer";
import { SHA256_DIGEST_INFO } from "@server/adapters/signing/rsa-signer";

const kms = mockClient(KMSClient);
afterAll(() => kms.restore());

const pair = () => generateKeyPairSync("rsa", { modulusLength: 2048 });
const old = pair();
const current = pair();
const der = (key: ReturnType<typeof pair>["publicKey"]) => new Uint8Array(key.export({ format: "der", type: "spki" }));

describe("the KMS version signer", () => {
  it("signs the snapshot's SHA-256 as a digest with the key in force, verifiable over the snapshot's bytes", async () => {
    kms.reset();
    kms.on(GetPublicKeyCommand, { KeyId: "key-old" }).resolves({ PublicKey: der(old.publicKey) });
    kms.on(GetPublicKeyCommand, { KeyId: "key-new" }).resolves({ PublicKey: der(current.publicKey) });
    kms
      .on(DescribeKeyCommand, { KeyId: "key-old" })
      .resolves({ KeyMetadata: { KeyId: "key-old", CreationDate: new Date("2026-01-01T00:00:00Z") } });
    kms
      .on(DescribeKeyCommand, { KeyId: "key-new" })
      .resolves({ KeyMetadata: { KeyId: "key-new", CreationDate: new Date("2026-06-01T00:00:00Z") } });
    kms.on(SignCommand).callsFake((input: { Message: Uint8Array }) => ({
      Signature: new Uint8Array(
        privateEncrypt(
          { key: createPrivateKey(current.privateKey.export({ format: "pem", type: "pkcs8" })), padding: constants.RSA_PKCS1_PADDING },
          Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(input.Message)]),
        ),
      ),
    }));
    const signer = kmsSigner(new KMSClient({ region: "eu-central-1" }), ["key-old", "key-new"]);
    const snapshot = Buffer.from('{"approved_by":"reviewer@example.com"}');
    const digest = createHash("sha256").update(snapshot).digest("hex");
    const signature = await signer.sign(digest);

    const [sign] = kms.commandCalls(SignCommand);
    expect(sign.args[0].input).toEqual({
      KeyId: "key-new",
      Message: Buffer.from(digest, "hex"),
      MessageType: "DIGEST",
      SigningAlgorithm: "RSASSA_PKCS1_V1_5_SHA_256",
    });
    const keys = await signer.keys();
    expect(keys.map((k) => [k.from, k.to])).toEqual([
      ["2026-01-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z"],
      ["2026-06-01T00:00:00.000Z", undefined],
    ]);
    expect(signature).toMatchObject({ alg: "RS256", kid: keys[1].kid, fingerprint_sha256: keys[1].fingerprint_sha256 });
    expect(keys[1].fingerprint_sha256).toBe(createHash("sha256").update(der(current.publicKey)).digest("hex"));
    expect(verify("sha256", snapshot, keys[1].pem, Buffer.from(signature.value, "base64"))).toBe(true);
    // The public keys are read once per instance.
    await signer.keys();
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(2);
  });
});
