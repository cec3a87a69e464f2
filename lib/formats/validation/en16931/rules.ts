/**
 * The EN 16931 business rules over a parsed UBL or CII document: the semantic
 * rules (`BR-*`, `BR-CO-*`, VAT categories, `BR-DEC-*`) and the syntax-bound ones
 * (`UBL-*`, `CII-*`, code lists `BR-CL-*`), as the CEN/TC 434 validation artefacts define them.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Violation } from "../violation.ts";
import { checkSemanticRules } from "./semantic.ts";
import { checkSyntaxRules, syntaxRuleSet } from "./syntax.ts";
import { shareRuleNamespaces } from "./syntax/paths.ts";

/** The release of the CEN/TC 434 validation artefacts these rules follow. */
export const EN16931_ARTEFACTS_VERSION = "1.3.16";

/** The syntaxes the rules are defined for. */
export type En16931Syntax = "ubl" | "cii";

/**
 * Specification identifiers (BT-24) of CIUSs and extensions that do not start with
 * the EN 16931 URN: Peppol BIS Billing 3.0, XRechnung before 2.0, and the
 * Factur-X / ZUGFeRD profiles EN 16931 ("COMFORT" in ZUGFeRD 2.0) and EXTENDED.
 * MINIMUM and BASIC WL are not EN 16931 invoices (Factur-X 1.0 specification, profiles).
 */
const CIUS_MARKERS = [
  "urn:fdc:peppol.eu:2017:poacc:billing:",
  "urn:xoev-de:kosit:standard:xrechnung",
  "urn:factur-x.eu:1p0:en16931",
  "urn:factur-x.eu:1p0:extended",
  "urn:zugferd.de:2p0:en16931",
  "urn:zugferd.de:2p0:comfort",
  "urn:zugferd.de:2p0:extended",
] as const;

const UBL_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
const CII_RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const CII_RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";

function _child(el: XmlElement | null, ns: string, local: string): XmlElement | null {
  if (el === null) return null;
  for (const c of el.children) if (c.local === local && c.ns === ns) return c;
  return null;
}

/** The document's specification identifier (BT-24), trimmed; "" when absent. */
export function specificationIdentifier(root: XmlElement, syntax: En16931Syntax): string {
  const el =
    syntax === "ubl"
      ? _child(root, UBL_CBC, "CustomizationID")
      : _child(_child(_child(root, CII_RSM, "ExchangedDocumentContext"), CII_RAM, "GuidelineSpecifiedDocumentContextParameter"), CII_RAM, "ID");
  return el === null ? "" : el.text.trim();
}

/** True when the document's specification identifier claims EN 16931 (or a CIUS or extension of it). */
export function claimsEn16931(root: XmlElement, syntax: En16931Syntax): boolean {
  const id = specificationIdentifier(root, syntax).toLowerCase();
  if (id.startsWith("urn:cen.eu:en16931:2017")) return true;
  return CIUS_MARKERS.some((m) => id.startsWith(m));
}

/**
 * Every EN 16931 rule the document breaks, with the artefacts' ids and severities. The tree's namespace URIs are
 * swapped for the rules' equal strings first (syntax/paths.ts shareRuleNamespaces): no value changes.
 */
export function checkEn16931(root: XmlElement, syntax: En16931Syntax): Violation[] {
  syntaxRuleSet(syntax); // compiled first: the rules' names are known from then on
  shareRuleNamespaces(root);
  return [...checkSemanticRules(root, syntax), ...checkSyntaxRules(root, syntax)];
}
