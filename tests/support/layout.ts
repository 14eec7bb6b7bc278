// What a browser test reads of a screen's layout at a width: words the browser broke across two lines
// (mid-word), how far the page scrolls sideways, and whether an element is wholly in sight (not cut by
// its table's scroll box or the window).
import type { Locator, Page } from "playwright-core";

/** Headings, card titles and the header: where web-responsive.test.ts looks for broken words. */
export const HEADINGS = "h1, h2, h3, h4, .ant-card-head-title, .ant-layout-header";

/** Words inside `selector` that the browser broke across two lines (mid-word). A break after a hyphen
 *  or a slash is the browser's own break opportunity, not a word cut: «24-15» and «м³/мин» may wrap there. */
export const brokenWords = (page: Page, selector = HEADINGS) =>
  page.evaluate((selector) => {
    const broken: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        // A word, or one part of a hyphenated word or a unit: breaking after a hyphen or slash is fine.
        for (const match of text.matchAll(/[^\s/-]+[/-]?/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  }, selector);

/** How many pixels the page scrolls sideways beyond the window (0: none). */
export const pageOverflow = (page: Page) => page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));

/** Whether the element is wholly in sight: inside the window's width and inside every box around it
 *  that clips what overflows (a table's scroll box, a card), as the page is scrolled now. */
export const wholly = (target: Locator) =>
  target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.left < 0 || box.right > window.innerWidth + 0.5) return false;
    for (let up = element.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX === "visible") continue;
      const around = up.getBoundingClientRect();
      if (box.left < around.left - 0.5 || box.right > around.right + 0.5) return false;
    }
    return true;
  });
