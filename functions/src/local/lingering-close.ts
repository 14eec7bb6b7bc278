// an answer given before a request's body was read (413 past a cap, 429 at the gate
// or past the heavy-work budgets) closes the connection, and it was closed at once: a client still
// sending met a broken connection and lost the answer with it (Node's fetch reported a socket error
// instead of the 413, seen at 2 MB). A lingering close, as web servers make it: the answer written,
// what the client still sends is read and dropped — up to a bound of bytes and time — and the
// connection is closed once it has all come, so the client reads the answer.
import type { IncomingMessage, RequestListener } from "node:http";
import type { Socket } from "node:net";

/** How much of a refused body is read and dropped, and for how long, before the connection is cut. */
export const LINGER = { bytes: 16 * 1024 * 1024, ms: 3_000 } as const;

type Lingering = Socket & { destroySoon?: () => void; lingering?: IncomingMessage };

/** `listener`, its connections closed lingering when an answer leaves a body unread. */
export function lingeringClose(listener: RequestListener, bound: { bytes: number; ms: number } = LINGER): RequestListener {
  return (request, response) => {
    const socket = request.socket as Lingering;
    if (socket.lingering === undefined && typeof socket.destroySoon === "function") {
      const destroySoon = socket.destroySoon.bind(socket);
      // Node (and @hono/node-server's drain) call destroySoon once the answer of a closing connection is written.
      socket.destroySoon = () => {
        const current = socket.lingering ?? request;
        if (current.complete || socket.destroyed) return destroySoon();
        socket.destroySoon = destroySoon;
        let dropped = 0;
        const timer = setTimeout(() => socket.destroy(), bound.ms);
        timer.unref();
        // The body's readers (the web stream Hono read it through) let go: each would hold it back.
        current.removeAllListeners("data");
        current.on("data", (chunk: Buffer) => {
          dropped += chunk.length;
          if (dropped > bound.bytes) socket.destroy();
        });
        current.once("end", () => {
          clearTimeout(timer);
          destroySoon();
        });
        socket.once("close", () => clearTimeout(timer));
        current.resume();
      };
    }
    socket.lingering = request;
    listener(request, response);
  };
}
