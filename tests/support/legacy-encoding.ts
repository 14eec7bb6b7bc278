// Text written as a single-byte legacy encoding (Windows-1251 as Russian Excel saves CSV, KOI8-R,
// Windows-1252), for upload tests. Node has no encoder for them, so the table is the decoder's,
// inverted; tests check a few bytes against the code page as published, so both sides are not
// merely each other's mirror.
import { readFileSync } from "node:fs";

const tables = new Map<string, Map<string, number>>();

function table(encoding: string): Map<string, number> {
  let map = tables.get(encoding);
  if (!map) {
    map = new Map();
    const decoder = new TextDecoder(encoding);
    for (let byte = 0; byte < 256; byte++) {
      const ch = decoder.decode(new Uint8Array([byte]));
      if (!map.has(ch)) map.set(ch, byte);
    }
    tables.set(encoding, map);
  }
  return map;
}

export function encodeLegacy(text: string, encoding: "windows-1251" | "koi8-r" | "windows-1252"): Uint8Array {
  const map = table(encoding);
  return new Uint8Array(
    [...text].map((ch) => {
      const byte = map.get(ch);
      if (byte === undefined) throw new Error(`«${ch}» has no byte in ${encoding}`);
      return byte;
    }),
  );
}

/** A longwall's history as Russian Excel saves «CSV (разделители — точки с запятой)»:
 *  tests/fixtures/encodings/история-лавы-cp1251.csv (its README says how it was made), and the
 *  same text in UTF-8, each file path's twin. */
export function russianExcelHistory(): { name: string; cp1251: Uint8Array; utf8: Uint8Array } {
  const cp1251 = new Uint8Array(readFileSync(new URL("../fixtures/encodings/история-лавы-cp1251.csv", import.meta.url)));
  return { name: "история лавы.csv", cp1251, utf8: new TextEncoder().encode(new TextDecoder("windows-1251").decode(cp1251)) };
}
