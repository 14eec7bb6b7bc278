/** User text as plotly shows it, character for character. Plotly reads a subset of HTML in trace
 *  names (legend, hover), tick labels, titles, annotations and a Sankey's node labels (<a href>,
 *  <b>, <br>, <span style>, entities), so a calculation named <a href="…">…</a> would become a link:
 *  & < > become entities, which plotly turns back into the literal characters. Every user text in a
 *  figure goes through it. */
export const plotlyText = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
