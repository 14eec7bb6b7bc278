// A server process's wall clock moved, preloaded with `--import` (the holding bench): Date.now() and
// new Date() read SHIFTED_CLOCK_MS later than the system's, running at SHIFTED_CLOCK_RATE (1 by default;
// 0,01 is a clock-second a real 100 s) from the process's start. The server's domain reads this clock
// (systemClock is new Date()), and its readings' consumer thread runs on the time each drain is asked
// at; performance.now() is left alone, so timers, paces and durations keep real time.
const shift = Number(process.env.SHIFTED_CLOCK_MS ?? 0);
const rate = Number(process.env.SHIFTED_CLOCK_RATE ?? 1);
const System = Date;
const started = System.now();
const now = () => Math.floor(started + shift + rate * (System.now() - started));

class ShiftedDate extends System {
  constructor(...args) {
    if (args.length === 0) super(now());
    else super(...args);
  }
  static now() {
    return now();
  }
}
globalThis.Date = ShiftedDate;
