/**
 * The command line's help texts (README “Configuration”): `server.ts --help` lists every
 * flag with its environment variable and default, `server.ts token --help` the
 * token subcommands and their flags. Built from the settings table, so a new
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
