// How a client of this process reaches a dynalite engine without HTTP: the SDK's request (target
// header, JSON body) handed to the engine's validation and action, as dynalite's HTTP server hands
// them, and the answer taken back as the HTTP response would carry it. The engine's thread
// (dynalite-thread.mjs) answers its message ports so, and an engine in this process's own event
// loop its clients here (dynalite-port.ts). Plain JavaScript: the engine's thread loads it without
// a TypeScript loader.
//
// dynalite's HTTP handler (dynalite/index.js) first checks a request's signature header, parses its
// URL and draws a random request id for it, and after the action adds a CRC32 of the answer: about
// a tenth of the CPU of a call that never leaves the process, for things that only HTTP and a client
// checking signatures use (the DynamoDB client reads neither the CRC nor the id but as metadata).
// Here the answer has a request id of this process's own, and the rest is dynalite's handler step
// by step: the same body checks, validation, action and answers, errors included.
//
// A request with the header ITEM_IMAGES_HEADER, when it is an UpdateItem that succeeds, is answered
// with the item before and after it as well (`images`, beside the body: the engine's updateItem hands
// them to its callback, packages/dynalite/actions/updateItem.js); the local table stream makes its
// records of them (table-stream.ts).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const validations = require("dynalite/validations/index.js");

/** The header that asks for an UpdateItem's images. */
export const ITEM_IMAGES_HEADER = "x-local-item-images";

/** What dynalite's HTTP handler accepts (dynalite/index.js). */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
const API = "DynamoDB_20120810";
const OPERATIONS = new Set(["BatchGetItem", "BatchWriteItem", "CreateTable", "DeleteItem", "DeleteTable", "DescribeTable", "DescribeTimeToLive", "GetItem", "ListTables", "PutItem", "Query", "Scan", "TagResource", "UntagResource", "ListTagsOfResource", "UpdateItem", "UpdateTable"]);

/** An operation's action and validation, as dynalite's HTTP handler loads them. */
const operations = new Map();
function operation(name) {
  let known = operations.get(name);
  if (!known) {
    const file = validations.toLowerFirst(name);
    known = { action: require(`dynalite/actions/${file}.js`), validation: require(`dynalite/validations/${file}.js`) };
    operations.set(name, known);
  }
  return known;
}

let requests = 0;
/** A request id unique in this process (dynalite's are random, 52 characters). */
const requestId = () => `LOCAL${(++requests).toString(36).toUpperCase().padStart(47, "0")}`;

/** Answers one request with `store` (dynalite's engine, dynalite-engine.mjs: createEngine) as its
 *  HTTP handler would, and calls `reply` with the answer: { status, headers, body }, and `images`
 *  ({ before, after }) for an UpdateItem with ITEM_IMAGES_HEADER that succeeded. */
export function answerRequest(store, headers, body, reply) {
  const withImages = headers[ITEM_IMAGES_HEADER] !== undefined;
  let images;
  const contentType = (headers["content-type"] ?? "").split(";")[0].trim();
  const send = (data, status = 200) => {
    const answer = {
      status,
      headers: { "x-amzn-requestid": requestId(), "content-type": contentType === "application/x-amz-json-1.0" ? contentType : "application/json" },
      body: JSON.stringify(data),
    };
    reply(images?.after && status === 200 ? { ...answer, images } : answer);
  };
  if (Buffer.byteLength(body) > MAX_REQUEST_BYTES) return reply({ status: 413, headers: {}, body: "" });
  if (body && contentType !== "application/json" && contentType !== "application/x-amz-json-1.0") {
    return reply({ status: 404, headers: {}, body: "<UnknownOperationException/>\n" });
  }
  let data;
  if (body) {
    try {
      data = JSON.parse(body);
    } catch {
      return send({ __type: "com.amazon.coral.service#SerializationException" }, 400);
    }
  }
  const target = (headers["x-amz-target"] ?? "").split(".");
  if (target.length !== 2 || (target[0] !== API && target[0] !== "DynamoDB_20111205") || !OPERATIONS.has(target[1])) {
    return send({ __type: "com.amazon.coral.service#UnknownOperationException" }, 400);
  }
  if (!body) return send({ __type: "com.amazon.coral.service#SerializationException" }, 400);
  const { action, validation } = operation(target[1]);
  const handle = () => {
    try {
      data = validations.checkTypes(data, validation.types);
      validations.checkValidations(data, validation.types, validation.custom, store);
    } catch (error) {
      if (error.statusCode) return send(error.body, error.statusCode);
      throw error;
    }
    action(store, data, (error, answer, itemImages) => {
      if (error?.statusCode) return send(error.body, error.statusCode);
      if (error) throw error;
      if (withImages && target[1] === "UpdateItem") images = itemImages;
      send(answer);
    });
  };
  handle();
}
