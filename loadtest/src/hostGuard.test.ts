import { describe, expect, it } from "vitest";
import { checkTarget, isLoopbackHost, TargetRefusedError } from "./hostGuard.js";

describe("checkTarget (host guard)", () => {
  it.each([
    "http://127.0.0.1:3000",
    "http://127.255.10.3:80",
    "http://localhost:3100",
    "http://LOCALHOST:3100/",
    "http://api.localhost:3000",
    "http://[::1]:3000",
    "http://[0:0:0:0:0:0:0:1]:3000",
    "http://[::ffff:127.0.0.1]:3000",
    "http://127.1:3000", // the URL parser reads it as 127.0.0.1
    "http://2130706433:3000", // 127.0.0.1 as one number
    "https://127.0.0.1",
  ])("accepts loopback %s", (url) => {
    expect(() => checkTarget(url)).not.toThrow();
  });

  it.each([
    "http://10.0.0.5:3000",
    "http://192.168.1.10",
    "http://0.0.0.0:3000",
    "http://128.0.0.1",
    "http://example.com",
    "http://localhost.example.com",
    "http://127.0.0.1.nip.io",
    "http://[::2]:3000",
    "http://[::ffff:10.0.0.1]:3000",
    "http://126.255.255.255",
  ])("refuses non-loopback %s", (url) => {
    expect(() => checkTarget(url)).toThrow(TargetRefusedError);
  });

  it("tells the operator how to allow a host they run", () => {
    expect(() => checkTarget("http://10.0.0.5:3000")).toThrow(/--allow-host 10\.0\.0\.5/);
  });

  it("allows exactly the hosts named with --allow-host", () => {
    expect(checkTarget("http://staging.internal:3000", ["staging.internal"]).origin).toBe("http://staging.internal:3000");
    expect(checkTarget("http://STAGING.internal:3000", ["staging.INTERNAL"]).host).toBe("staging.internal:3000");
    expect(checkTarget("http://[fd00::5]:3000", ["fd00::5"]).hostname).toBe("[fd00::5]");
    expect(() => checkTarget("http://other.internal:3000", ["staging.internal"])).toThrow(TargetRefusedError);
    expect(() => checkTarget("http://staging.internal.evil.com", ["staging.internal"])).toThrow(TargetRefusedError);
  });

  it("refuses other protocols, credentials and garbage", () => {
    expect(() => checkTarget("ftp://127.0.0.1")).toThrow(TargetRefusedError);
    expect(() => checkTarget("http://user:pw@127.0.0.1")).toThrow(TargetRefusedError);
    expect(() => checkTarget("not a url")).toThrow(TargetRefusedError);
  });

  it("returns the origin only", () => {
    expect(checkTarget("http://127.0.0.1:3000/api/health?x=1").href).toBe("http://127.0.0.1:3000/");
  });

  it("isLoopbackHost handles bracketed and trailing-dot forms", () => {
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("localhost.")).toBe(true);
    expect(isLoopbackHost("127.0.0.256")).toBe(false);
  });
});
