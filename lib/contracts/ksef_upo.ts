/**
 * Where an accepted submission's UPO (KSeF's official receipt, README "Sending to KSeF") is kept: a derived blob
 * under this key, written by the sender before it marks the submission accepted, read by `GET …/upo`.
 * @module
 */

/** The derived-blob key of a submission's UPO (letters, digits, "-": a file name in the file store). */
export function upoKey(submissionId: string): string {
  return `ksef-upo-${submissionId}`;
}

/**
 * The derived-blob key that names, for a submission sent in a batch session, the page of the session's collective
 * UPO that lists it (the blob holds that page's own key; README "Sending to KSeF").
 */
export function sessionUpoKey(submissionId: string): string {
  return `ksef-session-upo-${submissionId}`;
}
