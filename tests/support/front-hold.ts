// The longest stretch this thread's event loop ran without a turn back to its poll: on a shared machine
// a timer's lateness (monitorEventLoopDelay) counts the turns the system gave other threads too, while the
// loop's busy time between two ticks (eventLoopUtilization) counts only what held it. The app threads'
// test (a server in this process, its front thread this one) reads it.
import { performance } from "node:perf_hooks";

export function watchHolds(): { stop(): number } {
  let last = performance.eventLoopUtilization();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    longest = Math.max(longest, performance.eventLoopUtilization(now, last).active);
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return longest;
    },
  };
}
