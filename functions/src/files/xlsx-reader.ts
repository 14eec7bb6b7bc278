// Reads the cell values of an .xlsx's first worksheet (ECMA-376 Part 1 §18.2 workbook, §18.3.1
// sheet data, §18.4 shared strings; Part 2 relationships) from the ZIP parts zip-guard.ts checked.
// Hand-written so that the API bundle carries no spreadsheet library (one alone passes 1 MB).
// Styles are not read, so a date-formatted number stays a number. The XML is scanned as a stream,
// with linear-time regexes only and a cap on unfinished markup, and the sheet is read only as far
// as its consumer asks, so a row limit also limits the work.
import { inflateEntry, type ZipPart } from "./zip-guard";
import { badFile } from "./errors";

export type XlsxValue = number | string | boolean;

export interface XlsxSheet {
  name: string;
  /** [row number, values by column index from 0]: a sparse array, an empty cell is a hole. */
  rows: AsyncGenerator<[number, XlsxValue[]]>;
}

/** Anything that is not a readable workbook; the caller turns it into one message for the user. */
export class MalformedXlsx extends Error {}

function malformed(why: string): never {
  throw new MalformedXlsx(why);
}

const MAX_COLUMN = 16384; // XFD, Excel's last column
/** Excel's own limit for a cell's text: anything longer comes from a crafted file. */
export const MAX_CELL_TEXT = 32_767;
/** All shared strings together: far more than any table of this product holds, far less than
 *  what would strain memory (a 1.6 MB file can hold one 151 MB string). */
export const MAX_SHARED_TEXT = 16 * 1024 * 1024;

function cellTooLong(): never {
  throw badFile("В книге есть ячейка длиннее 32 767 символов (больше, чем допускает Excel): файл отклонен");
}

/** Whether the time to read a workbook is up, asked before each inflated chunk; the caller gives it
 *  (tabular.ts: the product's budget on the wall clock; a test: one it controls). */
export type ReadDeadline = () => boolean;
const NO_DEADLINE: ReadDeadline = () => false;

/** A file still being read when its deadline passes is refused, whatever it holds. */
function checkDeadline(passed: ReadDeadline): void {
  if (passed()) throw badFile("Книга Excel слишком сложна для обработки: сократите файл или сохраните его в CSV");
}
const MAX_ROW = 1048576;
// An unfinished tag, comment or CDATA section this long is not a spreadsheet part.
const MAX_MARKUP = 1024 * 1024;
const MAX_DEPTH = 256;
const MAX_RELATIONSHIPS = 100_000;
const MAX_ENTITY = 12; // "&#x10FFFF;"

/** The first worksheet in workbook order (a template may add a second sheet with explanations), or
 *  undefined when the workbook has none. */
export async function openFirstSheet(entries: ZipPart[], deadline: ReadDeadline): Promise<XlsxSheet | undefined> {
  const parts = new Map<string, ZipPart>();
  for (const entry of entries) {
    // Part names compare case-insensitively (ECMA-376 Part 2 §9.1.1.1.2).
    const key = entry.name.toLowerCase();
    if (parts.has(key)) malformed(`duplicate part ${entry.name}`);
    parts.set(key, entry);
  }
  const rootRels = await readRelationships(parts, "");
  const office = [...(rootRels?.values() ?? [])].find((rel) => rel.type.endsWith("/officeDocument") && parts.has(rel.target));
  const workbookPath = office?.target ?? "xl/workbook.xml";
  const workbook = parts.get(workbookPath);
  const rels = workbook && (await readRelationships(parts, workbookPath));
  let sheet: { name: string; part: ZipPart } | undefined;
  if (workbook && rels) {
    const listed = await firstWorksheet(workbook, rels);
    if (listed) sheet = { name: listed.name, part: parts.get(listed.path) ?? malformed(`missing part ${listed.path}`) };
  }
  // Without the workbook's list, the first worksheet part in the archive, named as Excel would.
  if (!sheet) {
    for (const entry of entries) {
      const match = /^xl\/worksheets\/sheet(\d+)\.xml$/i.exec(entry.name);
      if (match) {
        sheet = { name: `Sheet${match[1]}`, part: entry };
        break;
      }
    }
  }
  if (!sheet) return undefined;
  const stringsPath = [...(rels?.values() ?? [])].find((rel) => rel.type.endsWith("/sharedStrings"))?.target ?? "xl/sharedstrings.xml";
  const stringsPart = parts.get(stringsPath);
  const strings = stringsPart && (await readSharedStrings(stringsPart, deadline));
  return { name: sheet.name, rows: readRows(sheet.part, strings, deadline) };
}

// ---- Parts -------------------------------------------------------------------------------------

interface Relationship {
  type: string;
  /** The target part's name, resolved against the source part's folder and lower-cased. */
  target: string;
}

async function readRelationships(parts: Map<string, ZipPart>, source: string): Promise<Map<string, Relationship> | undefined> {
  const slash = source.lastIndexOf("/");
  const folder = source.slice(0, slash + 1);
  const part = parts.get(`${folder}_rels/${source.slice(slash + 1)}.rels`);
  if (!part) return undefined;
  const rels = new Map<string, Relationship>();
  await scanPart(part, {
    open(name, tag) {
      if (name !== "Relationship" || attribute(tag, "TargetMode") === "External") return;
      const id = attribute(tag, "Id");
      const target = attribute(tag, "Target");
      if (id === undefined || target === undefined) malformed("relationship without Id or Target");
      if (rels.size >= MAX_RELATIONSHIPS) malformed("too many relationships");
      if (!rels.has(id)) rels.set(id, { type: attribute(tag, "Type") ?? "", target: resolvePart(folder, target).toLowerCase() });
    },
    close() {},
    text() {},
  });
  return rels;
}

function resolvePart(folder: string, target: string): string {
  let path = target;
  try {
    path = decodeURIComponent(target);
  } catch {
    // Not percent-encoded after all: use it as written.
  }
  const segments = path.startsWith("/") ? [] : folder.split("/").filter(Boolean);
  for (const segment of path.split("/")) {
    if (segment === "..") segments.pop();
    else if (segment !== "" && segment !== ".") segments.push(segment);
  }
  return segments.join("/");
}

/** The first <sheet> whose relationship is a worksheet (chart sheets hold no cells). */
async function firstWorksheet(workbook: ZipPart, rels: Map<string, Relationship>): Promise<{ name: string; path: string } | undefined> {
  let found: { name: string; path: string } | undefined;
  let inSheets = false;
  await scanPart(workbook, {
    open(name, tag) {
      if (name === "sheets") inSheets = true;
      else if (name === "sheet" && inSheets && !found) {
        const id = attribute(tag, "id"); // r:id
        const rel = id === undefined ? undefined : rels.get(id);
        if (!rel) malformed(`sheet without a relationship: ${id}`);
        if (rel.type.endsWith("/worksheet"))
          found = { name: attribute(tag, "name") ?? malformed("sheet without a name"), path: rel.target };
      }
    },
    close(name) {
      if (name === "sheets") inSheets = false;
    },
    text() {},
  });
  return found;
}

async function readSharedStrings(part: ZipPart, deadline: ReadDeadline): Promise<StringTable> {
  const table = new StringTable();
  let text: string | undefined; // inside <si>
  let rich = false;
  let phonetic = 0;
  let collecting = false;
  await scanPart(
    part,
    {
      open(name) {
        if (name === "si") {
          text = "";
          rich = false;
          phonetic = 0;
        } else if (text === undefined) return;
        // <rPh> holds a phonetic reading (furigana), not part of the value.
        else if (name === "rPh") phonetic++;
        else if (name === "r" && phonetic === 0) rich = true;
        else if (name === "t" && phonetic === 0) collecting = true;
      },
      text(raw, cdata) {
        if (!collecting) return;
        text += cdata ? raw : decodeText(raw);
        if (text!.length > MAX_CELL_TEXT) cellTooLong();
      },
      close(name) {
        if (name === "t") collecting = false;
        else if (name === "rPh") phonetic--;
        else if (name === "si" && text !== undefined) {
          // A plain <si> without text is an empty cell, as uploads have always read it.
          table.push(rich || text !== "" ? text : null);
          text = undefined;
        }
      },
    },
    deadline,
  );
  table.finish();
  return table;
}

const NO_TEXT = 0x80000000;
const BLOCK = 4096;

/** Shared strings packed into joined blocks with each string's end offset in its block: a hostile
 *  table of millions of tiny strings costs a few bytes per string, not a JS string object each. */
class StringTable {
  private readonly blocks: string[] = [];
  private pending: string[] = [];
  private pendingLength = 0;
  /** End offset in the block; NO_TEXT marks an entry read as an empty cell. */
  private ends = new Uint32Array(1024);
  private size = 0;
  private total = 0;

  push(value: string | null): void {
    if (this.size === this.ends.length) {
      const grown = new Uint32Array(this.size * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.pending.push(value ?? "");
    this.pendingLength += value?.length ?? 0;
    this.total += value?.length ?? 0;
    if (this.total > MAX_SHARED_TEXT) {
      throw badFile("Книга Excel содержит слишком много текста (более 16 млн символов): файл отклонен");
    }
    if (this.pendingLength >= NO_TEXT) malformed("shared strings too long");
    this.ends[this.size++] = value === null ? this.pendingLength + NO_TEXT : this.pendingLength;
    if (this.pending.length === BLOCK) this.finish();
  }

  finish(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(this.pending.join(""));
    this.pending = [];
    this.pendingLength = 0;
  }

  get(index: number): string | null {
    if (index >= this.size) malformed(`shared string ${index} does not exist`);
    const end = this.ends[index];
    if (end >= NO_TEXT) return null;
    const start = index % BLOCK === 0 ? 0 : this.ends[index - 1] % NO_TEXT;
    return this.blocks[Math.floor(index / BLOCK)].slice(start, end);
  }
}

// ---- Sheet data --------------------------------------------------------------------------------

async function* readRows(part: ZipPart, strings: StringTable | undefined, deadline: ReadDeadline): AsyncGenerator<[number, XlsxValue[]]> {
  const sheet = new SheetData(strings);
  const scanner = new XmlScanner(sheet);
  for await (const text of partText(part)) {
    checkDeadline(deadline);
    scanner.write(text);
    yield* sheet.take();
    // Whatever follows <sheetData> (merges, print setup) holds no values.
    if (sheet.finished) return;
  }
  scanner.end();
  yield* sheet.take();
}

class SheetData implements XmlHandler {
  finished = false;
  private ready: Array<[number, XlsxValue[]]> = [];
  private inData = false;
  private row: XlsxValue[] | undefined;
  private rowNumber = 0;
  /** Where a cell without a reference goes: right after the previous one. */
  private nextColumn = 0;
  private cellsInRow = 0;
  private cell: { column: number; type: string } | undefined;
  private value: string | undefined; // <v>
  private inline: string | undefined; // <is>
  private collecting: "value" | "inline" | undefined;
  private phonetic = 0;

  constructor(private readonly strings: StringTable | undefined) {}

  take(): Array<[number, XlsxValue[]]> {
    const rows = this.ready;
    this.ready = [];
    return rows;
  }

  open(name: string, tag: string): void {
    if (name === "sheetData") this.inData = true;
    else if (!this.inData) return;
    else if (name === "row") {
      if (this.row) malformed("row inside a row");
      const r = attribute(tag, "r");
      this.rowNumber = r === undefined ? this.rowNumber + 1 : rowNumber(r);
      this.row = [];
      this.nextColumn = 0;
      this.cellsInRow = 0;
    } else if (!this.row) return;
    else if (name === "c") {
      if (this.cell) malformed("cell inside a cell");
      const r = attribute(tag, "r");
      const column = r === undefined ? this.nextColumn : columnIndex(r);
      // A row has at most one cell per column: more is a crafted file, and costs work for nothing.
      if (column >= MAX_COLUMN || ++this.cellsInRow > MAX_COLUMN) malformed("too many cells in a row");
      this.nextColumn = column + 1;
      this.cell = { column, type: attribute(tag, "t") ?? "n" };
      this.value = this.inline = undefined;
      this.phonetic = 0;
    } else if (!this.cell) return;
    else if (name === "v") {
      this.value = "";
      this.collecting = "value";
    } else if (name === "is") this.inline = "";
    else if (name === "rPh") this.phonetic++;
    else if (name === "t" && this.inline !== undefined && this.phonetic === 0) this.collecting = "inline";
  }

  text(raw: string, cdata: boolean): void {
    if (!this.collecting) return;
    const text = cdata ? raw : decodeText(raw);
    if (this.collecting === "value") this.value += text;
    else this.inline += text;
    if ((this.value?.length ?? 0) > MAX_CELL_TEXT || (this.inline?.length ?? 0) > MAX_CELL_TEXT) cellTooLong();
  }

  close(name: string): void {
    if (name === "v" || name === "t") this.collecting = undefined;
    else if (name === "rPh") this.phonetic--;
    else if (name === "c" && this.cell && this.row) {
      const value = this.cellValue(this.cell.type);
      if (value !== undefined) this.row[this.cell.column] = value;
      this.cell = undefined;
    } else if (name === "row" && this.row) {
      this.ready.push([this.rowNumber, this.row]);
      this.row = undefined;
    } else if (name === "sheetData") {
      this.inData = false;
      this.finished = true;
    }
  }

  /** The cached value whatever the formula; a formula without one is an empty cell. */
  private cellValue(type: string): XlsxValue | undefined {
    const value = this.value;
    switch (type) {
      case "s": {
        if (value === undefined || value.trim() === "") return undefined;
        if (!/^\s*\d{1,10}\s*$/.test(value) || !this.strings) malformed(`bad shared string reference ${value.slice(0, 20)}`);
        return this.strings.get(Number(value)) ?? undefined;
      }
      case "inlineStr":
        return this.inline ?? value;
      case "str":
      case "e":
        return value;
      case "b":
        return value === undefined ? undefined : parseInt(value, 10) !== 0;
      case "d":
        // ISO 8601 (§18.17.4); the date is what the user typed, whatever the time or zone.
        return value === undefined ? undefined : /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value;
      default: {
        const text = value?.trim();
        if (!text) return undefined;
        if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(text)) malformed(`bad number ${text.slice(0, 20)}`);
        return Number(text);
      }
    }
  }
}

function rowNumber(r: string): number {
  const number = /^\d{1,7}$/.test(r) ? Number(r) : 0;
  if (number < 1 || number > MAX_ROW) malformed(`bad row number ${r.slice(0, 20)}`);
  return number;
}

/** "C12" → 2: the column from 0; the row is the enclosing <row>'s. */
function columnIndex(ref: string): number {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break; // A-Z
    column = column * 26 + c - 64;
    if (column > MAX_COLUMN) malformed(`bad cell reference ${ref.slice(0, 20)}`);
  }
  if (i === 0 || !/^\d*$/.test(ref.slice(i))) malformed(`bad cell reference ${ref.slice(0, 20)}`);
  return column - 1;
}

// ---- XML ---------------------------------------------------------------------------------------

interface XmlHandler {
  /** `name` without a namespace prefix; `tag` is the start tag's text for attribute(). An empty
   *  element (<x/>) is opened and closed at once. */
  open(name: string, tag: string): void;
  close(name: string): void;
  /** Character data inside the root element, entity references left in unless `cdata`. */
  text(raw: string, cdata: boolean): void;
}

async function scanPart(part: ZipPart, handler: XmlHandler, deadline = NO_DEADLINE): Promise<void> {
  const scanner = new XmlScanner(handler);
  for await (const text of partText(part)) {
    checkDeadline(deadline);
    scanner.write(text);
  }
  scanner.end();
}

/** A part's text in chunks, with line ends normalised as an XML processor must (XML 1.0 §2.11). */
async function* partText(part: ZipPart): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let held = "";
  for await (const bytes of inflateEntry(part)) {
    let text = held + decoder.decode(bytes, { stream: true });
    // A "\r" at the end may be the first half of "\r\n".
    held = text.endsWith("\r") ? "\r" : "";
    if (held) text = text.slice(0, -1);
    if (text) yield text.replace(/\r\n?/g, "\n");
  }
  const text = held + decoder.decode();
  if (text) yield text.replace(/\r\n?/g, "\n");
}

/** A streaming scanner for the XML subset OOXML parts use: elements, attributes, character and
 *  entity references, CDATA, comments and processing instructions; a DOCTYPE (and with it any
 *  entity definition) is refused. Tags must nest; whatever is unfinished waits for the next chunk. */
class XmlScanner {
  private rest = "";
  private readonly open: string[] = [];
  private rootSeen = false;

  constructor(private readonly handler: XmlHandler) {}

  write(chunk: string): void {
    this.scan(this.rest + chunk, false);
  }

  end(): void {
    this.scan(this.rest, true);
    if (!this.rootSeen || this.open.length > 0) malformed("unfinished XML");
  }

  private scan(s: string, final: boolean): void {
    let i = 0;
    while (i < s.length) {
      if (s.charCodeAt(i) !== 0x3c) {
        const lt = s.indexOf("<", i);
        let end = lt < 0 ? s.length : lt;
        if (lt < 0 && !final) {
          // An entity reference may go on in the next chunk.
          const amp = s.lastIndexOf("&");
          if (amp >= i && s.length - amp < MAX_ENTITY && s.indexOf(";", amp) < 0) end = amp;
        }
        this.characters(s.slice(i, end), false);
        i = end;
        if (lt < 0) break;
      }
      const next = this.markup(s, i, final);
      if (next < 0) break;
      i = next;
    }
    this.rest = s.slice(i);
    if (this.rest.length > MAX_MARKUP) malformed("markup too long");
    if (final && this.rest) malformed("unfinished XML");
  }

  private characters(text: string, cdata: boolean): void {
    if (text === "") return;
    if (this.open.length > 0) this.handler.text(text, cdata);
    else if (cdata || !/^[ \t\n]*$/.test(text)) malformed("text outside the root element");
  }

  private unfinished(final: boolean): number {
    return final ? malformed("unfinished XML") : -1;
  }

  /** Handles the markup at s[i] = "<" and returns the index after it, or -1 if it is unfinished. */
  private markup(s: string, i: number, final: boolean): number {
    const next = s.charCodeAt(i + 1);
    if (next === 0x3f) {
      // <?xml ...?> and other processing instructions
      const end = s.indexOf("?>", i + 2);
      return end < 0 ? this.unfinished(final) : end + 2;
    }
    if (next === 0x21) {
      if (s.length - i < 9 && !final) return -1;
      if (s.startsWith("<!--", i)) {
        const end = s.indexOf("-->", i + 4);
        return end < 0 ? this.unfinished(final) : end + 3;
      }
      if (s.startsWith("<![CDATA[", i)) {
        const end = s.indexOf("]]>", i + 9);
        if (end < 0) return this.unfinished(final);
        this.characters(s.slice(i + 9, end), true);
        return end + 3;
      }
      malformed("DOCTYPE or declaration");
    }
    if (next === 0x2f) {
      const end = s.indexOf(">", i + 2);
      if (end < 0) return this.unfinished(final);
      const name = s.slice(i + 2, end).trimEnd();
      if (this.open.pop() !== name) malformed(`unexpected </${name.slice(0, 40)}>`);
      this.handler.close(localName(name));
      return end + 1;
    }
    // A start tag ends at the first ">" outside quoted attribute values.
    let quote = 0;
    let end = -1;
    for (let j = i + 1; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (quote) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e) {
        end = j;
        break;
      } else if (c === 0x3c) malformed("< inside a tag");
    }
    if (end < 0) return this.unfinished(final);
    const empty = s.charCodeAt(end - 1) === 0x2f;
    const tag = s.slice(i + 1, empty ? end - 1 : end);
    const name = tagName(tag);
    if (!name) malformed("tag without a name");
    if (this.open.length === 0) {
      if (this.rootSeen) malformed("second root element");
      this.rootSeen = true;
    }
    const local = localName(name);
    if (empty) {
      this.handler.open(local, tag);
      this.handler.close(local);
    } else {
      if (this.open.length >= MAX_DEPTH) malformed("XML nested too deep");
      this.open.push(name);
      this.handler.open(local, tag);
    }
    return end + 1;
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function tagName(tag: string): string {
  let i = 0;
  while (i < tag.length && !isSpace(tag.charCodeAt(i))) i++;
  return tag.slice(0, i);
}

function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

/** The value of an attribute of a start tag, by local name (so "r:id" is "id"); namespace
 *  declarations are skipped. */
function attribute(tag: string, name: string): string | undefined {
  let i = tagName(tag).length;
  for (;;) {
    while (i < tag.length && isSpace(tag.charCodeAt(i))) i++;
    if (i >= tag.length) return undefined;
    const start = i;
    while (i < tag.length && tag.charCodeAt(i) !== 0x3d && !isSpace(tag.charCodeAt(i))) i++;
    const qualified = tag.slice(start, i);
    while (i < tag.length && isSpace(tag.charCodeAt(i))) i++;
    if (tag.charCodeAt(i) !== 0x3d) malformed("attribute without a value");
    i++;
    while (i < tag.length && isSpace(tag.charCodeAt(i))) i++;
    const quote = tag[i];
    if (quote !== '"' && quote !== "'") malformed("unquoted attribute");
    const close = tag.indexOf(quote, i + 1);
    if (close < 0) malformed("unclosed attribute");
    if (localName(qualified) === name && qualified !== "xmlns" && !qualified.startsWith("xmlns:")) {
      // Attribute-value normalisation (XML 1.0 §3.3.3): literal tabs and newlines read as spaces.
      return decodeText(tag.slice(i + 1, close).replace(/[\t\n]/g, " "));
    }
    i = close + 1;
  }
}

const NAMED_ENTITIES = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);

function decodeText(raw: string): string {
  let amp = raw.indexOf("&");
  if (amp < 0) return raw;
  let out = "";
  let last = 0;
  while (amp >= 0) {
    const semicolon = raw.indexOf(";", amp + 1);
    if (semicolon < 0 || semicolon - amp > MAX_ENTITY) malformed("bad entity reference");
    out += raw.slice(last, amp) + entity(raw.slice(amp + 1, semicolon));
    last = semicolon + 1;
    amp = raw.indexOf("&", last);
  }
  return out + raw.slice(last);
}

function entity(name: string): string {
  const named = NAMED_ENTITIES.get(name);
  if (named) return named;
  const code = /^#\d{1,7}$/.test(name) ? Number(name.slice(1)) : /^#x[0-9a-fA-F]{1,6}$/.test(name) ? parseInt(name.slice(2), 16) : -1;
  // Only characters XML allows (XML 1.0 §2.2).
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  if (!allowed) malformed(`bad entity reference &${name};`);
  return String.fromCodePoint(code);
}
