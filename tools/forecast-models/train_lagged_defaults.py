#!/usr/bin/env python3
"""The platform's default lagged forecast models, one per horizon, trained with the real XGBoost.

Reads the institute's synthetic 10-minute longwall series (methane-train.csv beside this script and
the 1000 held-out rows of tests/fixtures/models/golden-default.csv: one series of 6000 steps, the
step number `id`), builds the lag features exactly as the core does (wasm-core/src/gbdt/horizon.ts:
y(t), y(t - 1 step), y(t - 1 h) and the mean of the measured y at t, t - 1 step, ... t - 50 min,
summed from t backwards), and for each horizon h trains XGBoost on the change y(t + h) - y(t) of the
training steps, with a monotone constraint on the air flow x1 (-1: more air, less methane ahead).
The latest fifth of the training steps is held out for early stopping; the model keeps the best
round's trees. Writes, for each horizon,
  functions/src/forecast/default-models/methane-xgboost-h{h}.json   (horizon_minutes in its attributes)
and tests/fixtures/models/golden-lagged.csv: the held-out steps with their lag features, the
library's prediction of the change (float32, repr) per horizon, and y(t + h).

Run from the repository's root with Debian 12's python3-xgboost (1.7.4):
  /usr/bin/python3 tools/forecast-models/train_lagged_defaults.py
Every run writes the same bytes (nthread=1, a fixed seed).
"""
import csv
import json
import math
import os
import sys

import numpy as np
import xgboost as xgb

HORIZONS = [10, 30, 60, 120, 360]
STEP_MINUTES = 10
READINGS = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"]
LAGS = ["y_now", "y_prev", "y_1h", "y_mean_1h"]
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MODELS = os.path.join(ROOT, "functions", "src", "forecast", "default-models")
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "models")
PARAMS = {
    "objective": "reg:squarederror",
    "tree_method": "hist",
    "max_depth": 5,
    "eta": 0.1,
    "seed": 42,
    "nthread": 1,
    # x1, the longwall's air flow, first of the features: the forecast never rises with more air.
    "monotone_constraints": "(" + ",".join(["-1"] + ["0"] * (len(READINGS) + len(LAGS) - 1)) + ")",
}
ROUNDS = 400
EARLY_STOPPING = 20


def number(text):
    return float("nan") if text in ("", "NaN") else float(text)


def read(path):
    with open(path, newline="") as f:
        return [{k: number(v) for k, v in row.items()} for row in csv.DictReader(f)]


def lags(y, step):
    """The four lag columns of step `step` (NaN where the history has no measured y)."""
    at = lambda s: y.get(s, float("nan"))
    total, count = 0.0, 0
    for k in range(60 // STEP_MINUTES):
        v = at(step - k)
        if not math.isnan(v):
            total += v
            count += 1
    return [at(step), at(step - 1), at(step - 60 // STEP_MINUTES), total / count if count else float("nan")]


def main():
    train = read(os.path.join(os.path.dirname(os.path.abspath(__file__)), "methane-train.csv"))
    test = read(os.path.join(FIXTURES, "golden-default.csv"))
    rows = {int(r["id"]): r for r in train + test}
    y = {step: r["y"] for step, r in rows.items()}
    train_steps = sorted(int(r["id"]) for r in train)
    test_steps = sorted(int(r["id"]) for r in test)
    features = lambda s: [rows[s][name] for name in READINGS] + lags(y, s)
    golden = {s: {"id": s} for s in test_steps}
    summary = []
    for h in HORIZONS:
        k = h // STEP_MINUTES
        usable = lambda steps: [s for s in steps if s + k in y and not math.isnan(y[s + k]) and not math.isnan(y[s])]
        fit_steps = usable(train_steps)
        held = len(fit_steps) // 5
        fit, valid = fit_steps[: len(fit_steps) - held], fit_steps[len(fit_steps) - held :]
        matrix = lambda steps: xgb.DMatrix(
            np.array([features(s) for s in steps], dtype=np.float64),
            label=np.array([y[s + k] - y[s] for s in steps], dtype=np.float64),
            missing=np.nan,
            feature_names=READINGS + LAGS,
        )
        booster = xgb.train(
            PARAMS, matrix(fit), num_boost_round=ROUNDS, evals=[(matrix(valid), "valid")],
            early_stopping_rounds=EARLY_STOPPING, verbose_eval=False,
        )
        booster = booster[: booster.best_iteration + 1]
        booster.set_attr(horizon_minutes=str(h), trained_by="tools/forecast-models/train_lagged_defaults.py")
        booster.save_model(os.path.join(MODELS, f"methane-xgboost-h{h}.json"))
        scored = usable(test_steps)
        change = booster.predict(matrix(scored))
        errors = [(y[s] + float(c)) - y[s + k] for s, c in zip(scored, change)]
        persistence = [y[s] - y[s + k] for s in scored]
        rmse = lambda e: math.sqrt(sum(v * v for v in e) / len(e))
        for s, c in zip(scored, change):
            golden[s][f"change_h{h}"] = repr(float(c))
            golden[s][f"y_h{h}"] = repr(y[s + k])
        summary.append((h, booster.num_boosted_rounds(), len(fit), len(scored), rmse(errors), rmse(persistence)))
    with open(os.path.join(FIXTURES, "golden-lagged.csv"), "w", newline="") as f:
        columns = ["id"] + [c for h in HORIZONS for c in (f"change_h{h}", f"y_h{h}")]
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(columns)
        for s in test_steps:
            writer.writerow([golden[s].get(c, "") for c in columns])
    print(f"xgboost {xgb.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}")
    print("horizon_min trees train_rows test_rows test_rmse persistence_rmse")
    for line in summary:
        print("%d %d %d %d %.5f %.5f" % line)


if __name__ == "__main__":
    main()
