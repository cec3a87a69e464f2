import { describe } from "node:test";
import { UBL_TABLE } from "../../../../../lib/formats/validation/en16931/syntax/ubl_table.ts";
import { tableTests } from "./table_cases.ts";

describe("UBL syntax rule table: each rule broken by a generated document", () => tableTests("ubl", UBL_TABLE));
