// Requests sent by `writers` users one at a time each (a closed loop: each user's next request leaves
// when its answer came), as the create bench times a create against the bare route at the same
// concurrency. Each answer's own time, from its request's start to the answer's end.
import { Agent, request as httpRequest } from "node:http";
import type { Planned } from "./arrivals";

export interface ClosedLoop {
  /** Each answer's own time, ms. */
  latencies: number[];
  /** Answers that were not 2xx, with the first one's status and body. */
  refused: number;
  firstRefusal?: string;
  /** The phase's wall time, s. */
  seconds: number;
}

/** `each` requests `planned(user)` from each of `users` users side by side, one at a time each. */
export async function closedLoop(base: string, users: number, each: number, planned: (user: number) => Planned): Promise<ClosedLoop> {
  const url = new URL(base);
  const out: ClosedLoop = { latencies: [], refused: 0, seconds: 0 };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: users }, async (_, user) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const request = planned(user);
      for (let n = 0; n < each; n++) {
        const from = performance.now();
        const { status, body } = await send(url, agent, request);
        out.latencies.push(performance.now() - from);
        if (status < 200 || status >= 300) {
          out.refused += 1;
          out.firstRefusal ??= `${status} ${body.slice(0, 200)}`;
        } else request.onResponse?.(status, body);
      }
      agent.destroy();
    }),
  );
  out.seconds = (performance.now() - started) / 1000;
  return out;
}

function send(url: URL, agent: Agent, planned: Planned): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: planned.path,
        method: planned.method ?? "GET",
        headers: { ...planned.headers, ...(planned.body ? { "Content-Length": Buffer.byteLength(planned.body) } : {}) },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(planned.body);
  });
}
