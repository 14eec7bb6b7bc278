// with HOST=0.0.0.0 the start banner printed «URL: http://127.0.0.1:…», which no
// other machine reaches; it prints the URL at each external address, then this machine's.
import { expect, it } from "vitest";
import { reachableUrls, startBanner } from "./seed";

const INTERFACES = {
  lo: [{ address: "127.0.0.1", family: "IPv4", internal: true }],
  eth0: [
    { address: "10.20.0.15", family: "IPv4", internal: false },
    { address: "fe80::1", family: "IPv6", internal: false },
  ],
  wlan0: [{ address: "192.168.1.7", family: 4, internal: false }],
};

it("names the machine's external addresses where the server listens on every interface", () => {
  expect(reachableUrls("http://127.0.0.1:8000", "0.0.0.0", INTERFACES)).toEqual([
    "http://10.20.0.15:8000",
    "http://192.168.1.7:8000",
    "http://127.0.0.1:8000",
  ]);
  expect(reachableUrls("https://127.0.0.1:8443", "::", INTERFACES)[0]).toBe("https://10.20.0.15:8443");
  expect(reachableUrls("http://127.0.0.1:8000", "127.0.0.1", INTERFACES)).toEqual(["http://127.0.0.1:8000"]);
  const banner = startBanner(
    reachableUrls("http://127.0.0.1:8000", "0.0.0.0", INTERFACES),
    "/data",
    { email: "", password: "" } as never,
    undefined,
    [],
  );
  expect(banner.slice(2, 5)).toEqual([
    "  URL:    http://10.20.0.15:8000",
    "          http://192.168.1.7:8000",
    "          http://127.0.0.1:8000 (с этого компьютера)",
  ]);
});
