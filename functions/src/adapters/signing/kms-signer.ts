// the AWS host's version signer, a KMS asymmetric key (RSA_2048, SIGN_VERIFY; the CDK
// stack makes it and gives the API function kms:Sign and kms:GetPublicKey on it). KMS signs the
// snapshot's SHA-256 as a DIGEST with RSASSA_PKCS1_V1_5_SHA_256, the private key never leaving it.
// VERSION_SIGNING_KEY_IDS lists the keys that signed, the one in force last: a rotation adds a key
// and keeps the old ones listed, so the versions they signed stay verifiable.
import { DescribeKeyCommand, GetPublicKeyCommand, KMSClient, SignCommand } from "@aws-sdk/client-kms";
import type { SigningKey, VersionSigner } from "../../ports";
import { checkedDigest, signingKeyOf } from "./rsa-signer";

export function kmsSigner(client: KMSClient, keyIds: readonly string[]): VersionSigner {
  const current = keyIds.at(-1);
  if (!current) throw new Error("VERSION_SIGNING_KEY_IDS names no KMS key");
  let listed: Promise<SigningKey[]> | undefined;
  const keys = () => {
    // The public keys never change: read once per instance (a failed read is tried again).
    listed ??= readKeys(client, keyIds).catch((error: unknown) => {
      listed = undefined;
      throw error;
    });
    return listed;
  };
  return {
    async sign(sha256Hex) {
      const [signed, all] = await Promise.all([
        client.send(
          new SignCommand({
            KeyId: current,
            Message: checkedDigest(sha256Hex),
            MessageType: "DIGEST",
            SigningAlgorithm: "RSASSA_PKCS1_V1_5_SHA_256",
          }),
        ),
        keys(),
      ]);
      if (!signed.Signature) throw new Error(`KMS key ${current} returned no signature`);
      const key = all.at(-1) as SigningKey;
      return {
        kid: key.kid,
        alg: "RS256",
        fingerprint_sha256: key.fingerprint_sha256,
        value: Buffer.from(signed.Signature).toString("base64"),
      };
    },
    keys,
  };
}

async function readKeys(client: KMSClient, keyIds: readonly string[]): Promise<SigningKey[]> {
  const read = await Promise.all(
    keyIds.map(async (KeyId) => {
      const [publicKey, described] = await Promise.all([
        client.send(new GetPublicKeyCommand({ KeyId })),
        client.send(new DescribeKeyCommand({ KeyId })),
      ]);
      if (!publicKey.PublicKey) throw new Error(`KMS key ${KeyId} has no public key`);
      return { der: publicKey.PublicKey, from: (described.KeyMetadata?.CreationDate ?? new Date(0)).toISOString() };
    }),
  );
  // A key is in force from its creation until the next one's.
  return read.map((k, i) => signingKeyOf(k.der, k.from, read[i + 1]?.from));
}

export { KMSClient };
