// Reads a ZIP's central directory (PKWARE APPNOTE 4.3.12–4.3.16) before anything inflates it, so
// an .xlsx that would expand to gigabytes (a zip bomb) is refused from its declared sizes alone.
import { DomainError } from "../domain/errors";

export interface ZipLimits {
  maxEntries: number;
  maxTotalUncompressed: number;
  /** Largest allowed uncompressed/compressed ratio of one entry. */
  maxRatio: number;
}

export const XLSX_ZIP_LIMITS: ZipLimits = { maxEntries: 2000, maxTotalUncompressed: 200 * 1024 * 1024, maxRatio: 250 };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;

function refuse(detail: string): never {
  throw new DomainError(400, detail);
}

export function checkZip(bytes: Uint8Array, limits: ZipLimits = XLSX_ZIP_LIMITS): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  // The end record is 22 bytes plus a comment of at most 65535 bytes.
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) refuse("Файл поврежден: это не книга Excel (.xlsx)");
  const entries = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || directoryOffset === 0xffffffff) refuse("Файл .xlsx в формате ZIP64 не поддерживается");
  if (entries > limits.maxEntries) refuse("Файл .xlsx содержит слишком много частей");
  if (directoryOffset + directorySize > eocd) refuse("Файл поврежден: это не книга Excel (.xlsx)");

  let offset = directoryOffset;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > eocd || view.getUint32(offset, true) !== CENTRAL_SIGNATURE) {
      refuse("Файл поврежден: это не книга Excel (.xlsx)");
    }
    const compressed = view.getUint32(offset + 20, true);
    const uncompressed = view.getUint32(offset + 24, true);
    if (compressed === 0xffffffff || uncompressed === 0xffffffff) refuse("Файл .xlsx в формате ZIP64 не поддерживается");
    total += uncompressed;
    if (total > limits.maxTotalUncompressed || uncompressed > Math.max(compressed, 1) * limits.maxRatio) {
      refuse("Файл .xlsx после распаковки слишком велик: он отклонен как небезопасный");
    }
    offset += 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
}
