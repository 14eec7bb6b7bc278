// 8.1: the coal a facility mined in the year, read from its counted lines: mining and post-mining
// take the same coal, so the coal mined is the mining lines' volume (the post-mining lines' where
// there are none), underground and open pit apart. The passport prints it; the trend divides by it.
import type { InventoryCalculation } from "./types";

type CoalLine = Pick<InventoryCalculation, "type" | "ipcc_code" | "coefficients">;

export interface CoalMined {
  underground_t?: number;
  open_pit_t?: number;
}

const volumeOf = (line: CoalLine) => line.coefficients?.volume?.value ?? 0;
const sumOf = (lines: readonly CoalLine[]) => lines.reduce((sum, line) => sum + volumeOf(line), 0);

/** The coal mined by one facility's counted lines (a field absent: no line of that kind). */
export function coalMinedOf(lines: readonly CoalLine[]): CoalMined {
  const of = (type: string, ipcc?: string) => lines.filter((l) => l.type === type && (!ipcc || l.ipcc_code === ipcc));
  const tonnes = (mining: CoalLine[], after: CoalLine[]) => {
    const own = mining.length > 0 ? mining : after;
    return own.length > 0 ? sumOf(own) : undefined;
  };
  const underground = tonnes(of("underground_emission_ch4"), of("handling_underground_ch4"));
  const openPit = tonnes(of("open_mining_ch4", "1.B.1.a.ii.1"), of("open_mining_ch4", "1.B.1.a.ii.2"));
  return {
    ...(underground !== undefined ? { underground_t: underground } : {}),
    ...(openPit !== undefined ? { open_pit_t: openPit } : {}),
  };
}
