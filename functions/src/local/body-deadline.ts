// A request body comes within a deadline by its size (LIMITS.bodies: 10 MB in 60 s, a small body in its
// `minSeconds`): a signed-in user's body trickling at 100 B/s held a connection, its slot and the request
// in flight for 325 s (Node's requestTimeout and its check). Past the deadline the request is answered
// 408 on its socket, as Node's own request timeout answers, and the connection is closed: for the app the
// request is then as one its client gave up (its body's read fails, what it answers goes nowhere). A body
// without its length (chunked) is given the JSON cap's deadline. In AWS API Gateway takes a body whole
// before the function runs, and bounds its time itself.
import type { RequestListener } from "node:http";
import { LIMITS } from "../contract/schemas/limits";
import { fileSize } from "../contract/schemas/uploads";

export interface BodyPace {
  /** The least rate a body must come at, bytes a second. */
  bytesPerSecond: number;
  /** The deadline of any body, however small, ms. */
  minMs: number;
}

export const BODY_PACE: BodyPace = { bytesPerSecond: LIMITS.bodies.bytesPerSecond, minMs: LIMITS.bodies.minSeconds * 1000 };

/** The time a body of `bytes` is given to come, ms. */
export const bodyDeadlineMs = (bytes: number, pace: BodyPace = BODY_PACE): number =>
  Math.max(pace.minMs, Math.ceil((bytes / pace.bytesPerSecond) * 1000));

/** `listener`, each request's body held to its deadline; `chunkedBytes`: the size a body without its length is given time for. */
export function bodyDeadline(listener: RequestListener, chunkedBytes: number, pace: BodyPace = BODY_PACE): RequestListener {
  return (request, response) => {
    const length = Number(request.headers["content-length"] ?? 0);
    const chunked = request.headers["transfer-encoding"] !== undefined;
    if ((Number.isFinite(length) && length > 0) || chunked) {
      const bytes = chunked ? chunkedBytes : length;
      const ms = bodyDeadlineMs(bytes, pace);
      const timer = setTimeout(() => {
        if (request.complete) return;
        const socket = request.socket;
        if (!response.headersSent && socket.writable) {
          const body = JSON.stringify({
            detail: `Тело запроса (${fileSize(bytes)}) не получено за ${(ms / 1000).toLocaleString("ru-RU")} с: соединение слишком медленное, повторите запрос`,
          });
          socket.end(
            "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n" +
              `X-Content-Type-Options: nosniff\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
          );
          // What the client still sends is not waited for.
          setTimeout(() => socket.destroy(), 1_000).unref();
        } else socket.destroy();
      }, ms);
      timer.unref();
      const done = () => clearTimeout(timer);
      request.once("end", done);
      request.once("close", done);
      response.once("close", done);
    }
    listener(request, response);
  };
}
