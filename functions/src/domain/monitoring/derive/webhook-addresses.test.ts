// Where a webhook may post (R10 and R15): only public unicast addresses unless the operator
// named the receivers' networks or hosts; no IPv4 smuggled inside an IPv6 form. How a delivery keeps
// to the rule over HTTP and DNS is adapters/webhooks/http-webhook-transport.test.ts.
import { describe, expect, it } from "vitest";
import { addressAllowed, addressBytes, publicAddress, receiverAllowList } from "./webhook-addresses";

describe("an address's bytes", () => {
  it("reads IPv4, IPv6 with :: and an IPv4 tail, and nothing else", () => {
    expect([...addressBytes("10.1.2.3")!]).toEqual([10, 1, 2, 3]);
    expect([...addressBytes("::127.0.0.1")!]).toEqual([...new Array(12).fill(0), 127, 0, 0, 1]);
    expect([...addressBytes("[::ffff:7f00:1]")!]).toEqual([...new Array(10).fill(0), 255, 255, 127, 0, 0, 1]);
    expect([...addressBytes("64:ff9b::1.2.3.4")!].slice(0, 4)).toEqual([0, 0x64, 0xff, 0x9b]);
    expect([...addressBytes("fe80::1%eth0")!].slice(0, 2)).toEqual([0xfe, 0x80]);
    expect(addressBytes("1:2:3:4:5:6:7:8")!.length).toBe(16);
    for (const no of ["localhost", "10.1.2", "::g", "1.2.3.4/8", ""]) expect(addressBytes(no), no).toBeUndefined();
  });
});

describe("a public address", () => {
  it("is neither loopback, private, shared, link-local, documentation, multicast nor any IPv4 inside IPv6", () => {
    for (const yes of ["8.8.8.8", "93.184.216.34", "2a00:1450:4010:c0e::64", "2606:4700::1111"]) expect(publicAddress(yes), yes).toBe(true);
    for (const no of [
      "0.0.0.0",
      "10.0.0.1",
      "100.64.0.1",
      "127.0.0.1",
      "127.255.255.254",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.0.2.1",
      "192.168.1.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::7f00:1",
      "::127.0.0.1",
      "::8.8.8.8",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:8.8.8.8",
      "::ffff:0:7f00:1",
      "64:ff9b::7f00:1",
      "64:ff9b::8.8.8.8",
      "64:ff9b:1::a00:1",
      "2002:7f00:1::1",
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:80ff:fffe",
      "2001:db8::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "fec0::1",
      "ff02::1",
      "100::1",
      "not an address",
    ])
      expect(publicAddress(no), no).toBe(false);
  });

  it("is allowed beside what the operator named, an IPv4-mapped address as its IPv4 one", () => {
    const allow = receiverAllowList(["10.20.0.0/16", "192.168.5.7", "fd00:abcd::/32", "agk.mine.local."]);
    expect(allow.hosts.has("agk.mine.local")).toBe(true);
    for (const yes of ["10.20.1.1", "::ffff:10.20.1.1", "192.168.5.7", "fd00:abcd::5", "8.8.8.8"])
      expect(addressAllowed(yes, allow), yes).toBe(true);
    for (const no of ["10.21.0.1", "192.168.5.8", "127.0.0.1", "169.254.169.254", "::ffff:127.0.0.1", "64:ff9b::a14:101"])
      expect(addressAllowed(no, allow), no).toBe(false);
    expect(addressAllowed("127.0.0.1", receiverAllowList([]))).toBe(false);
  });

  it("refuses an entry that is no network, address or host name, naming it", () => {
    for (const bad of ["10.0.0.0/33", "10.0.0.0/x", "http://agk/", "10.0.0.0/8/1", "агк"])
      expect(() => receiverAllowList([bad]), bad).toThrow(new RegExp(bad.replace(/[/.]/g, "\\$&")));
    expect(receiverAllowList([" ", ""]).any).toBe(false);
  });
});
