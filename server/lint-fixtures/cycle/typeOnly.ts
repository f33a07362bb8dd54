// A type-only import cannot run in a circle: the cycle rule lets it pass.
import type { TypeOnlyPartner } from "./typeOnlyPartner.js";
export interface TypeOnly {
  partner?: TypeOnlyPartner;
}
