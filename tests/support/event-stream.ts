// A server-sent event stream read in a test (GET v1/telemetry/live/stream/): its text as it comes, and
// a wait for the state the page waits for (a pattern in the text), never for time.
export interface EventStreamText {
  /** Reads on until `pattern` is in the text or the stream ends: whether it is. */
  until(pattern: RegExp): Promise<boolean>;
  /** What came so far. */
  text(): string;
}

export function eventStreamText(res: Response): EventStreamText {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return {
    async until(pattern) {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      return pattern.test(text);
    },
    text: () => text,
  };
}
