// `npm run admin -- …` in the test's own process, as an operator runs it on a DATA_DIR: the
// command's function with its output captured and the environment it reads set for the call.
import { adminCommand } from "@server/admin/commands";

export async function runAdmin(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const vars = { DATA_DIR: dataDir, ...env };
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  try {
    const status = await adminCommand(args, { log: (line) => stdout.push(line), error: (line) => stderr.push(line) });
    return { status, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
