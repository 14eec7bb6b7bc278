// a PDF's narrow column breaks a Russian word only where the rules of Russian
// hyphenation allow, and marks the break with a hyphen (PDFKit cut a word longer than its column at
// whatever letter filled the line, «Разгерметиз|ация», with no hyphen). The cell's text is wrapped here,
// line by line, and handed to PDFKit with its line breaks, each line narrower than the column.
//
// Where a word may break («Правила русской орфографии и пунктуации», 1956, §§ 79–85, as the rules of
// hyphenation are commonly taught) [A]: by syllables — each part holds a vowel; no single letter is left
// on a line or carried over; й, ь and ъ stay with the letter before; a consonant is not torn from the
// vowel after it («стра-ни-ца», never «стран-ица»); of a cluster of consonants, which the rules let
// break anywhere («сест-ра», «сес-тра», «се-стра»), the break follows its first consonant, as the
// simple syllabic hyphenators do («сес-тра», «рас-следовал»). Abbreviations (two or more capitals: АГК, ВМП), words with digits or
// Latin letters, and numbers are not hyphenated; a word with its own hyphen («М-7», «Иванова-Петрова»)
// breaks after it. The morphemic rules (a prefix's last consonant, «под-бежать») need a dictionary and are
// not applied: a break allowed by syllables may fall inside a prefix [A]. A word that fits no line even
// at its last allowed break is broken at a letter with a hyphen — past any column only a code does so.

const VOWELS = "аеёиоуыэюяАЕЁИОУЫЭЮЯ";
const SIGNS = "йьъЙЬЪ";
const CYRILLIC = /^[а-яёА-ЯЁ]+$/;
const HYPHEN = "-";

const isVowel = (c: string) => VOWELS.includes(c);
const hasVowel = (part: string) => [...part].some(isVowel);

/** The positions (1 … length − 1) at which a Russian word may break, ascending; none for a word that is
 *  not one (an abbreviation, a number, a code). */
export function hyphenPoints(word: string): number[] {
  if (!CYRILLIC.test(word) || word.length < 4) return [];
  // An abbreviation: two or more capitals.
  if ((word.match(/[А-ЯЁ]/g) ?? []).length > 1) return [];
  const points: number[] = [];
  for (let i = 2; i <= word.length - 2; i++) {
    const before = word[i - 1];
    const after = word[i];
    if (SIGNS.includes(after)) continue;
    if (!hasVowel(word.slice(0, i)) || !hasVowel(word.slice(i))) continue;
    // A consonant stays with the vowel after it; й, ь and ъ may end a part.
    if (!isVowel(before) && !SIGNS.includes(before) && isVowel(after)) continue;
    // Of a cluster of consonants between two vowels, the break follows its first consonant (with its
    // й, ь or ъ): «сес-тра», «рас-следовал», «длитель-ность», «подъ-езд», «май-ка».
    if (!isVowel(after)) {
      let start = i;
      while (start > 0 && !isVowel(word[start - 1])) start--;
      let end = i;
      while (end < word.length && !isVowel(word[end])) end++;
      // A й after the vowel is the vowel's («май-ка»); one consonant goes to the next part («стра-ни-ца»).
      let point = start;
      while (point < end && SIGNS.includes(word[point])) point++;
      if ([...word.slice(point, end)].filter((c) => !SIGNS.includes(c)).length > 1) {
        point++;
        while (point < end && SIGNS.includes(word[point])) point++;
      }
      if (i !== point) continue;
    }
    points.push(i);
  }
  return points;
}

/** Measures a string's width in the font and size in use (PDFKit's `widthOfString`). */
export type Measure = (text: string) => number;

/** The longest head of `word` that fits `room` with its hyphen, and the tail; undefined where none fits.
 *  A word of letters breaks at its hyphenation points; a compound one after its own hyphen first. */
function headThatFits(word: string, room: number, measure: Measure): { head: string; tail: string } | undefined {
  // After its own hyphen where each side holds two letters or more («Иванова-|Петрова», never «М-|7»).
  const letters = (part: string) => (part.match(/[а-яёА-ЯЁa-zA-Z]/g) ?? []).length;
  const own = [...word.matchAll(/-/g)]
    .map((m) => (m.index ?? 0) + 1)
    .filter((i) => letters(word.slice(0, i)) >= 2 && letters(word.slice(i)) >= 2);
  for (const i of own.reverse()) if (measure(word.slice(0, i)) <= room) return { head: word.slice(0, i), tail: word.slice(i) };
  // The letters of the word (its first run of letters between punctuation, «(Исходящая» → «Исходящая»).
  const match = /[а-яёА-ЯЁ]+/.exec(word);
  if (!match) return undefined;
  const offset = match.index;
  const points = hyphenPoints(match[0]).map((p) => p + offset);
  for (const i of points.reverse())
    if (measure(word.slice(0, i) + HYPHEN) <= room) return { head: word.slice(0, i) + HYPHEN, tail: word.slice(i) };
  return undefined;
}

/** `text` wrapped to lines no wider than `width`: words kept whole where they fit, else broken where
 *  Russian hyphenation allows (with «-»); its own line breaks kept. */
export function wrapText(text: string, width: number, measure: Measure): string {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    const push = () => {
      out.push(line);
      line = "";
    };
    for (const whole of paragraph.split(" ")) {
      let word = whole;
      for (;;) {
        const joined = line === "" ? word : `${line} ${word}`;
        if (measure(joined) <= width) {
          line = joined;
          break;
        }
        // A word that fits a line of its own goes there whole.
        if (line !== "" && measure(word) <= width) {
          push();
          continue;
        }
        // One that fits none breaks where it may, filling the line.
        const split = headThatFits(word, width - (line === "" ? 0 : measure(`${line} `)), measure);
        if (split) {
          line = line === "" ? split.head : `${line} ${split.head}`;
          push();
          word = split.tail;
          continue;
        }
        if (line !== "") {
          push();
          continue;
        }
        // Alone on a line and no allowed break fits: a code or a number, cut at a letter with a hyphen.
        let cut = word.length - 1;
        while (cut > 1 && measure(word.slice(0, cut) + HYPHEN) > width) cut--;
        if (cut < 1) {
          line = word;
          break;
        }
        line = word.slice(0, cut) + HYPHEN;
        push();
        word = word.slice(cut);
      }
    }
    push();
  }
  return out.join("\n");
}
