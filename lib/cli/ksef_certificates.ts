/**
 * Texts of `ksef certificates …` that do not depend on KSeF's answers (README "KSeF certificates from the command
 * line"). certyfikaty-KSeF.md §2: enrollment data, and so a certificate, is given only to a sign-in made with a
 * signature (XAdES); a KSeF token's session gets 25001/25002 (open-api.json). Pure text.
 * @module
 */

/** The one line said when the source signs in with a KSeF token, with the two ways out. */
export const TOKEN_CANNOT_ENROLL = "KSeF issues certificates only to a sign-in made with a certificate, and this source signs in with a KSeF token: " +
  "get a KSeF certificate in the Ministry of Finance's web application (Aplikacja Podatnika KSeF), or give the company's qualified seal " +
  "as the source's certificate/key or pkcs12 in sources.json, and enroll then makes the KSeF certificates from it";
