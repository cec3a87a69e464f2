/**
 * KSeF-like certificates of type Offline for tests, made with the `openssl` command: a self-signed X.509
 * certificate and its unencrypted private key as PEM files in a directory, of the key kind and lifetime asked for.
 */
import { execFileSync } from "node:child_process";
import { chmodSync } from "node:fs";
import { join } from "node:path";

/** `-newkey` arguments of each kind of key the tests use. */
const KEYS = {
  "rsa2048": ["-newkey", "rsa:2048"],
  "rsa1024": ["-newkey", "rsa:1024"],
  "p256": ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
  "p384": ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"],
  "ed25519": ["-newkey", "ed25519"],
} as const;

export type TestKeyKind = keyof typeof KEYS;

/** Writes `<name>.crt.pem` and `<name>.key.pem` (mode 600) into `dir`; returns their paths. */
export function makeOfflineCertificate(dir: string, name: string, o: { key: TestKeyKind; days?: number; serial?: string }): { certificateFile: string; keyFile: string } {
  const certificateFile = join(dir, `${name}.crt.pem`);
  const keyFile = join(dir, `${name}.key.pem`);
  execFileSync("openssl", [
    "req", "-x509", ...KEYS[o.key], "-nodes", "-keyout", keyFile, "-out", certificateFile, "-days", String(o.days ?? 365),
    "-subj", "/CN=Offline test/serialNumber=TINPL-5265877635/C=PL", "-set_serial", `0x${o.serial ?? "01F20A5D352AE590"}`,
  ], { stdio: "pipe" });
  chmodSync(keyFile, 0o600);
  return { certificateFile, keyFile };
}
