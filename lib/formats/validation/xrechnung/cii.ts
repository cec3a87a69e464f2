import type { XmlElement } from "../../xml/tree.ts";
import type { Report } from "../en16931/semantic_report.ts";
export function checkXrechnungCii(_root: XmlElement, _r: Report): void {}
