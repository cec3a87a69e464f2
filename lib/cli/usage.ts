/**
 * The command line's help texts (README “Configuration”): `server.ts --help` lists every
 * flag with its environment variable and default, `server.ts token --help` the
 * token subcommands and their flags, `server.ts convert --help` the convert command's. Built from the settings table, so a new
 * setting shows up here by itself. Pure text: printing is server.ts's.
 * @module
 */
import { SCOPES } from "../auth/tokens.ts";
import { SETTINGS, type Setting } from "../config.ts";

/** A flag of a subcommand that is not a setting. */
interface _Option {
  flag: string;
  arg: string;
  help: string;
}

/** The `token` subcommands' own flags. */
export const TOKEN_OPTIONS: readonly _Option[] = [
  { flag: "--tenant", arg: "ID", help: "the tenant (created when new); with list: only its tokens" },
  { flag: "--scopes", arg: "a,b", help: `comma-separated, from: ${SCOPES.join(", ")}` },
  { flag: "--expires-in", arg: "DURATION", help: "lifetime such as 30d or 12h (default: no expiry)" },
];

/** The `ksef certificates` subcommands' own flags. */
export const KSEF_CERTIFICATE_OPTIONS: readonly _Option[] = [
  { flag: "--tenant", arg: "ID", help: "the tenant whose ksef source (sources.json) signs in" },
  { flag: "--source", arg: "NAME", help: "which ksef source, when the tenant has several (default: its only one)" },
  { flag: "--type", arg: "TYPE", help: "enroll: authentication (signs in) or offline (signs KOD II of offline invoices)" },
  { flag: "--name", arg: "NAME", help: "enroll: the certificate's name in KSeF and of the files (default: ksef-TYPE-DATE)" },
  { flag: "--key", arg: "rsa|ec", help: "enroll: the new key pair, EC P-256 (default, KSeF's advice) or RSA 2048" },
  { flag: "--out", arg: "DIR", help: "enroll: where NAME.crt.pem and NAME.key.pem go (default: the data directory)" },
];

/** The `convert` command's flags (README "Converting from the command line"). */
export const CONVERT_OPTIONS: readonly _Option[] = [
  { flag: "--to", arg: "FORMAT", help: "the format written: ksef-fa3 (FA(3)), ubl (UBL 2.1) or cii (CII D16B); required" },
  { flag: "--out", arg: "FILE", help: "write the XML to FILE (whole or not at all) instead of stdout" },
  { flag: "--keep-notes", arg: "", help: "also write each lost value into the target's free text (FA(3) DodatkowyOpis, UBL/CII notes)" },
];

/** The command as run from the sources; the installed package's is `integrator-api` (package.json `bin`). */
export const SOURCE_PROGRAM = "server.ts";

function _table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => `  ${r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  ")}`.trimEnd()).join("\n");
}

function _settingRows(settings: readonly Setting[]): string[][] {
  return settings.map((s) => [`${s.flag} ${s.arg}`, s.env, s.shown ?? s.def, s.help]);
}

/** `server.ts --help` (`integrator-api --help` with `program` the installed command). */
export function serveUsage(program = SOURCE_PROGRAM): string {
  const runtimes = program === SOURCE_PROGRAM ? `Node 24+: node ${program}   Node 20: node --import tsx ${program}   Deno: deno run -A ${program}\n` : "";
  return `Usage: ${program} [serve] [options]
       ${program} token create|list|revoke …   (see ${program} token --help)
       ${program} ksef certificates limits|enroll|list|revoke|show …   (see ${program} ksef --help)
       ${program} convert FILE --to ksef-fa3|ubl|cii …   (see ${program} convert --help)

Serves the Integrator API. Every option is also an environment variable; flags win.
${runtimes}
Options:
${_table([["flag", "variable", "default", "meaning"], ..._settingRows(Object.values(SETTINGS)), ["-h, --help", "", "", "print this help and exit"]])}
`;
}

/** `server.ts token --help` (`integrator-api token --help` with `program` the installed command). */
export function tokenUsage(program = SOURCE_PROGRAM): string {
  const storage = _settingRows([SETTINGS.dataDir, SETTINGS.databaseUrl]);
  return `Usage: ${program} token create --tenant ID --scopes a,b [--expires-in 30d]
       ${program} token list [--tenant ID]
       ${program} token revoke KEY_ID

create prints the new token alone on stdout (shown once) and its key id on stderr;
list never prints secrets; revoke needs the key id that create and list show.
Works while a server runs on the same storage: it sees the change within a second.

Options:
${_table([["flag", "variable", "default", "meaning"], ...TOKEN_OPTIONS.map((o) => [`${o.flag} ${o.arg}`, "", "-", o.help]), ...storage, ["-h, --help", "", "", "print this help and exit"]])}
`;
}

/** `server.ts ksef --help` (`integrator-api ksef --help` with `program` the installed command). */
export function ksefCertificatesUsage(program = SOURCE_PROGRAM): string {
  const storage = _settingRows([SETTINGS.dataDir]);
  return `Usage: ${program} ksef certificates limits --tenant ID [--source NAME]
       ${program} ksef certificates enroll --tenant ID [--source NAME] --type authentication|offline [--name NAME] [--key rsa|ec] [--out DIR]
       ${program} ksef certificates list --tenant ID [--source NAME]
       ${program} ksef certificates revoke SERIAL --tenant ID [--source NAME]
       ${program} ksef certificates show FILE

KSeF certificates of the tenant's ksef source in sources.json, signed in as the source signs in. KSeF issues
certificates only to a sign-in made with a certificate (a qualified seal, or a KSeF certificate), never to a token.
enroll makes the key pair here, asks KSeF for its certificate, writes NAME.crt.pem and NAME.key.pem (mode 600)
and prints the sources.json fields that use them. show reads a certificate file; it needs no network.

Options:
${_table([["flag", "variable", "default", "meaning"], ...KSEF_CERTIFICATE_OPTIONS.map((o) => [`${o.flag} ${o.arg}`, "", "-", o.help]), ...storage, ["-h, --help", "", "", "print this help and exit"]])}
`;
}

/** `server.ts convert --help` (`integrator-api convert --help` with `program` the installed command). */
export function convertUsage(program = SOURCE_PROGRAM): string {
  return `Usage: ${program} convert FILE --to ksef-fa3|ubl|cii [--out FILE] [--keep-notes]

Converts an invoice as POST /api/v1/convert does, with no server and no data directory: FA(2) to FA(3),
UBL to CII and back, UBL or CII of a Polish seller to FA(3), FA(3) to UBL or CII. FILE is invoice XML or the
JSON of a creation ({"format"?, "invoice": {…}}, told by its first character {); - reads stdin.
The converted XML goes to stdout (or --out); each value the target has no place for is a line on stderr
(loss, field, value, reason; tab-separated), and so is each finding of the validation.
Exit 0: converted and valid. 1: no valid invoice (the conversion refused, or the result fails validation:
its violations on stderr). 2: the command line is wrong.

Options:
${_table([["flag", "meaning"], ...CONVERT_OPTIONS.map((o) => [o.arg === "" ? o.flag : `${o.flag} ${o.arg}`, o.help]), ["-h, --help", "print this help and exit"]])}
`;
}
