// SQL with values is built in db/: the escaping functions and Statement stay there.
import { sqlLiteral, type SqlLiteral } from "../db/sqlLiteral.js";
import { Statement } from "../db/statement.js";
import { countryContextQuery } from "../db/countries.js";
export const forged = "1" as SqlLiteral;
export const x = [sqlLiteral, Statement, countryContextQuery] as const;
