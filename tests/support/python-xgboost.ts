// The Python that imports the real XGBoost (Debian's python3-xgboost, installed by
// tests/prerequisites.sh): a python3 first on PATH may be another installation without it.
import { spawnSync } from "node:child_process";

/** The python3 that imports xgboost; throws, never skips, when there is none. */
export function pythonWithXGBoost(): string {
  const python = ["python3", "/usr/bin/python3"].find((p) => spawnSync(p, ["-c", "import xgboost"], { stdio: "ignore" }).status === 0);
  if (!python) throw new Error("no python3 imports xgboost: sudo apt-get install -y python3-xgboost");
  return python;
}
