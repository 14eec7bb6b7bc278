// The Python that has the real XGBoost (Debian's python3-xgboost, installed by
// tests/prerequisites.sh): a python3 first on PATH may be another installation without it.
import { spawnSync } from "node:child_process";

/** Whether `python` finds the xgboost package. Found, not imported: the import (numpy, scipy) takes
 *  about 5 s, most of it waiting, and the test's own script imports it anyway. */
export const hasXGBoost = (python: string): boolean =>
  spawnSync(python, ["-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('xgboost') is None)"], { stdio: "ignore" })
    .status === 0;

let found: string | undefined;

/** The python3 that has xgboost, looked up once per worker; throws, never skips, when there is none. */
export function pythonWithXGBoost(): string {
  found ??= ["python3", "/usr/bin/python3"].find(hasXGBoost);
  if (!found) throw new Error("no python3 has xgboost: sudo apt-get install -y python3-xgboost");
  return found;
}
