/**
 * The command line read into what to do (README “Configuration”): serve (the default), a
 * token subcommand, help, or a usage error naming the unknown flag or word.
 * Every setting's flag is accepted everywhere (the token subcommands use the
 * storage ones); the token flags only after `token`. Pure: no printing, no exit.
 * @module
 */
import { parseArgs, SETTINGS } from "../config.ts";
import { parseDuration } from "../jobs/webhooks/retry_schedule.ts";
import { TOKEN_OPTIONS } from "./usage.ts";

/** The token subcommands. */
export const TOKEN_COMMANDS = ["create", "list", "revoke"] as const;

/** What the command line asks for; `topic` says which usage goes with help or an error. */
export type Command =
  | { kind: "help"; topic: "serve" | "token" }
  | { kind: "error"; topic: "serve" | "token"; message: string }
  | { kind: "serve"; flags: Map<string, string> }
  | { kind: "token"; sub: (typeof TOKEN_COMMANDS)[number]; args: string[]; flags: Map<string, string> };

const _SETTING_FLAGS: ReadonlySet<string> = new Set(Object.values(SETTINGS).map((s) => s.flag));
const _TOKEN_FLAGS: ReadonlySet<string> = new Set(TOKEN_OPTIONS.map((o) => o.flag));

/** Reads `argv` (without the runtime and script). */
export function parseCommand(argv: string[]): Command {
  const { positional, flags } = parseArgs(argv);
  const [cmd = "serve", sub, ...rest] = positional;
  if (cmd !== "serve" && cmd !== "token") return { kind: "error", topic: "serve", message: `Unknown command: ${cmd} (serve, token)` };
  const topic = cmd;
  if (flags.has("--help")) return { kind: "help", topic };
  const repeated = _repeatedFlag(argv);
  if (repeated) return { kind: "error", topic, message: `${repeated} is given more than once` };
  for (const flag of flags.keys()) {
    if (!_SETTING_FLAGS.has(flag) && !(topic === "token" && _TOKEN_FLAGS.has(flag))) {
      return { kind: "error", topic, message: `Unknown option: ${flag}` };
    }
  }
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
