export * from "./common.js";
export * from "./auth.js";
export * from "./countries.js";
export * from "./economy.js";
export * from "./world.js";
export * from "./countryFields.js";
export * from "./military.js";
