// verify.py's tables written from the core, never by hand: the destruction device
// kinds (between its «--- device kinds ---» marks, `verifierTable` of wasm-core/src/climate-devices/)
// and D58's range of every sensor kind (between its «--- sensor kinds ---» marks, the core's
// SENSOR_KINDS of wasm-core/src/monitoring.ts) and, for the comparison's U_M and U_E (D91, D107), each
// emission type's uncertain inputs as the core models them (between its «--- uncertainty fields ---»
// marks: `calculationModel` and `gasApproach1` of wasm-core/src/calculation-uncertainty.ts). `npm run
// verify-tables` (tools/verify-tables.ts) writes them; verify-tables.test.ts fails while the script's differ.
import { verifierTable } from "@core/climate-devices/index";
import { SENSOR_KINDS } from "@core/monitoring";
import { EMISSION_TYPES, REGISTRY, type CalculationDefinition, type NumberField } from "@core/registry";

const DEVICE_KINDS = {
  start: '# --- device kinds ---\nCLIMATE_DEVICE_KINDS = json.loads(r"""\n',
  end: '"""\n)\n# --- end of device kinds ---',
};
const SENSOR_KIND_MARKS = { start: "# --- sensor kinds ---\nSENSOR_KINDS = {\n", end: "}\n# --- end of sensor kinds ---" };
const UNCERTAINTY_FIELDS = {
  start: '# --- uncertainty fields ---\nUNCERTAINTY_FIELDS = json.loads(r"""\n',
  end: '"""\n)\n# --- end of uncertainty fields ---',
};

/** D91, D107: per emission type, as `calculationModel` and `gasApproach1` read a stored calculation: the
 *  result its model needs (`co2e`), its number inputs and settings in order (`fields`), those of its CH4
 *  (`ch4`: the volume and the CH4 term of a two-part type, else all) and its activity data (`activity`). */
export function uncertaintyFieldsTable(): Record<string, { co2e: string; fields: string[]; ch4: string[]; activity: string[] }> {
  const table: Record<string, { co2e: string; fields: string[]; ch4: string[]; activity: string[] }> = {};
  for (const type of EMISSION_TYPES) {
    const def: CalculationDefinition = REGISTRY[type];
    if (!def.co2e) continue;
    const numbers = [...def.inputs, ...def.settings].filter((f): f is NumberField => f.type === "number");
    const fields = numbers.map((f) => f.name as string);
    const parts = def.uncertaintyParts;
    table[type] = {
      co2e: def.co2e,
      fields,
      ch4: parts ? ["volume", ...parts.ch4] : fields,
      activity: numbers.filter((f) => f.activity !== undefined).map((f) => f.name as string),
    };
  }
  return table;
}

/** A number as Python reads it back to the same float (INF is verify.py's float("inf")). */
function pythonNumber(n: number): string {
  if (n === Number.POSITIVE_INFINITY) return "INF";
  if (n === Number.NEGATIVE_INFINITY) return "-INF";
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

/** Each kind's line: (min, max, whether min itself is outside, plausible step per minute or None). */
function sensorKindLines(): string {
  return Object.entries(SENSOR_KINDS)
    .map(
      ([kind, rule]) =>
        `    "${kind}": (${pythonNumber(rule.min)}, ${pythonNumber(rule.max)}, ${rule.minExclusive ? "True" : "False"}, ${
          rule.step === null ? "None" : pythonNumber(rule.step)
        }),\n`,
    )
    .join("");
}

function replaceBlock(script: string, marks: { start: string; end: string }, body: string): string {
  const start = script.indexOf(marks.start);
  const end = script.indexOf(marks.end);
  if (start < 0 || end < start) throw new Error(`verify.py: no «${marks.start.split("\n")[0]}» block`);
  return `${script.slice(0, start + marks.start.length)}${body}${script.slice(end)}`;
}

/** verify.py's text with its tables as the core holds them. */
export function withVerifierTables(script: string): string {
  const devices = replaceBlock(script, DEVICE_KINDS, `${JSON.stringify(verifierTable(), null, 1)}\n`);
  const sensors = replaceBlock(devices, SENSOR_KIND_MARKS, sensorKindLines());
  const rows = Object.entries(uncertaintyFieldsTable()).map(([type, spec]) => ` ${JSON.stringify(type)}: ${JSON.stringify(spec)}`);
  return replaceBlock(sensors, UNCERTAINTY_FIELDS, `{\n${rows.join(",\n")}\n}\n`);
}
