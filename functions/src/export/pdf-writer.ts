// A text PDF written in memory (the abatement assessment's, the shift's report): A4 in the
// passport's fonts (the regular face by its path, the bold one registered as "Bold"), in Russian,
// dated by the document's own moment; its headings and lines run across the page's width.
import PDFDocument from "pdfkit";
import { fileURLToPath } from "node:url";
import { PASSPORT_FONTS } from "./formats";

export const fontFile = (name: string) => fileURLToPath(new URL(`./${PASSPORT_FONTS.dir}/${name}`, import.meta.url));

interface Page {
  margin: number;
  layout?: "portrait" | "landscape";
}

export function textPdf(title: string, created: Date, page: Page) {
  const font = fontFile(PASSPORT_FONTS.regular);
  const doc = new PDFDocument({
    size: "A4",
    ...page,
    font,
    lang: "ru-RU",
    info: { Title: title, Creator: "Цифровая платформа расчета неорганизованных выбросов", CreationDate: created },
  });
  const chunks: Buffer[] = [];
  const written = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.registerFont("Bold", fontFile(PASSPORT_FONTS.bold));
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  return {
    doc,
    font,
    left,
    width,
    /** A bold heading of `size` pt, then back to the regular 9 pt. */
    heading: (text: string, size = 12) =>
      doc.moveDown(0.5).font("Bold").fontSize(size).text(text, left, undefined, { width }).font(font).fontSize(9),
    /** A paragraph of 9 pt text. */
    line: (text: string) => doc.font(font).fontSize(9).text(text, left, undefined, { width }),
    /** The signature lines of a paper the mine signs: each person's, «подпись» and «ФИО» to write in. */
    signatures(who: readonly string[]) {
      doc.moveDown(1.5);
      for (const person of who) {
        doc
          .font(font)
          .fontSize(10)
          .text(`${person}: ____________________ (подпись)   ______________________________ (ФИО)`, left, undefined, { width });
        doc.moveDown(1);
      }
    },
    /** Ends the document: its bytes. */
    async bytes(): Promise<Uint8Array> {
      doc.end();
      return new Uint8Array(await written);
    },
  };
}
