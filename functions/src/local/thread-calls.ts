// Calls from an app thread (app-thread.ts) to what the local server keeps on its front thread and
// shares between its app threads: the spreadsheet and scoring threads, the readings' consumer, the
// webhook sender, the slot ledger, the signer, the change stream, the paces. A service is named and
// offered once (`answerCalls`); a thread reaches it as an object of the same methods (`callsTo`),
// each call a message. What an answer carries is cloned, its streams and the bytes of a file
// transferred; a domain error crosses as it does from the spreadsheet threads (domain/errors.ts
// WireError). A function among a call's arguments (a preview's `kept`) is called on the thread with
// what the service called it with, before the call's promise resolves.
import { deserialize, serialize } from "node:v8";
import type { MessagePort, Transferable } from "node:worker_threads";
import { DomainError, fromWire, toWire, TooManyRequests, type WireError } from "../domain/errors";
import { FileRefused } from "../files/errors";

/** What a thread knows of a service before calling it: its methods, and the plain values it holds
 *  (the spreadsheet worker's `jobsOf`). */
export interface ServiceShape {
  methods: string[];
  values: Record<string, unknown>;
  /** Methods whose object arguments the front only hands on to another thread (a document to render):
   *  they cross as serialized bytes (`Serialized`), so the front neither reads nor copies the object. */
  bulk?: string[];
}

/** An argument serialized by the calling thread, for the thread that renders it (`revived` there). */
export interface Serialized {
  __serialized: Uint8Array;
}

const isSerialized = (value: unknown): value is Serialized =>
  typeof value === "object" && value !== null && (value as Serialized).__serialized instanceof Uint8Array;

/** `value` with the serialized objects among its own fields made objects again (the rendering thread's side). */
export function revived<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, inner] of Object.entries(out)) if (isSerialized(inner)) out[key] = deserialize(inner.__serialized);
  return out as T;
}

/** A call's argument standing for a function of the caller's. */
interface CallbackMark {
  __callback: number;
}

type Call = { call: number; service: string; method: string; args: unknown[] };
type Answer =
  | { call: number; value: unknown; callbacks: Array<{ index: number; args: unknown[] }> }
  | { call: number; error: CrossedError; callbacks: Array<{ index: number; args: unknown[] }> };

type CrossedError =
  | { wire: WireError; retryAfterSeconds?: number }
  | { file: { kind: FileRefused["kind"]; detail: string; problems?: FileRefused["problems"] } }
  | { name: string; message: string; stack?: string };

/** What a service offers: its methods, and its values that cross as they are. */
export function shapeOf(service: object, bulk?: string[]): ServiceShape {
  const methods: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(service)) {
    if (typeof value === "function") methods.push(key);
    else if (value === null || typeof value !== "object" || Array.isArray(value)) values[key] = value;
  }
  return { methods, values, ...(bulk ? { bulk } : {}) };
}

/** The streams and file bytes of a value, up to a few levels down, which the message moves rather than copies. */
function transferables(value: unknown, depth = 0, found: Transferable[] = []): Transferable[] {
  if (value instanceof ReadableStream) found.push(value as unknown as Transferable);
  else if (isSerialized(value)) found.push(value.__serialized.buffer as ArrayBuffer);
  else if (value && typeof value === "object" && depth < 3 && !ArrayBuffer.isView(value))
    for (const inner of Array.isArray(value) ? value : Object.values(value)) transferables(inner, depth + 1, found);
  return found;
}

/** `value` without the functions its objects carry (an actor's handed-on slot, say): what a message can
 *  clone. Streams, bytes and dates stay as they are. */
function withoutFunctions(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object" || depth > 12) return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof ReadableStream || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((inner) => (typeof inner === "function" ? undefined : withoutFunctions(inner, depth + 1)));
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, withoutFunctions(v, depth + 1)]));
  const plain: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (typeof inner !== "function") plain[key] = withoutFunctions(inner, depth + 1);
  return plain;
}

/** Posts `message`; one that carries a function somewhere inside is posted again without it. */
function postPlain(port: MessagePort, message: Call | Answer): void {
  try {
    port.postMessage(message, transferables(message) as never);
  } catch (error) {
    if (!(error instanceof Error && error.name === "DataCloneError")) throw error;
    const plain = withoutFunctions(message) as Call | Answer;
    port.postMessage(plain, transferables(plain) as never);
  }
}

function crossed(error: unknown): CrossedError {
  if (error instanceof DomainError)
    return {
      wire: toWire(error),
      ...(error instanceof TooManyRequests ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    };
  if (error instanceof FileRefused)
    return { file: { kind: error.kind, detail: error.detail, ...(error.problems ? { problems: error.problems } : {}) } };
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: "Error", message: String(error) };
}

function uncrossed(error: CrossedError): Error {
  if ("wire" in error)
    return error.retryAfterSeconds !== undefined ? new TooManyRequests(error.wire.detail, error.retryAfterSeconds) : fromWire(error.wire);
  if ("file" in error) return new FileRefused(error.file.kind, error.file.problems ?? error.file.detail);
  const made = error.name === "RangeError" ? new RangeError(error.message) : new Error(error.message);
  if (error.stack) made.stack = error.stack;
  return made;
}

/** The front thread's end: each call on `port` made on the named service, answered on the port. */
export function answerCalls(port: MessagePort, services: Record<string, object>): void {
  port.on("message", (message: Call) => {
    const callbacks: Array<{ index: number; args: unknown[] }> = [];
    const args = message.args.map((arg) =>
      arg && typeof arg === "object" && "__callback" in arg
        ? (...called: unknown[]) => void callbacks.push({ index: (arg as CallbackMark).__callback, args: called })
        : arg,
    );
    const post = (answer: Answer) => {
      try {
        postPlain(port, answer);
      } catch (error) {
        port.postMessage({ call: message.call, error: crossed(error), callbacks } satisfies Answer);
      }
    };
    Promise.resolve()
      .then(() => {
        const service = services[message.service] as Record<string, (...a: unknown[]) => unknown> | undefined;
        const method = service?.[message.method];
        if (typeof method !== "function") throw new Error(`no method ${message.service}.${message.method} on the front thread`);
        return method.apply(service, args);
      })
      .then(
        (value) => post({ call: message.call, value, callbacks }),
        (error: unknown) => post({ call: message.call, error: crossed(error), callbacks }),
      );
  });
}

/** An object argument as its serialized bytes (a bulk method's). */
function serializedObject(arg: unknown): unknown {
  if (typeof arg !== "object" || arg === null || ArrayBuffer.isView(arg) || arg instanceof ReadableStream) return arg;
  return { __serialized: new Uint8Array(serialize(arg)) } satisfies Serialized;
}

/** A thread's end of `port`: `call` sends one call and resolves with its answer. */
export function threadCalls(port: MessagePort) {
  let next = 1;
  const waiting = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void; functions: Array<(...args: unknown[]) => unknown> }
  >();
  port.on("message", (answer: Answer) => {
    const call = waiting.get(answer.call);
    if (!call) return;
    waiting.delete(answer.call);
    if (waiting.size === 0) port.unref();
    for (const { index, args } of answer.callbacks) call.functions[index]?.(...args);
    if ("error" in answer) call.reject(uncrossed(answer.error));
    else call.resolve(answer.value);
  });
  port.unref();
  function call(service: string, method: string, args: unknown[]): Promise<unknown> {
    const functions: Array<(...args: unknown[]) => unknown> = [];
    const sent = args.map((arg) =>
      typeof arg === "function" ? ({ __callback: functions.push(arg as (...args: unknown[]) => unknown) - 1 } satisfies CallbackMark) : arg,
    );
    return new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject, functions });
      port.ref();
      try {
        postPlain(port, { call: id, service, method, args: sent } satisfies Call);
      } catch (error) {
        waiting.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
  /** The service as an object of its methods (each a call) and its values. */
  function service<T>(name: string, shape: ServiceShape): T {
    const made: Record<string, unknown> = { ...shape.values };
    for (const method of shape.methods)
      made[method] = shape.bulk?.includes(method)
        ? (...args: unknown[]) => call(name, method, args.map(serializedObject))
        : (...args: unknown[]) => call(name, method, args);
    return made as T;
  }
  return { call, service };
}
