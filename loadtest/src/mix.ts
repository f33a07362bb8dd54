import fs from "node:fs";
import { ACTIONS_BY_NAME, defaultMix } from "./actions.js";

/** Action name -> relative weight. */
export type Mix = Record<string, number>;

function validate(mix: Mix, source: string): Mix {
  const known = [...ACTIONS_BY_NAME.keys()];
  for (const [name, weight] of Object.entries(mix)) {
    if (!ACTIONS_BY_NAME.has(name)) throw new Error(`Unknown action "${name}" in ${source}; known actions: ${known.join(", ")}`);
    if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0) throw new Error(`Weight of "${name}" in ${source} must be a number >= 0`);
  }
  if (!Object.values(mix).some((w) => w > 0)) throw new Error(`The mix in ${source} has no positive weight`);
  return mix;
}

/**
 * A mix from `--mix explore=3,build=1,chat=1` (actions not named get weight 0), from a JSON
 * file `{ "explore": 3, "build": 1 }` (`--mix-file`), or the default mix when neither is given.
 */
export function resolveMix(spec?: string, file?: string): Mix {
  if (spec && file) throw new Error("Give --mix or --mix-file, not both");
  if (file) {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`${file} must hold a JSON object of action weights`);
    return validate({ ...(parsed as Mix) }, file);
  }
  if (spec) {
    const mix: Mix = {};
    for (const part of spec
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean)) {
      const match = /^([a-z_]+)\s*[=:]\s*([0-9.]+)$/.exec(part);
      if (!match) throw new Error(`Bad --mix entry "${part}": expected name=weight`);
      mix[match[1]!] = Number(match[2]);
    }
    return validate(mix, "--mix");
  }
  return defaultMix();
}

/** Weights as percentages of the total, for the report. */
export function mixPercentages(mix: Mix): Record<string, number> {
  const total = Object.values(mix).reduce((a, b) => a + b, 0);
  return Object.fromEntries(
    Object.entries(mix)
      .filter(([, w]) => w > 0)
      .map(([name, w]) => [name, Math.round((w / total) * 1000) / 10]),
  );
}
