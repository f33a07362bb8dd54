import pino from "pino";

/** The one logger. Child loggers carry countryId, roomId and sessionId fields. */
export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({ level, base: { pid: process.pid } });
}

/**
 * What a client did wrong, recognised in a message Colyseus logs as an error: a frame the
 * WebSocket library refused (too large, invalid opcode, bad UTF-8, unmasked) or a room message
 * whose MessagePack did not decode. Answers the first line, or undefined for anything else.
 */
export function clientMistake(text: string): string | undefined {
  const firstLine = text.split("\n", 1)[0]!;
  if (/^(RangeError: |Error: )?(Max payload size exceeded|Invalid WebSocket frame)/.test(firstLine)) return firstLine;
  // the frame the error was thrown in: a decoder fed bytes that came straight from a client
  const thrownIn = /\n\s+at .*/.exec(text)?.[0] ?? "";
  if (/[\\/]node_modules[\\/]msgpackr[\\/]/.test(thrownIn)) return firstLine;
  return undefined;
}

/**
 * The logger Colyseus writes through (Server option `logger`). Colyseus reports everything
 * that goes wrong around a room, our faults and clients' mistakes alike, as `error` with a
 * stack (Debug.ts, debugAndPrintError). Clients' mistakes become one `warn` line without a
 * stack, counted through `onClientMistake`; errors stay for our own faults.
 */
export function colyseusLogger(logger: Logger, onClientMistake?: (reason: string) => void) {
  const log = logger.child({ component: "colyseus" });
  const text = (arg: unknown) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg));
  return {
    debug: (...args: unknown[]) => log.debug(args.map(text).join(" ")),
    info: (...args: unknown[]) => log.info(args.map(text).join(" ")),
    trace: (...args: unknown[]) => log.trace(args.map(text).join(" ")),
    warn: (...args: unknown[]) => log.warn(args.map(text).join(" ")),
    error: (...args: unknown[]) => {
      const message = args.map(text).join(" ");
      const mistake = clientMistake(message);
      if (mistake === undefined) {
        log.error(message);
        return;
      }
      onClientMistake?.(mistake);
      log.warn({ reason: mistake.slice(0, 200) }, "client sent a malformed WebSocket frame");
    },
  };
}
