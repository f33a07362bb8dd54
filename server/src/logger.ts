import pino from "pino";

/** The one logger. Child loggers carry countryId, roomId and sessionId fields. */
export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({ level, base: { pid: process.pid } });
}
