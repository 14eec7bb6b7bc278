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

/** A user of a company of its own beside the one under test (the neighbour whose calls a bench or a
 *  fairness test times), made by the administration command on the running server's folder as an
 *  operator would; throws with the command's words when it refuses. */
export async function neighbourUser(dataDir: string, email: string): Promise<{ email: string; password: string }> {
  const user = { email, password: "neighbour-password-1" };
  const made = await runAdmin(dataDir, [
    "create-user",
    "--company",
    "ООО «Соседи»",
    "--new-company",
    "--email",
    email,
    "--password",
    user.password,
  ]);
  if (made.status !== 0) throw new Error(`create-user: ${made.stderr}`);
  return user;
}
