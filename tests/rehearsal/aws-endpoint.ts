// One local endpoint for every AWS call the functions make, which records each call as IAM sees
// it (action and resource ARN) before serving it:
// - DynamoDB: forwarded to dynalite, the real engine (table created from the template);
// - Secrets Manager (GetSecretValue): EMULATED here, a few lines of its JSON protocol;
// - S3: EMULATED here (no S3-protocol server is in the project's dependencies): objects kept in
//   memory with their content type and tags, path-style requests;
// - Lambda Invoke: EMULATED, recorded and answered by a callback.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ACCOUNT, REGION } from "./template";

export interface Call {
  /** The function that made it (each function process gets its own path prefix). */
  caller: string;
  action: string;
  resource: string;
}

export interface Endpoints {
  url: string;
  /** The endpoint for one function's process: its calls are recorded under its name. */
  urlFor(caller: string): string;
  calls: Call[];
  close(): Promise<void>;
}

export interface EndpointOptions {
  dynaliteUrl: string;
  secrets: Record<string, string>;
  buckets: string[];
  invoke?: (functionName: string, payload: string) => Promise<string>;
}

const tableArn = (name: string) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`;

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

/** S3's action for a path-style request. */
export function s3Call(method: string, bucket: string, key: string, query: URLSearchParams): { action: string; resource: string } {
  if (!key) {
    if (method === "GET" || method === "HEAD") return { action: "s3:ListBucket", resource: `arn:aws:s3:::${bucket}` };
    return { action: `s3:${method}Bucket`, resource: `arn:aws:s3:::${bucket}` };
  }
  const resource = `arn:aws:s3:::${bucket}/${key}`;
  if (query.has("tagging"))
    return {
      action: method === "GET" ? "s3:GetObjectTagging" : method === "DELETE" ? "s3:DeleteObjectTagging" : "s3:PutObjectTagging",
      resource,
    };
  const actions: Record<string, string> = {
    GET: "s3:GetObject",
    HEAD: "s3:GetObject",
    PUT: "s3:PutObject",
    DELETE: "s3:DeleteObject",
    POST: "s3:PutObject",
  };
  return { action: actions[method] ?? `s3:${method}`, resource };
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface StoredObject {
  body: Buffer;
  contentType: string;
  tags: string;
}

export async function startEndpoints(options: EndpointOptions): Promise<Endpoints> {
  const calls: Call[] = [];
  const objects = new Map<string, Map<string, StoredObject>>(options.buckets.map((b) => [b, new Map()]));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://local");
    // /as/<caller>/… names the function whose process sent it.
    const match = /^\/as\/([^/]+)(\/.*)?$/.exec(url.pathname);
    const caller = match ? decodeURIComponent(match[1]) : "unknown";
    const path = match?.[2] ?? "/";
    const body = await bodyOf(req);
    const target = String(req.headers["x-amz-target"] ?? "");

    if (target.startsWith("DynamoDB_20120810.")) {
      const operation = target.split(".")[1];
      for (const call of dynamoCalls(operation, JSON.parse(body.toString("utf8") || "{}"))) calls.push({ caller, ...call });
      const forwarded = await fetch(options.dynaliteUrl, {
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
      res.writeHead(forwarded.status, { "content-type": forwarded.headers.get("content-type") ?? "application/x-amz-json-1.0" });
      res.end(Buffer.from(await forwarded.arrayBuffer()));
      return;
    }
    if (target.startsWith("secretsmanager.")) {
      const operation = target.split(".")[1];
      const { SecretId } = JSON.parse(body.toString("utf8")) as { SecretId: string };
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
    const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(path);
    if (invoke) {
      const name = decodeURIComponent(invoke[1]);
      calls.push({ caller, action: "lambda:InvokeFunction", resource: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name}` });
      const answer = options.invoke ? await options.invoke(name, body.toString("utf8")) : JSON.stringify({ errorMessage: "not rehearsed" });
      res.writeHead(200, { "content-type": "application/json" }).end(answer);
      return;
    }
    // S3, path style: /<bucket>/<key>.
    const [, bucket = "", ...rest] = path.split("/");
    const key = decodeURIComponent(rest.join("/"));
    const method = req.method ?? "GET";
    calls.push({ caller, ...s3Call(method, bucket, key, url.searchParams) });
    const store = objects.get(bucket);
    const xml = (status: number, code: string) =>
      res
        .writeHead(status, { "content-type": "application/xml" })
        .end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
    if (!store) return xml(404, "NoSuchBucket");
    if (!key) {
      const prefix = url.searchParams.get("prefix") ?? "";
      const keys = [...store.keys()].filter((k) => k.startsWith(prefix)).sort();
      const contents = keys
        .map(
          (k) =>
            `<Contents><Key>${k}</Key><Size>${store.get(k)!.body.length}</Size><LastModified>2026-01-01T00:00:00.000Z</LastModified></Contents>`,
        )
        .join("");
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>${keys.length}</KeyCount><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`,
      );
      return;
    }
    const object = store.get(key);
    if (url.searchParams.has("tagging")) {
      if (!object) return xml(404, "NoSuchKey");
      if (method === "PUT") object.tags = body.toString("utf8");
      else if (method === "DELETE") object.tags = "";
      res.writeHead(method === "DELETE" ? 204 : 200).end(method === "GET" ? object.tags || "<Tagging><TagSet/></Tagging>" : "");
      return;
    }
    switch (method) {
      case "PUT":
        store.set(key, {
          body,
          contentType: String(req.headers["content-type"] ?? "binary/octet-stream"),
          tags: String(req.headers["x-amz-tagging"] ?? ""),
        });
        res.writeHead(200, { etag: '"rehearsal"' }).end();
        return;
      case "DELETE":
        store.delete(key);
        res.writeHead(204).end();
        return;
      case "GET":
      case "HEAD":
        if (!object) return xml(404, "NoSuchKey");
        res.writeHead(200, { "content-type": object.contentType, "content-length": String(object.body.length), etag: '"rehearsal"' });
        res.end(method === "GET" ? object.body : undefined);
        return;
      default:
        return xml(501, "NotImplemented");
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ __type: "InternalFailure", message: error.message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    urlFor: (caller) => `${url}/as/${encodeURIComponent(caller)}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
