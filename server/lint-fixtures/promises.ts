import { EventEmitter } from "node:events";

async function save(): Promise<number> {
  return 1;
}

/** A promise nobody awaits: its rejection would go unhandled. */
export function floating(): void {
  save();
}

/** An async listener where a void callback is expected: the emitter drops its rejection. */
export function misused(emitter: EventEmitter): void {
  emitter.on("event", async () => {
    await save();
  });
}

/** Kept: awaited, returned, or marked `void` on purpose. */
export async function kept(): Promise<number> {
  void save();
  await save();
  return save();
}
