/**
 * What an invoice writer gives back (README "Creating invoices"): the XML it wrote and the values of the invoice
 * object the target format has no place for, so that a conversion can list them instead of dropping them silently.
 * @module
 */

/** A value of the invoice object that the written format cannot carry. */
export interface WriteLoss {
  /** Invoice-object path of the value, as `lines[2].gtu` or `seller.contacts[1].name`. */
  field: string;
  value: string;
  reason: string;
}

/** The written document and what it could not hold. */
export interface WriteResult {
  xml: string;
  losses: WriteLoss[];
}
