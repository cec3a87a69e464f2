import { describe } from "node:test";
import { CII_TABLE } from "../../../../../lib/formats/validation/en16931/syntax/cii_table.ts";
import { tableTests } from "./table_cases.ts";

describe("CII syntax rule table: each rule broken by a generated document", () => tableTests("cii", CII_TABLE));
