// Apart from actions.ts so that play.ts, which actions.ts runs, can name it without an import circle.
/**
 * What one action ended with. `status` is the HTTP status, or a word for what is not HTTP:
 * "timeout", "network", "ws" (room send failed), "rejected" (room error message),
 * "undelivered" (chat never fanned out), "not_joined".
 */
export interface ActionOutcome {
  ok: boolean;
  status: number | string;
  message?: string;
  /** turns the server says this action consumed (turnResult.turnsConsumed) */
  turnsConsumed?: number;
  /** a game rule refused it (4xx with a rule's code): counted apart from errors */
  refused?: boolean;
  /** what it turned out to be (the strategy's intent kind): reported as `<action>:<kind>` */
  kind?: string;
}
