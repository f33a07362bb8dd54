/**
 * Platform for multi-country play: the periods each periodic tick phase has run for (one row
 * per phase and period, written in the tick's transaction, so a daily phase runs once per
 * day however many ticks are retried or caught up). Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE tick_phase_periods (
  phase       text NOT NULL,
  -- floor(time / period length): for daily phases, days since the epoch (UTC)
  period      bigint NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (phase, period)
);
`;
