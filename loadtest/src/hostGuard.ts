/**
 * The load tester only fires at machines the operator owns: loopback by default, or a host
 * named explicitly with --allow-host. A typo in --url must never load someone else's server.
 */

/** Thrown when a target URL is refused; the CLI prints its message and exits 2. */
export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetRefusedError";
  }
}

/** URL hostnames keep IPv6 brackets ("[::1]"); compare without them, lower-case. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

function ipv4Octets(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/**
 * True for 127.0.0.0/8, localhost (and names under .localhost, RFC 6761), ::1 and IPv4-mapped
 * loopback (::ffff:127.x.y.z). Expects a hostname already normalised by the WHATWG URL parser,
 * which turns "127.1", "0x7f.0.0.1" and "[0:0:0:0:0:0:0:1]" into their canonical forms.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname).replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1") return true;
  const v4 = ipv4Octets(host);
  if (v4) return v4[0] === 127;
  // IPv4-mapped IPv6 (the URL parser prints the tail as two hex groups: ::ffff:7f00:1)
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) return parseInt(mapped[1]!, 16) >> 8 === 127;
  const mappedDotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mappedDotted) return ipv4Octets(mappedDotted[1]!)?.[0] === 127;
  return false;
}

/**
 * Parses and checks the target. Accepts http(s) URLs whose host is loopback or listed in
 * `allowHosts` (exact host match, case-insensitive, brackets optional for IPv6).
 * @returns the parsed URL with any path, query and fragment removed
 */
export function checkTarget(rawUrl: string, allowHosts: readonly string[] = []): URL {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new TargetRefusedError(`Invalid --url "${rawUrl}": expected http://host:port`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TargetRefusedError(`Refusing --url "${rawUrl}": only http and https targets are supported`);
  }
  if (url.username || url.password) {
    throw new TargetRefusedError(`Refusing --url "${rawUrl}": credentials in the URL are not supported`);
  }
  const host = bareHost(url.hostname);
  const allowed = allowHosts.map(bareHost);
  if (!isLoopbackHost(host) && !allowed.includes(host)) {
    throw new TargetRefusedError(`Refusing to load ${url.host}: it is not a loopback address (127.0.0.0/8, localhost, ::1). ` + `If you operate that server, name it explicitly: --allow-host ${host}`);
  }
  return new URL(url.origin);
}
