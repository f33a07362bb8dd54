import type { TypeOnly } from "./typeOnly.js";
export interface TypeOnlyPartner {
  owner?: TypeOnly;
}
