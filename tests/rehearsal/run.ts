// `npm run rehearse`: synthesizes the prod stack and rehearses its deployment (tests/rehearsal/rehearse.ts).
import { rehearse } from "./rehearse";
import { synthesizeProd } from "./synth";

const started = Date.now();
console.log("synthesizing the prod stack…");
const elapsed = () => `${String(Math.round((Date.now() - started) / 1000)).padStart(4)} s`;
const result = await rehearse(synthesizeProd(), (line) => console.log(`${elapsed()}  ${line}`));
console.log("\nEvents each function received:");
for (const [name, count] of Object.entries(result.invoked)) console.log(`  ${name}: ${count}`);
if (result.unused.length) {
  console.log("\nLeast privilege: granted, but no call of the rehearsal used it:");
  for (const line of result.unused) console.log(`  ${line}`);
}
console.log(`\n${result.calls.length} AWS calls recorded in ${Math.round((Date.now() - started) / 1000)} s`);
if (result.problems.length) {
  console.error("\nThe rehearsal failed:");
  for (const problem of result.problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log("The rehearsal passed.");
