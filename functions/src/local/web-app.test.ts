import { describe, expect, it } from "vitest";
import { preferredEncoding } from "./web-app";

describe("preferredEncoding", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["br", "br"],
    ["gzip, deflate", "gzip"],
    ["x-gzip", "gzip"],
    ["gzip, br;q=0", "gzip"],
    ["br;q=0.5, gzip;q=0.9", "gzip"],
    ["br;q=1.0, gzip;q=1.0", "br"],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["GZIP", "gzip"],
  ] as const)("%s → %s", (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });

  it.each([undefined, "", "identity", "deflate", "br;q=0, gzip;q=0", "*;q=0", "br;q=abc"])("%s → the file as it is", (header) => {
    expect(preferredEncoding(header)).toBeUndefined();
  });
});
