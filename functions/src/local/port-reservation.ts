// The server's port, taken before anything else of a start: a port another process holds was found only
// when the server began to listen, after the data folder had been made, its store opened and a new
// folder seeded (the demo company and its year: 1 min 26 s at load), and the folder so made stayed
// behind. The port is now held from the first step of the start by a listening socket of its own, given
// up only at the moment the server listens on it, so a taken port refuses the start before a folder is
// made or read.
import { createServer, type Server } from "node:net";

/** The refusal of a start whose port another process holds. */
export class PortTakenError extends Error {}

export const portTakenMessage = (port: number) => `Порт ${port} занят другим процессом: задайте другой, например PORT=3001 npm start`;

export interface PortReservation {
  /** Gives the port up, for the server to listen on it at once. */
  release(): Promise<void>;
}

/** Holds `port` on `host` for this start, or refuses it when another process holds it (PortTakenError);
 *  port 0 (any free port, the tests') holds nothing. */
export async function reservePort(port: number, host: string): Promise<PortReservation> {
  if (port === 0) return { release: async () => {} };
  const socket: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    socket.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new PortTakenError(portTakenMessage(port)) : error),
    );
    socket.listen({ port, host, exclusive: true }, () => resolve());
  });
  // The socket itself keeps no start alive.
  socket.unref();
  let released: Promise<void> | undefined;
  return {
    release() {
      released ??= new Promise<void>((resolve) => socket.close(() => resolve()));
      return released;
    },
  };
}
