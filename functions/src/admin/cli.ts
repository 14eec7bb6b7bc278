// `npm run admin -- <command> [options]`: companies and users without the web app (./commands.ts).
import { adminCommand } from "./commands";

process.exitCode = await adminCommand(process.argv.slice(2));
