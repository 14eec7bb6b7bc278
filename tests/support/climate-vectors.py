"""Section 13.6's vectors as minutes for verify.py (tests/integration/climate-verify-vectors.test.ts):
each case's segments become one reading a minute per channel at the minute's start (none where the
value is null), its hourly figures one reading in the hour, its own use one reading of an own-use
meter; verify.py's recomputation of the period from those readings is printed as JSON."""
import json
import sys

sys.path.insert(0, sys.argv[1])
import verify  # noqa: E402

KINDS = {"q": "flow", "c": "methane_high", "p": "pressure", "t": "temperature", "t_eg": "exhaust_temperature",
         "flame": "flame", "run": "run_status", "eta_meas": "destruction_efficiency", "e_gen": "electricity", "heat": "heat"}
HOURLY = {"eta_meas": "eta_meas", "e_gen_mwh": "e_gen", "heat_gj": "heat"}
START = verify.iso_ms("2026-06-01T00:00:00.000Z")


def hour_label(block_label, offset):
    first = block_label.split("..")[0]
    at = verify.iso_ms(first + ":00:00.000Z") + offset * 3600000
    return verify.datetime.datetime.fromtimestamp(at / 1000, verify.datetime.timezone.utc).strftime("%Y-%m-%dT%H")


case = json.load(sys.stdin)
inputs = case["inputs"]
meters = {}
devices = []
labels = None
for device in inputs["devices"]:
    readings = {}
    hour = 0
    device_labels = []
    for block in device["hours"]:
        for r in range(block["repeat"]):
            device_labels.append(hour_label(block["label"], r))
            base = START + hour * 3600000
            for segment in block["segments"]:
                for channel, value in segment.items():
                    if channel in ("from", "to"):
                        continue
                    series = readings.setdefault(channel, [])
                    if value is not None:
                        series.extend((base + m * 60000, float(value)) for m in range(segment["from"], segment["to"]))
            for field, channel in HOURLY.items():
                if field in block:
                    series = readings.setdefault(channel, [])
                    if block[field] is not None:
                        series.append((base + 1800000, float(block[field])))
            hour += 1
    labels = labels or device_labels
    sensors = {}
    for channel, series in readings.items():
        code = "%s:%s" % (device["id"], channel)
        meters[code] = verify.Meter(KINDS[channel], series, -verify.INF, verify.INF)
        sensors[channel] = code
    devices.append({"name": device["id"], "kind": device["kind"], "flow_basis": device["flow_basis"],
                    "eta_option": device.get("eta_option"), "sensors": sensors})
hours = len(labels)
plan = {"devices": devices, "e_own_sensor": None}
period = dict(inputs["period"])
if period.get("e_own_mwh"):
    meters["own"] = verify.Meter("electricity", [(START, float(period["e_own_mwh"]))], -verify.INF, verify.INF)
    plan["e_own_sensor"] = "own"
params = dict(verify.CLIMATE_DEFAULTS, **(inputs.get("params") or {}))
figures, totals, deviations = verify.evaluate_period(plan, meters, START, hours, labels, period, params)
for rows in figures:
    for row in rows:
        row.pop("deviations", None)
json.dump({"labels": labels, "devices": figures, "totals": totals, "deviations": deviations}, sys.stdout)
