// S3 over its real protocol: a local S3-protocol server (s3rver, the maintained fork) with the
// template's buckets and their CORS. It takes requests signed with the keys the rehearsal hands
// out (the front door has checked their signatures, sigv4.ts), serves ranges, tags and multipart
// uploads, and answers the browser's CORS preflight as the bucket's rules say. Its object events
// are turned into S3 notification records as AWS writes them (region, bucket ARN, URL-encoded key).
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { S3EventRecord } from "./aws-endpoint";
import { REGION } from "./template";

const require = createRequire(import.meta.url);

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  on(event: "event", listener: (event: { Records: S3EventRecord[] }) => void): void;
}
const S3rver = require("@20minutes/s3rver") as new (options: Record<string, unknown>) => S3rverInstance;
// The server's account registry: the access keys it accepts, each with its secret.
const { DUMMY_ACCOUNT } = require("@20minutes/s3rver/lib/models/account.js") as {
  DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
};

export interface S3Server {
  port: number;
  allowKey(accessKeyId: string, secretAccessKey: string): void;
  close(): Promise<void>;
}

/** The key as S3 notifications carry it: URL-encoded, spaces as "+". */
const notificationKey = (key: string) => encodeURIComponent(key).replace(/%20/g, "+").replace(/%2F/g, "/");

export async function startS3(buckets: { name: string; corsXml?: string }[], onEvent?: (record: S3EventRecord) => void): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), "rehearsal-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    // Path-style requests only, as the SDK sends them to an IP endpoint.
    vhostBuckets: false,
    // The front door has checked the signature as S3 does (sigv4.ts); s3rver's own check
    // canonicalizes unlike S3 and would refuse listings and presigned downloads S3 takes.
    allowMismatchedSignatures: true,
    configureBuckets: buckets.map((b) => ({ name: b.name, configs: b.corsXml ? [b.corsXml] : [] })),
  });
  server.on("event", (event) => {
    for (const record of event.Records) {
      const bucket = record.s3.bucket.name;
      onEvent?.({
        ...record,
        awsRegion: REGION,
        s3: {
          ...record.s3,
          bucket: { ...record.s3.bucket, arn: `arn:aws:s3:::${bucket}` },
          object: { ...record.s3.object, key: notificationKey(record.s3.object.key) },
        },
      });
    }
  });
  const address = await server.run();
  return {
    port: address.port,
    allowKey: (accessKeyId, secretAccessKey) => DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
