// dynalite, the DynamoDB implementation on LevelDB, run inside this process on a loopback port.
// With a path the data persist there; without one it keeps everything in memory (tests).
import dynalite from "dynalite";
import type { AddressInfo } from "node:net";

export interface RunningDynalite {
  endpoint: string;
  close(): Promise<void>;
}

export async function startDynalite(path?: string, port = 0): Promise<RunningDynalite> {
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: actualPort } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${actualPort}`,
    // dynalite's close stops the HTTP server and then closes LevelDB cleanly.
    close: () => new Promise<void>((resolve, reject) => server.close((err?: Error) => (err ? reject(err) : resolve()))),
  };
}
