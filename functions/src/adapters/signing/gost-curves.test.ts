// The GOST R 34.10-2012 curves as transcribed from gost-engine's gost_params.c: each base point lies
// on its curve and has the order q the parameter set states (q·G is the point at infinity, (q − 1)·G
// is −G), the cofactor times q is within Hasse's bound of p + 1; and the signature equation refuses
// what gost_ec_verify refuses.
import { describe, expect, it } from "vitest";
import { GOST_CURVES, basePoint, gostVerify, invert, mod, multiply, multiplyAdd, onCurve } from "./gost-curves";

describe("the GOST R 34.10-2012 curves", () => {
  it.each(Object.entries(GOST_CURVES))("%s: G on the curve, q·G = O, (q − 1)·G = −G, #E = h·q within Hasse's bound", (_oid, curve) => {
    const G = basePoint(curve);
    expect(onCurve(curve, G)).toBe(true);
    expect(multiply(curve, curve.q, G)).toBeNull();
    expect(multiply(curve, curve.q - 1n, G)).toEqual({ x: curve.x, y: mod(-curve.y, curve.p) });
    expect(multiply(curve, curve.q + 1n, G)).toEqual(G);
    const order = curve.cofactor * curve.q;
    const trace = curve.p + 1n - order;
    expect(trace * trace <= 4n * curve.p).toBe(true);
    expect(curve.p.toString(16).length).toBe(curve.size * 2);
  });

  it("finds a point off the curve and a wrong order: a changed coefficient or point fails the checks above", () => {
    const curve = GOST_CURVES["1.2.643.7.1.2.1.2.1"];
    expect(onCurve({ ...curve, b: curve.b + 1n }, basePoint(curve))).toBe(false);
    expect(multiply(curve, curve.q - 1n, basePoint(curve))).not.toBeNull();
    expect(multiply({ ...curve, q: curve.q + 2n }, curve.q + 2n, basePoint(curve))).not.toBeNull();
  });

  it("verifies a signature made by the equation's inverse, and refuses r or s out of (0, q), a changed digest or key", () => {
    for (const oid of ["1.2.643.7.1.2.1.1.1", "1.2.643.2.2.35.1", "1.2.643.7.1.2.1.2.3"]) {
      const curve = GOST_CURVES[oid];
      const d = 0x1234567890abcdefn % curve.q;
      const Q = multiply(curve, d, basePoint(curve));
      const digest = Uint8Array.from({ length: curve.size }, (_, i) => (i * 37 + 11) & 255);
      // Sign as GOST R 34.10 does: C = k·G, r = x_C mod q, s = (r·d + k·e) mod q, e read little-endian.
      const e = mod(BigInt(`0x${Buffer.from(digest).reverse().toString("hex")}`), curve.q) || 1n;
      const k = 0xfeedfacecafebeefn;
      const C = multiply(curve, k, basePoint(curve));
      const r = mod(C!.x, curve.q);
      const s = mod(r * d + k * e, curve.q);
      expect(gostVerify(curve, Q, digest, r, s)).toBe(true);
      expect(
        gostVerify(
          curve,
          Q,
          Uint8Array.from(digest, (b, i) => (i === 0 ? b ^ 1 : b)),
          r,
          s,
        ),
      ).toBe(false);
      expect(gostVerify(curve, multiply(curve, d + 1n, basePoint(curve)), digest, r, s)).toBe(false);
      expect(gostVerify(curve, Q, digest, 0n, s)).toBe(false);
      expect(gostVerify(curve, Q, digest, r, curve.q)).toBe(false);
      expect(gostVerify(curve, Q, digest, r + curve.q, s)).toBe(false);
      expect(gostVerify(curve, { x: Q!.x, y: Q!.y + 1n }, digest, r, s)).toBe(false);
    }
  });

  it("computes k1·P1 + k2·P2 as the sum of the two products, and inverses mod q", () => {
    const curve = GOST_CURVES["1.2.643.2.2.35.2"];
    const G = basePoint(curve);
    const P = multiply(curve, 77n, G);
    const viaSum = multiplyAdd(curve, 5n, G, 3n, P);
    expect(viaSum).toEqual(multiply(curve, 5n + 3n * 77n, G));
    expect(mod(invert(12345n, curve.q) * 12345n, curve.q)).toBe(1n);
    expect(() => invert(0n, curve.q)).toThrow(/not invertible/);
  });
});
