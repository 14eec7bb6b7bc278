// Numbers written the Russian way, as the web app writes them: a decimal comma, thousands grouped by
// a no-break space (2 662,48). For every text the server writes: exports, passports, messages.

const GROUP = "\u00a0";

/** Half away from zero through the decimal exponent (1.005 → 1,01), like the web's formatResult. */
export function formatNumber(value: number, decimals: number, grouping = true): string {
  const shift = (v: number, by: number) => {
    const [mantissa, exponent = "0"] = String(v).split("e");
    return Number(`${mantissa}e${Number(exponent) + by}`);
  };
  const rounded = Math.sign(value) * shift(Math.round(shift(Math.abs(value), decimals)), -decimals);
  const plain = (Object.is(rounded, -0) ? 0 : rounded).toFixed(decimals);
  const [, sign, whole, fraction] = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain) ?? [];
  if (whole === undefined) return plain;
  const grouped = grouping ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP) : whole;
  return `${sign}${grouped}${fraction === undefined ? "" : `,${fraction}`}`;
}
