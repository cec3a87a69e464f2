import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCommand } from "../../lib/cli/command.ts";
import { serveUsage, TOKEN_OPTIONS, tokenUsage } from "../../lib/cli/usage.ts";
import { SETTINGS } from "../../lib/config.ts";

describe("parseCommand()", () => {
  test("reads serve, token subcommands and help", () => {
    const cases = [
      { what: "nothing: serve", input: [], expected: { kind: "serve" } },
      { what: "serve with settings", input: ["serve", "--port", "0", "--demo", "off"], expected: { kind: "serve" } },
      { what: "a bare switch before the command", input: ["--webhook-allow-private", "serve"], expected: { kind: "serve" } },
      { what: "--help", input: ["--help"], expected: { kind: "help", topic: "serve" } },
      { what: "-h", input: ["serve", "-h"], expected: { kind: "help", topic: "serve" } },
      { what: "token --help", input: ["token", "--help"], expected: { kind: "help", topic: "token" } },
      { what: "token create --help", input: ["token", "create", "--help"], expected: { kind: "help", topic: "token" } },
      { what: "token create", input: ["token", "create", "--tenant", "a", "--scopes", "documents:read", "--data", "d"], expected: { kind: "token", sub: "create" } },
      { what: "token revoke", input: ["token", "revoke", "--data", "d", "KEY"], expected: { kind: "token", sub: "revoke", args: ["KEY"] } },
    ];
    for (const { what, input, expected } of cases) {
      const got = parseCommand(input) as Record<string, unknown>;
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(got[k], v, what);
    }
  });

  test("names an unknown flag, command, subcommand or extra word, with the usage that goes with it", () => {
    const cases = [
      { input: ["--bogus"], topic: "serve", message: /Unknown option: --bogus/ },
      { input: ["serve", "--tenant", "x"], topic: "serve", message: /Unknown option: --tenant/ },
      { input: ["frob"], topic: "serve", message: /Unknown command: frob \(serve, token, ksef, convert\)/ },
      { input: ["serve", "extra"], topic: "serve", message: /Unexpected argument: extra/ },
      { input: ["token"], topic: "token", message: /create, list or revoke/ },
      { input: ["token", "frob"], topic: "token", message: /Unknown token subcommand: frob/ },
      { input: ["token", "list", "--bogus"], topic: "token", message: /Unknown option: --bogus/ },
      { input: ["token", "revoke"], topic: "token", message: /needs one KEY_ID/ },
      { input: ["token", "list", "x"], topic: "token", message: /Unexpected argument: x/ },
      { input: ["ksef"], topic: "ksef", message: /^ksef needs a subcommand: certificates$/ },
      { input: ["ksef", "certificates", "frob"], topic: "ksef", message: /Unknown ksef certificates subcommand: frob \(limits, enroll, list, revoke, show\)/ },
      { input: ["ksef", "certificates", "list"], topic: "ksef", message: /needs --tenant ID/ },
      { input: ["ksef", "certificates", "enroll", "--tenant", "a", "--type", "both"], topic: "ksef", message: /--type authentication or --type offline/ },
      { input: ["ksef", "certificates", "enroll", "--tenant", "a", "--type", "offline", "--key", "dsa"], topic: "ksef", message: /--key is rsa or ec/ },
      { input: ["ksef", "certificates", "enroll", "--tenant", "a", "--type", "offline", "--name", "a/b"], topic: "ksef", message: /--name is 5 to 100/ },
      { input: ["ksef", "certificates", "list", "--tenant", "a", "--type", "offline"], topic: "ksef", message: /--type applies to ksef certificates enroll only/ },
      { input: ["ksef", "certificates", "revoke", "--tenant", "a"], topic: "ksef", message: /needs one SERIAL/ },
      { input: ["ksef", "certificates", "show"], topic: "ksef", message: /needs one FILE/ },
      { input: ["token", "list", "--type", "offline"], topic: "token", message: /Unknown option: --type/ },
    ];
    for (const c of cases) {
      const got = parseCommand(c.input);
      assert.equal(got.kind, "error", c.input.join(" "));
      if (got.kind !== "error") continue;
      assert.equal(got.topic, c.topic);
      assert.match(got.message, c.message);
    }
  });
});

describe("parseCommand() for convert", () => {
  test("reads FILE, --to, --out and --keep-notes, which never takes the next word as its value", () => {
    const cases = [
      { input: ["convert", "a.xml", "--to", "ksef-fa3"], expected: { kind: "convert", file: "a.xml", to: "ksef-fa3", out: null, keepNotes: false } },
      { input: ["convert", "--keep-notes", "a.xml", "--to=cii"], expected: { kind: "convert", file: "a.xml", to: "cii", out: null, keepNotes: true } },
      { input: ["convert", "-", "--to", "ubl", "--out", "b.xml"], expected: { kind: "convert", file: "-", to: "ubl", out: "b.xml", keepNotes: false } },
      { input: ["convert", "--help"], expected: { kind: "help", topic: "convert" } },
    ];
    for (const { input, expected } of cases) assert.deepEqual(parseCommand(input), expected, input.join(" "));
  });

  test("refuses settings' flags, a second FILE, a bad --to and a value given to --keep-notes", () => {
    const cases = [
      { input: ["convert", "a.xml", "--to", "ksef-fa3", "--data", "d"], message: /Unknown option: --data/ },
      { input: ["convert", "a.xml", "b.xml", "--to", "ksef-fa3"], message: /Unexpected argument: b\.xml/ },
      { input: ["convert", "a.xml", "--to", "FA3"], message: /--to is one of ksef-fa3, ubl, cii/ },
      { input: ["convert", "a.xml", "--to", "ubl", "--keep-notes=all"], message: /--keep-notes takes no value/ },
      { input: ["convert", "a.xml", "--to", "ubl", "--out"], message: /--out needs a FILE/ },
      { input: ["convert", "a.xml", "--to", "ubl", "--to", "cii"], message: /--to is given more than once/ },
    ];
    for (const c of cases) {
      const got = parseCommand(c.input);
      assert.equal(got.kind, "error", c.input.join(" "));
      if (got.kind === "error") assert.equal(got.topic, "convert");
      if (got.kind === "error") assert.match(got.message, c.message);
    }
  });
});

describe("usage texts", () => {
  test("--help lists every setting's flag, variable and default", () => {
    const text = serveUsage();
    for (const s of Object.values(SETTINGS)) {
      const line = text.split("\n").find((l) => l.trimStart().startsWith(`${s.flag} `));
      assert.ok(line, `${s.flag} is listed`);
      assert.ok(line.includes(s.env), `${s.flag} names ${s.env}`);
      assert.ok(line.includes("shown" in s ? s.shown : s.def), `${s.flag} shows its default`);
    }
    assert.match(text, /-h, --help/);
  });

  test("token --help lists the subcommands, their flags and the storage flags", () => {
    const text = tokenUsage();
    for (const sub of ["token create", "token list", "token revoke KEY_ID"]) assert.ok(text.includes(sub), sub);
    for (const o of TOKEN_OPTIONS) assert.ok(text.includes(o.flag), o.flag);
    for (const s of [SETTINGS.dataDir, SETTINGS.databaseUrl]) assert.match(text, new RegExp(`${s.flag} .*${s.env}`));
  });
});
