// `npm run --silent gbdt -- predict|info|train …`: the XGBoost/LightGBM models on the command line
// (./gbdt/command.ts says how).
import { gbdtCommand } from "./gbdt/command";

process.exitCode = await gbdtCommand(process.argv.slice(2));
