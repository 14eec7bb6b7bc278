// Requests offered as a company's users send them: each user at a steady pace from a keep-alive
// connection of their own, the users out of step with one another (each starts at a random point of
// its first interval), whatever the server answers meanwhile (an open loop).
//
// Why not autocannon's rate: it lets each connection send its whole second's share back to back, each
// request as soon as the answer before it came, then wait for the next second. Eight users at 19 a
// second were then eight requests in flight for the first third of each second and none after: a
// burst, not 150 a second (p50 29 ms at load average 1,5, where the same server's one in flight
// answers in 8–9 ms). A request's time here runs from the moment it was due, so an answer that waits
// behind the user's previous one counts that wait.
import { Agent, request as httpRequest } from "node:http";

export interface Planned {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The answer's status and body, for what the caller keeps (an acknowledged write's id). */
  onResponse?: (status: number, body: string) => void;
}

export interface Arrivals {
  /** Each answer's time from when its request was due, ms. */
  latencies: number[];
  /** Answers with a 2xx status. */
  ok: number;
  /** Requests that got no answer (refused, reset: a server killed). */
  errors: number;
  timeouts: number;
  /** When the last answer came, seconds after the start. */
  lastAnswer: number;
}

/** `perSecond[i]` requests a second from user i for `seconds` seconds, their requests cycling through
 *  `requests(i)`; resolves once every request is answered or failed. */
export async function offerArrivals(
  base: string,
  perSecond: readonly number[],
  seconds: number,
  requests: (user: number) => readonly Planned[],
  timeoutMs = 10_000,
): Promise<Arrivals> {
  const url = new URL(base);
  const result: Arrivals = { latencies: [], ok: 0, errors: 0, timeouts: 0, lastAnswer: 0 };
  const started = performance.now();
  const users = perSecond.map(async (rate, user) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const planned = requests(user);
    const interval = 1000 / rate;
    const phase = Math.random() * interval;
    const sent: Promise<void>[] = [];
    for (let n = 0; n < rate * seconds; n++) {
      const due = started + phase + n * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent.push(send(url, agent, planned[n % planned.length], due, timeoutMs, result, started));
    }
    await Promise.all(sent);
    agent.destroy();
  });
  await Promise.all(users);
  return result;
}

function send(url: URL, agent: Agent, planned: Planned, due: number, timeoutMs: number, result: Arrivals, started: number) {
  return new Promise<void>((resolve) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: planned.path,
        method: planned.method ?? "GET",
        headers: { ...planned.headers, ...(planned.body ? { "Content-Length": Buffer.byteLength(planned.body) } : {}) },
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const now = performance.now();
          const status = res.statusCode ?? 0;
          result.latencies.push(now - due);
          if (status >= 200 && status < 300) result.ok += 1;
          result.lastAnswer = Math.max(result.lastAnswer, (now - started) / 1000);
          planned.onResponse?.(status, Buffer.concat(chunks).toString("utf8"));
          resolve();
        });
        res.on("error", () => {
          result.errors += 1;
          resolve();
        });
      },
    );
    req.on("timeout", () => {
      result.timeouts += 1;
      req.destroy(new Error("timeout"));
    });
    req.on("error", (error) => {
      if (error.message !== "timeout") result.errors += 1;
      resolve();
    });
    req.end(planned.body);
  });
}
