import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { catalogueApiDocument, renderApiMarkdown } from "../http/apiDocs.js";

/** npm run docs:api: writes docs/api.md from the catalogue's OpenAPI document. */
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../docs/api.md");
fs.writeFileSync(target, renderApiMarkdown(catalogueApiDocument()));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
