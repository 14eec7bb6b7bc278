// Prints the list of defaults read through a secondary copy (docs/methodology.md):
//   npx tsx functions/src/dictionaries/transcribed-values.ts
// and paste it between the transcribed-values markers of docs/methodology.md (reference-data.test.ts checks it).
import { transcribedValuesMarkdown } from "./reference-data";

console.log(transcribedValuesMarkdown());
