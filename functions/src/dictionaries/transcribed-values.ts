// Prints the README's list of defaults read through a secondary copy (methodology 7.2):
//   npx tsx functions/src/dictionaries/transcribed-values.ts
// and paste it between the README's transcribed-values markers (reference-data.test.ts checks it).
import { transcribedValuesMarkdown } from "./reference-data";

console.log(transcribedValuesMarkdown());
