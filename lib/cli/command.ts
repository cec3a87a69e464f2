/**
 * The command line read into what to do (README “Configuration”): serve (the default), a
 * token, ksef or convert subcommand, help, or a usage error naming the unknown flag or word.
 * Every setting's flag is accepted everywhere but by `convert`, which reads no setting (the token
 * subcommands use the storage ones); the token flags only after `token`. Pure: no printing, no exit.
 * @module
 */
import { parseArgs, SETTINGS, SWITCH_FLAGS } from "../config.ts";
import { parseDuration } from "../jobs/webhooks/retry_schedule.ts";
import type { WrittenFormat } from "../formats/invoice/compute.ts";
import { WRITTEN_FORMATS } from "../formats/invoice/write_invoice.ts";
import { CONVERT_OPTIONS, KSEF_CERTIFICATE_OPTIONS, TOKEN_OPTIONS } from "./usage.ts";

/** The token subcommands. */
export const TOKEN_COMMANDS = ["create", "list", "revoke"] as const;

/** The `ksef certificates` subcommands (README "KSeF certificates from the command line"). */
export const KSEF_CERTIFICATE_COMMANDS = ["limits", "enroll", "list", "revoke", "show"] as const;
export type KsefCertificateCommand = (typeof KSEF_CERTIFICATE_COMMANDS)[number];

/** Which usage text goes with help or an error. */
export type UsageTopic = "serve" | "token" | "ksef" | "convert";

/** What the command line asks for; `topic` says which usage goes with help or an error. */
export type Command =
  | { kind: "help"; topic: UsageTopic }
  | { kind: "error"; topic: UsageTopic; message: string }
  | { kind: "serve"; flags: Map<string, string> }
  | { kind: "token"; sub: (typeof TOKEN_COMMANDS)[number]; args: string[]; flags: Map<string, string> }
  | { kind: "ksef"; sub: KsefCertificateCommand; args: string[]; flags: Map<string, string> }
  | { kind: "convert"; file: string; to: WrittenFormat; out: string | null; keepNotes: boolean };

const _SETTING_FLAGS: ReadonlySet<string> = new Set(Object.values(SETTINGS).map((s) => s.flag));
const _TOKEN_FLAGS: ReadonlySet<string> = new Set(TOKEN_OPTIONS.map((o) => o.flag));
const _KSEF_FLAGS: ReadonlySet<string> = new Set(KSEF_CERTIFICATE_OPTIONS.map((o) => o.flag));
const _CONVERT_FLAGS: ReadonlySet<string> = new Set(CONVERT_OPTIONS.map((o) => o.flag));
/** Flags that never take the next word as their value: `convert --keep-notes FILE` names FILE. */
const _SWITCHES: ReadonlySet<string> = new Set([...SWITCH_FLAGS, "--keep-notes"]);
const _BOOLEAN = /^(1|true|on|yes|0|false|off|no)$/i;

/** Reads `argv` (without the runtime and script). */
export function parseCommand(argv: string[]): Command {
  const { positional, flags } = parseArgs(argv, _SWITCHES);
  const [cmd = "serve", sub, ...rest] = positional;
  if (cmd !== "serve" && cmd !== "token" && cmd !== "ksef" && cmd !== "convert") return { kind: "error", topic: "serve", message: `Unknown command: ${cmd} (serve, token, ksef, convert)` };
  const topic = cmd;
  if (flags.has("--help")) return { kind: "help", topic };
  const repeated = _repeatedFlag(argv);
  if (repeated) return { kind: "error", topic, message: `${repeated} is given more than once` };
  if (topic === "convert") return _convertCommand(sub, rest, flags);
  for (const flag of flags.keys()) {
    if (!_SETTING_FLAGS.has(flag) && !(topic === "token" && _TOKEN_FLAGS.has(flag)) && !(topic === "ksef" && _KSEF_FLAGS.has(flag))) {
      return { kind: "error", topic, message: `Unknown option: ${flag}` };
    }
  }
  if (topic === "ksef") return _ksefCommand(sub, rest, flags);
  if (topic === "serve") {
    return sub === undefined ? { kind: "serve", flags } : { kind: "error", topic, message: `Unexpected argument: ${sub}` };
  }
  const known = TOKEN_COMMANDS.find((c) => c === sub);
  if (!known) return { kind: "error", topic, message: sub === undefined ? "token needs a subcommand: create, list or revoke" : `Unknown token subcommand: ${sub} (create, list, revoke)` };
  const args = rest;
  if (known !== "revoke" && args.length > 0) return { kind: "error", topic, message: `Unexpected argument: ${args[0]}` };
  if (known === "revoke" && args.length !== 1) return { kind: "error", topic, message: "token revoke needs one KEY_ID" };
  const expiresIn = flags.get("--expires-in");
  if (expiresIn !== undefined && !_isPositiveDuration(expiresIn)) {
    // An empty value would make a token that never expires, and 0s one that is expired at birth.
    return { kind: "error", topic, message: `--expires-in must be a duration above zero such as 30d or 12h, not "${expiresIn}"` };
  }
  return { kind: "token", sub: known, args, flags };
}

// `ksef certificates ACTION …`: the action's arguments and required flags checked, values of --type and --key too.
function _ksefCommand(sub: string | undefined, rest: string[], flags: Map<string, string>): Command {
  const topic = "ksef";
  if (sub !== "certificates") return { kind: "error", topic, message: sub === undefined ? "ksef needs a subcommand: certificates" : `Unknown ksef subcommand: ${sub} (certificates)` };
  const [action, ...args] = rest;
  const known = KSEF_CERTIFICATE_COMMANDS.find((c) => c === action);
  const list = KSEF_CERTIFICATE_COMMANDS.join(", ");
  if (!known) return { kind: "error", topic, message: action === undefined ? `ksef certificates needs a subcommand: ${list}` : `Unknown ksef certificates subcommand: ${action} (${list})` };
  const wanted = known === "revoke" ? "SERIAL" : known === "show" ? "FILE" : null;
  if (wanted === null && args.length > 0) return { kind: "error", topic, message: `Unexpected argument: ${args[0]}` };
  if (wanted !== null && args.length !== 1) return { kind: "error", topic, message: `ksef certificates ${known} needs one ${wanted}` };
  if (known === "revoke" && !/^[0-9A-Fa-f]{16}$/.test(args[0]!)) return { kind: "error", topic, message: `A KSeF certificate serial is 16 hexadecimal digits, not ${JSON.stringify(args[0])}` };
  if (known !== "show" && !flags.has("--tenant")) return { kind: "error", topic, message: `ksef certificates ${known} needs --tenant ID` };
  const type = flags.get("--type");
  if (known === "enroll" && type !== "authentication" && type !== "offline") return { kind: "error", topic, message: "ksef certificates enroll needs --type authentication or --type offline" };
  const key = flags.get("--key");
  if (key !== undefined && key !== "rsa" && key !== "ec") return { kind: "error", topic, message: `--key is rsa or ec, not ${JSON.stringify(key)}` };
  const name = flags.get("--name");
  // open-api.json EnrollCertificateRequest.certificateName: 5 to 100 of these characters; the files take the name too.
  if (name !== undefined && !/^[a-zA-Z0-9_\- ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]{5,100}$/.test(name)) {
    return { kind: "error", topic, message: "--name is 5 to 100 letters, digits, spaces, - or _ (KSeF's certificateName)" };
  }
  for (const f of ["--type", "--name", "--key", "--out"]) {
    if (flags.has(f) && known !== "enroll") return { kind: "error", topic, message: `${f} applies to ksef certificates enroll only` };
  }
  if (known === "show" && flags.has("--source")) return { kind: "error", topic, message: "--source does not apply to ksef certificates show (it reads a file)" };
  return { kind: "ksef", sub: known, args, flags };
}

// `convert FILE --to FORMAT [--out FILE] [--keep-notes]`: its own flags only, since it reads no setting.
function _convertCommand(file: string | undefined, rest: string[], flags: Map<string, string>): Command {
  const topic = "convert";
  for (const flag of flags.keys()) if (!_CONVERT_FLAGS.has(flag)) return { kind: "error", topic, message: `Unknown option: ${flag}` };
  if (file === undefined) return { kind: "error", topic, message: "convert needs a FILE (- reads stdin)" };
  if (rest.length > 0) return { kind: "error", topic, message: `Unexpected argument: ${rest[0]}` };
  const to = flags.get("--to");
  const formats = WRITTEN_FORMATS.join(", ");
  if (to === undefined) return { kind: "error", topic, message: `convert needs --to: one of ${formats}` };
  const known = WRITTEN_FORMATS.find((f) => f === to);
  if (!known) return { kind: "error", topic, message: `--to is one of ${formats}, not ${JSON.stringify(to)}` };
  const out = flags.get("--out");
  if (out === "" || out === "true") return { kind: "error", topic, message: "--out needs a FILE" };
  const keep = flags.get("--keep-notes") ?? "false";
  if (!_BOOLEAN.test(keep)) return { kind: "error", topic, message: `--keep-notes takes no value, not ${JSON.stringify(keep)}` };
  return { kind: "convert", file, to: known, out: out ?? null, keepNotes: /^(1|true|on|yes)$/i.test(keep) };
}

// The first flag given twice (`--tenant a --tenant b` would silently take b), or null.
function _repeatedFlag(argv: string[]): string | null {
  const seen = new Set<string>();
  for (const a of argv) {
    if (!a.startsWith("--")) continue;
    const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

function _isPositiveDuration(text: string): boolean {
  try {
    return parseDuration(text) > 0;
  } catch {
    return false;
  }
}
