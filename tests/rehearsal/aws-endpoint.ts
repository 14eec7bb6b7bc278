// One local endpoint for every AWS call the functions make. It knows the caller by the access key
// its request is signed with (as AWS knows the principal), records each call as IAM sees it (action
// and resource ARN) and serves it:
// - DynamoDB: forwarded to dynalite, the real engine (tables created from the template); each write
//   that changed an item becomes a stream record of its before and after images (stream.ts);
// - S3: its SigV4 signature checked as S3 checks it (sigv4.ts), then forwarded unchanged to a local
//   S3-protocol server (s3rver, s3.ts) with the template's buckets and CORS; its object events go to `onS3Event`;
// - Secrets Manager (GetSecretValue) and Lambda Invoke: EMULATED here, a few lines of their JSON
//   protocols, the only emulated parts (docs/deployment.md).
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type S3Server, startS3 } from "./s3";
import { signatureProblem } from "./sigv4";
import { StreamRecorder } from "./stream";
import { ACCOUNT, REGION } from "./template";

export interface Call {
  /** The function that made it (known by the access key of its process). */
  caller: string;
  action: string;
  resource: string;
}

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface InvokeAnswer {
  payload: string;
  /** Lambda's X-Amz-Function-Error: the handler threw. */
  functionError?: string;
}

export interface Endpoints {
  url: string;
  /** The credentials of one caller (a function's process, the admin command, the bench): its calls are recorded under its name. */
  credentialsFor(caller: string): Credentials;
  calls: Call[];
  /** The writes to the table, as its stream would hold them. */
  stream: StreamRecorder;
  s3: S3Server;
  close(): Promise<void>;
}

export interface EndpointOptions {
  dynaliteUrl: string;
  secrets: Record<string, string>;
  /** Per table, its key attributes and its stream's view type (stream.ts). */
  tables: Record<string, { keys: string[]; viewType?: string }>;
  buckets: { name: string; corsXml?: string }[];
  invoke?: (functionName: string, payload: string, invocationType: string) => Promise<InvokeAnswer>;
  onS3Event?: (record: S3EventRecord) => void;
}

export interface S3EventRecord {
  eventName: string;
  s3: { bucket: { name: string; arn: string }; object: { key: string; size?: number; eTag?: string } };
  [field: string]: unknown;
}

const tableArn = (name: string) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`;
const SECRET = "rehearsal-secret";

/** The IAM actions and resources of one DynamoDB request (transactions are authorized item by item). */
export function dynamoCalls(operation: string, body: any): { action: string; resource: string }[] {
  const one = (action: string, table: string, index?: string) => ({
    action: `dynamodb:${action}`,
    resource: index ? `${tableArn(table)}/index/${index}` : tableArn(table),
  });
  if (operation === "TransactWriteItems") {
    const kinds: Record<string, string> = {
      Put: "PutItem",
      Update: "UpdateItem",
      Delete: "DeleteItem",
      ConditionCheck: "ConditionCheckItem",
    };
    return (body.TransactItems as Record<string, any>[]).flatMap((item) =>
      Object.entries(item).map(([kind, request]) => one(kinds[kind], request.TableName)),
    );
  }
  if (operation === "TransactGetItems") return (body.TransactItems as any[]).map((item) => one("GetItem", item.Get.TableName));
  if (operation === "BatchWriteItem" || operation === "BatchGetItem") return Object.keys(body.RequestItems).map((t) => one(operation, t));
  return [one(operation, body.TableName, body.IndexName)];
}

/** S3's actions for a path-style request, as IAM authorizes it (a PUT carrying x-amz-tagging needs
 *  s3:PutObjectTagging too; the parts of a multipart upload are s3:PutObject). */
export function s3Calls(
  method: string,
  bucket: string,
  key: string,
  query: URLSearchParams,
  headers: Record<string, string | string[] | undefined>,
): { action: string; resource: string }[] {
  if (!bucket) return [{ action: "s3:ListAllMyBuckets", resource: "*" }];
  if (!key) {
    const resource = `arn:aws:s3:::${bucket}`;
    if (query.has("uploads")) return [{ action: "s3:ListBucketMultipartUploads", resource }];
    if (method === "POST" && query.has("delete")) return [{ action: "s3:DeleteObject", resource: `${resource}/*` }];
    if (method === "GET" || method === "HEAD") return [{ action: "s3:ListBucket", resource }];
    return [{ action: `s3:${method === "PUT" ? "Create" : method === "DELETE" ? "Delete" : method}Bucket`, resource }];
  }
  const resource = `arn:aws:s3:::${bucket}/${key}`;
  const one = (action: string) => [{ action, resource }];
  if (query.has("tagging")) {
    return one(method === "GET" ? "s3:GetObjectTagging" : method === "DELETE" ? "s3:DeleteObjectTagging" : "s3:PutObjectTagging");
  }
  if (query.has("uploadId")) {
    if (method === "DELETE") return one("s3:AbortMultipartUpload");
    if (method === "GET") return one("s3:ListMultipartUploadParts");
    return one("s3:PutObject");
  }
  if (method === "PUT" || method === "POST") {
    const tagged = headers["x-amz-tagging"] !== undefined || query.has("x-amz-tagging");
    return tagged ? [...one("s3:PutObject"), ...one("s3:PutObjectTagging")] : one("s3:PutObject");
  }
  if (method === "DELETE") return one("s3:DeleteObject");
  return one("s3:GetObject");
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The access key a request is signed with: the Authorization header's or a presigned URL's credential. */
function accessKeyOf(req: IncomingMessage, url: URL): string | undefined {
  const credential = /Credential=([^/,\s]+)\//.exec(String(req.headers.authorization ?? ""))?.[1];
  return credential ?? url.searchParams.get("X-Amz-Credential")?.split("/")[0];
}

export async function startEndpoints(options: EndpointOptions): Promise<Endpoints> {
  const calls: Call[] = [];
  const callers = new Map<string, string>();
  const s3 = await startS3(options.buckets, options.onS3Event);
  const stream = new StreamRecorder(options.dynaliteUrl, options.tables);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://local");
    const key = accessKeyOf(req, url);
    const caller = key === undefined ? "an unsigned request" : (callers.get(key) ?? `unknown access key ${key}`);
    const target = String(req.headers["x-amz-target"] ?? "");

    if (target.startsWith("DynamoDB_20120810.")) {
      const operation = target.split(".")[1];
      const body = await bodyOf(req);
      const parsed = JSON.parse(body.toString("utf8") || "{}");
      for (const call of dynamoCalls(operation, parsed)) calls.push({ caller, ...call });
      const forward = () =>
        fetch(options.dynaliteUrl, {
          method: "POST",
          // dynalite checks that a request is signed, not the signature.
          headers: {
            "content-type": String(req.headers["content-type"]),
            "x-amz-target": target,
            authorization: String(req.headers.authorization ?? ""),
            "x-amz-date": String(req.headers["x-amz-date"] ?? ""),
          },
          body,
        });
      const forwarded = await stream.around(operation, parsed, forward);
      res.writeHead(forwarded.status, { "content-type": forwarded.headers.get("content-type") ?? "application/x-amz-json-1.0" });
      res.end(Buffer.from(await forwarded.arrayBuffer()));
      return;
    }
    if (target.startsWith("secretsmanager.")) {
      const operation = target.split(".")[1];
      const { SecretId } = JSON.parse((await bodyOf(req)).toString("utf8")) as { SecretId: string };
      calls.push({ caller, action: `secretsmanager:${operation}`, resource: SecretId });
      const value = options.secrets[SecretId];
      res.setHeader("content-type", "application/x-amz-json-1.1");
      if (operation !== "GetSecretValue" || value === undefined) {
        res.writeHead(400).end(JSON.stringify({ __type: "ResourceNotFoundException", message: `Secrets Manager can't find ${SecretId}` }));
        return;
      }
      res.end(
        JSON.stringify({ ARN: SecretId, Name: SecretId.split(":").at(-1), SecretString: value, VersionId: "v1", CreatedDate: 1.7e9 }),
      );
      return;
    }
    const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(url.pathname);
    if (invoke) {
      const name = decodeURIComponent(invoke[1]).split(":").at(-1)!;
      calls.push({ caller, action: "lambda:InvokeFunction", resource: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name}` });
      const payload = (await bodyOf(req)).toString("utf8");
      const type = String(req.headers["x-amz-invocation-type"] ?? "RequestResponse");
      if (!options.invoke) {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ Type: "User", message: `Function not found: ${name}` }));
        return;
      }
      const answer = options.invoke(name, payload, type);
      if (type === "Event") {
        res.writeHead(202).end();
        return;
      }
      const { payload: out, functionError } = await answer;
      res
        .writeHead(200, { "content-type": "application/json", ...(functionError ? { "x-amz-function-error": functionError } : {}) })
        .end(out);
      return;
    }
    // S3, path style: /<bucket>/<key>, passed on as it came so that its signature still holds.
    const [, bucket = "", ...rest] = url.pathname.split("/");
    for (const call of s3Calls(req.method ?? "GET", bucket, decodeURIComponent(rest.join("/")), url.searchParams, req.headers)) {
      calls.push({ caller, ...call });
    }
    // The signature is checked here, as S3 checks it (sigv4.ts).
    const refused = signatureProblem(req, (accessKeyId) => (callers.has(accessKeyId) ? SECRET : undefined));
    if (refused) {
      res
        .writeHead(403, { "content-type": "application/xml" })
        .end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${refused}</Message></Error>`);
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const upstream = httpRequest(
        { host: "127.0.0.1", port: s3.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res).on("finish", resolve).on("error", reject);
        },
      );
      upstream.on("error", reject);
      req.pipe(upstream);
    });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (res.headersSent) return res.destroy(error);
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ __type: "InternalFailure", message: error.message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    credentialsFor(caller) {
      const accessKeyId = `ASIA${caller.toUpperCase().replace(/[^A-Z0-9]/g, "")}`;
      callers.set(accessKeyId, caller);
      s3.allowKey(accessKeyId, SECRET);
      return { accessKeyId, secretAccessKey: SECRET };
    },
    calls,
    stream,
    s3,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await s3.close();
      stream.close();
    },
  };
}
