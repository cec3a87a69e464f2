/**
 * The KSeF simulator's certificate operations (certyfikaty-KSeF.md, open-api.json `/certificates/*`): limits,
 * enrollment data (the subject of the certificate the session signed in with, as KSeF reads it), enrollment with a
 * PKCS#10 request (its signature checked by `openssl req -verify`, its subject compared with the enrollment data:
 * 25003, 25004; key type and size: 25010), status polling (100 on the first poll, then 200 with the serial),
 * retrieval of certificates issued by the simulator's own test CA with `openssl x509 -req` (key usage
 * digitalSignature for Authentication, nonRepudiation for Offline, as certyfikaty-KSeF.md marks them), query with
 * filters and pages, and revocation, which goes into the XAdES sign-in's revoked list (ksef_simulator_xades.ts),
 * so a revoked certificate's next sign-in ends with 460. A session signed in with a KSeF token gets 25001 and 25002
 * (open-api.json: certificates are issued only to a sign-in with a signature). Not KSeF: one owner per context NIP.
 */
import { execFile } from "node:child_process";
import { randomBytes, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCertificate } from "../../lib/formats/x509/certificate.ts";
import type { SimContext, SimRequest } from "./ksef_simulator.ts";
import { iso7 } from "./ksef_simulator_invoices.ts";

/** A certificate the simulator issued. */
export interface SimIssued {
  serial: string;
  name: string;
  type: "Authentication" | "Offline";
  owner: string;
  commonName: string;
  der: Buffer;
  validFrom: number;
  validTo: number;
  requestDate: number;
  revoked: boolean;
}

interface _Enrollment {
  ref: string;
  requestDate: number;
  polls: number;
  serial: string | null;
  /** A refusal found while issuing: status 400 with this detail. */
  rejected?: string;
}

// certyfikaty-KSeF.md §2: the OIDs of the enrollment data's fields.
const _FIELDS: Record<string, string> = {
  "2.5.4.3": "commonName", "2.5.4.4": "surname", "2.5.4.5": "serialNumber", "2.5.4.6": "countryName", "2.5.4.10": "organizationName",
  "2.5.4.42": "givenName", "2.5.4.45": "uniqueIdentifier", "2.5.4.97": "organizationIdentifier",
};
/** How long the simulator's certificates are valid: KSeF's are issued for up to 2 years (certyfikaty-KSeF.md). */
const VALIDITY_DAYS = 730;

/** The certificate routes and their state. */
export class SimCertificates {
  issued: SimIssued[] = [];
  /** certyfikaty-KSeF.md §1: how many certificates an owner may hold and how many requests it may make. */
  limits = { certificates: 100, enrollments: 300 };
  #enrollments = new Map<string, _Enrollment & { owner: string }>();
  #dir = mkdtempSync(join(tmpdir(), "ksef-sim-ca-"));
  #ca: Promise<void> | null = null;
  #ref: (kind: string) => string;

  constructor(ref: (kind: string) => string) {
    this.#ref = ref;
  }

  /** The test CA's certificate (PEM), once made. */
  caCertificate(): string {
    return readFileSync(join(this.#dir, "ca.crt.pem"), "utf8");
  }

  /** Removes the CA's files. */
  close(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }

  /** Answers /certificates/*; false for other paths. */
  route = async (r: SimRequest, ctx: SimContext): Promise<boolean> => {
    const p = r.path;
    if (!p.startsWith("/certificates/")) return false;
    const session = ctx.session();
    if (!session) return ctx.unauthorized("Wymagane jest uwierzytelnienie."), true;
    const owner = session.nip;
    const mine = this.issued.filter((c) => c.owner === owner);
    const active = mine.filter((c) => !c.revoked && c.validTo > Date.now());
    const json = (): Record<string, unknown> => (r.body.length ? (JSON.parse(r.body.toString()) as Record<string, unknown>) : {});
    if (p === "/certificates/limits" && r.method === "GET") {
      const enrolled = [...this.#enrollments.values()].filter((e) => e.owner === owner).length;
      const certificate = { limit: this.limits.certificates, remaining: Math.max(0, this.limits.certificates - active.length) };
      const enrollment = { limit: this.limits.enrollments, remaining: Math.max(0, this.limits.enrollments - enrolled) };
      return ctx.send(200, { canRequest: certificate.remaining > 0 && enrollment.remaining > 0, enrollment, certificate }), true;
    }
    if (p === "/certificates/enrollments/data" && r.method === "GET") {
      if (!session.certificate) return ctx.badRequest(25001, "Brak możliwości pobrania danych do CSR dla wykorzystanego sposobu uwierzytelnienia."), true;
      return ctx.send(200, enrollmentData(session.certificate)), true;
    }
    if (p === "/certificates/enrollments" && r.method === "POST") {
      if (!session.certificate) return ctx.badRequest(25002, "Brak możliwości złożenia wniosku certyfikacyjnego dla wykorzystanego sposobu uwierzytelnienia."), true;
      if (active.length >= this.limits.certificates) return ctx.badRequest(25007, "Osiągnięto limit dopuszczalnej liczby posiadanych certyfikatów."), true;
      const b = json() as { certificateName: string; certificateType: "Authentication" | "Offline"; csr: string; validFrom?: string | null };
      const checked = await this.#issue(b, owner, session.certificate);
      if ("code" in checked) return ctx.badRequest(checked.code, checked.description, checked.details), true;
      const ref = this.#ref("EH");
      const at = ctx.tick();
      this.#enrollments.set(ref, { ref, owner, requestDate: at, polls: 0, serial: checked.serial });
      return ctx.send(202, { referenceNumber: ref, timestamp: iso7(at) }), true;
    }
    if (p.startsWith("/certificates/enrollments/") && r.method === "GET") {
      const e = this.#enrollments.get(p.slice("/certificates/enrollments/".length));
      if (!e || e.owner !== owner) return ctx.badRequest(25005, "Wniosek certyfikacyjny o podanym numerze referencyjnym nie istnieje."), true;
      // Asynchronous as KSeF's (certyfikaty-KSeF.md §5): the first poll finds it in progress.
      const done = e.polls++ > 0;
      return ctx.send(200, {
        requestDate: iso7(e.requestDate),
        status: done ? { code: 200, description: "Wniosek obsłużony (certyfikat wygenerowany)" } : { code: 100, description: "Wniosek przyjęty do realizacji" },
        ...(done ? { certificateSerialNumber: e.serial } : {}),
      }), true;
    }
    if (p === "/certificates/retrieve" && r.method === "POST") {
      const serials = (json().certificateSerialNumbers as string[]) ?? [];
      const found = mine.filter((c) => serials.includes(c.serial));
      return ctx.send(200, { certificates: found.map((c) => ({ certificate: c.der.toString("base64"), certificateName: c.name, certificateSerialNumber: c.serial, certificateType: c.type })) }), true;
    }
    if (p === "/certificates/query" && r.method === "POST") {
      const q = json() as { certificateSerialNumber?: string | null; name?: string | null; type?: string | null; status?: string | null; expiresAfter?: string | null };
      const size = Number(r.query.get("pageSize") ?? 10);
      const offset = Number(r.query.get("pageOffset") ?? 0);
      const all = mine.map((c) => ({ c, status: _status(c) }))
        .filter(({ c, status }) => (!q.certificateSerialNumber || c.serial === q.certificateSerialNumber) && (!q.name || c.name.includes(q.name))
          && (!q.type || c.type === q.type) && (!q.status || status === q.status) && (!q.expiresAfter || c.validTo > Date.parse(q.expiresAfter)))
        .sort((a, b) => b.c.requestDate - a.c.requestDate); // open-api.json: sorted by requestDate, descending
      const page = all.slice(offset * size, (offset + 1) * size);
      return ctx.send(200, {
        hasMore: all.length > (offset + 1) * size,
        certificates: page.map(({ c, status }) => ({
          certificateSerialNumber: c.serial, name: c.name, type: c.type, commonName: c.commonName, status,
          subjectIdentifier: { type: "Nip", value: c.owner }, validFrom: iso7(c.validFrom), validTo: iso7(c.validTo), requestDate: iso7(c.requestDate),
        })),
      }), true;
    }
    const revoke = /^\/certificates\/([0-9A-F]{16})\/revoke$/.exec(p);
    if (revoke && r.method === "POST") {
      // open-api.json: not available to a subject signed in with a KSeF token.
      if (!session.certificate) return ctx.forbidden("Operacja nie jest dostępna dla podmiotu uwierzytelnionego tokenem KSeF.", ["Certificate"], session.permissions), true;
      const c = mine.find((x) => x.serial === revoke[1]);
      if (!c) return ctx.badRequest(25008, "Certyfikat o podanym numerze seryjnym nie istnieje."), true;
      if (_status(c) !== "Active") return ctx.badRequest(25009, "Nie można odwołać wskazanego certyfikatu, ponieważ jest już odwołany, zablokowany lub nieważny."), true;
      c.revoked = true;
      ctx.sim.revokeCertificate(c.serial);
      return ctx.send(204, undefined), true;
    }
    return false;
  };

  // Checks the request and issues the certificate now (its status shows it later); a refusal as KSeF's 400.
  async #issue(b: { certificateName: string; certificateType: "Authentication" | "Offline"; csr: string; validFrom?: string | null }, owner: string, signedInWith: Buffer): Promise<{ serial: string } | { code: number; description: string; details?: string[] }> {
    await (this.#ca ??= this.#makeCa());
    const work = mkdtempSync(join(this.#dir, "req-"));
    try {
      const csr = join(work, "req.der");
      writeFileSync(csr, Buffer.from(b.csr, "base64"));
      const verified = await _openssl(["req", "-inform", "DER", "-in", csr, "-verify", "-noout"]);
      if (!verified.ok) return { code: 25004, description: "Niepoprawny format CSR lub niepoprawny podpis CSR." };
      const serial = `${(0x10 + (randomBytes(1)[0]! % 0x70)).toString(16)}${randomBytes(7).toString("hex")}`.toUpperCase();
      writeFileSync(join(work, "ext.cnf"), `basicConstraints = critical, CA:FALSE\nkeyUsage = critical, ${b.certificateType === "Offline" ? "nonRepudiation" : "digitalSignature"}\n`);
      const out = join(work, "cert.pem");
      const made = await _openssl(["x509", "-req", "-inform", "DER", "-in", csr, "-CA", join(this.#dir, "ca.crt.pem"), "-CAkey", join(this.#dir, "ca.key.pem"),
        "-set_serial", `0x${serial}`, "-days", String(VALIDITY_DAYS), "-sha256", "-extfile", join(work, "ext.cnf"), "-out", out]);
      if (!made.ok) return { code: 25004, description: "Niepoprawny format CSR lub niepoprawny podpis CSR.", details: [made.stderr.trim().split("\n")[0] ?? ""] };
      const cert = new X509Certificate(readFileSync(out));
      const key = cert.publicKey;
      const details = key.asymmetricKeyDetails ?? {};
      const keyOk = key.asymmetricKeyType === "rsa" ? details.modulusLength === 2048 : key.asymmetricKeyType === "ec" && details.namedCurve === "prime256v1";
      if (!keyOk) return { code: 25010, description: "Nieprawidłowy typ lub długość klucza." };
      // "we własnym imieniu": the request's subject must be the enrollment data, attribute for attribute.
      const want = _attributes(new Uint8Array(signedInWith));
      const got = _attributes(new Uint8Array(cert.raw));
      if (want.join("\n") !== got.join("\n")) return { code: 25003, description: "Dane w CSR nie zgadzają się z danymi w użytym wektorze uwierzytelniającym.", details: [`expected ${want.join(", ")}; got ${got.join(", ")}`] };
      const info = parseCertificate(new Uint8Array(cert.raw));
      this.issued.push({
        serial, name: b.certificateName, type: b.certificateType, owner, der: Buffer.from(cert.raw),
        commonName: info.subject.find((a) => a.oid === "2.5.4.3")?.value ?? "", validFrom: info.notBefore, validTo: info.notAfter, requestDate: Date.now(), revoked: false,
      });
      return { serial };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  async #makeCa(): Promise<void> {
    const made = await _openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=KSeF Simulator Test CA/O=Not KSeF/C=PL",
      "-days", "3650", "-keyout", join(this.#dir, "ca.key.pem"), "-out", join(this.#dir, "ca.crt.pem")]);
    if (!made.ok) throw new Error(`openssl could not make the simulator's CA: ${made.stderr}`);
  }
}

/** open-api.json `CertificateEnrollmentDataResponse` of a certificate (DER): its subject's attributes by name. */
export function enrollmentData(der: Buffer): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const a of parseCertificate(new Uint8Array(der)).subject) {
    const field = _FIELDS[a.oid];
    if (!field) continue;
    const had = out[field];
    out[field] = had === undefined ? a.value : field === "givenName" ? [...(Array.isArray(had) ? had : [had]), a.value] : had;
  }
  // givenName comes as a list (certyfikaty-KSeF.md §2); open-api.json types it a string, so one value stays one.
  return out;
}

function _attributes(der: Uint8Array): string[] {
  return parseCertificate(der).subject.filter((a) => _FIELDS[a.oid]).map((a) => `${a.oid}=${a.value}`).sort();
}

function _status(c: SimIssued): "Active" | "Revoked" | "Expired" {
  return c.revoked ? "Revoked" : c.validTo < Date.now() ? "Expired" : "Active";
}

// Asynchronous, so that the simulator (in the test's process) keeps serving while openssl runs.
function _openssl(args: string[]): Promise<{ ok: boolean; stderr: string }> {
  return new Promise((done) => execFile("openssl", args, (error, _stdout, stderr) => done({ ok: error === null, stderr: String(stderr) })));
}
