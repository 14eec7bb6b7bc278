// The local server's own events (a backup, a migration, the start) as JSON lines on standard output
// beside the request log's (http/request-log.ts), so that journald or a log collector reads them as
// one stream (docs/operations.md, «Журналы»).
export interface ServerLog {
  info(line: Record<string, unknown>): void;
  /** What the operator should look at, the server running on (a folder kept beside the store). */
  warn(line: Record<string, unknown>): void;
  error(line: Record<string, unknown>): void;
}

function write(level: "info" | "warn" | "error", line: Record<string, unknown>): void {
  const text = JSON.stringify({ time: new Date().toISOString(), level, host: "local", ...line });
  if (level === "error") console.error(text);
  else console.log(text);
}

export const serverLog: ServerLog = {
  info: (line) => write("info", line),
  warn: (line) => write("warn", line),
  error: (line) => write("error", line),
};
