/**
 * The reference page's one stylesheet, inlined in <head> (the page loads nothing
 * else; its Content-Security-Policy allows only this style, by hash). System
 * fonts only. On screen: a sticky table of contents beside the content; in print:
 * the contents first, every collapsible section open, no sticky parts, no
 * tables split mid-row.
 * @module
 */

/** The CSS of the reference page. */
export const DOCS_CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; --accent: #0b5cad; --code: #f3f4f6; }
* { box-sizing: border-box; }
html { scroll-padding-top: 1rem; }
body { margin: 0; color: var(--fg); background: #fff; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.88em; }
code { background: var(--code); border-radius: 4px; padding: 0.05em 0.3em; overflow-wrap: anywhere; }
pre.code { background: #0f1720; color: #e6edf3; padding: 0.8rem 1rem; border-radius: 6px; overflow-x: auto; line-height: 1.45; }
pre.code code { background: none; padding: 0; color: inherit; overflow-wrap: normal; }
.layout { display: grid; grid-template-columns: 19rem minmax(0, 1fr); max-width: 88rem; margin: 0 auto; }
nav.toc { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; padding: 1.2rem 1rem 2rem 1.2rem; border-right: 1px solid var(--line); font-size: 0.88rem; }
nav.toc h2 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); margin: 1rem 0 0.3rem; }
nav.toc ul { list-style: none; margin: 0; padding: 0; }
nav.toc li { margin: 0.12rem 0; }
nav.toc ul ul { padding-left: 0.8rem; }
nav.toc li a:has(.method) { display: flex; gap: 0.4rem; align-items: baseline; }
nav.toc .method { font-size: 0.64rem; min-width: 3.3rem; flex: none; }
nav.toc .tpath { overflow-wrap: anywhere; font-size: 0.84rem; }
main { padding: 1.2rem 2.2rem 4rem; min-width: 0; }
header.top h1 { margin: 0.2rem 0 0.2rem; font-size: 1.9rem; }
header.top .version { color: var(--muted); font-size: 1rem; font-weight: normal; }
h2.part { font-size: 1.5rem; border-bottom: 2px solid var(--fg); padding-bottom: 0.2rem; margin-top: 2.6rem; }
section.conv h3, section.schema h3 { font-size: 1.15rem; margin: 1.8rem 0 0.4rem; }
section.op { border-top: 1px solid var(--line); padding-top: 0.6rem; margin-top: 1.8rem; }
section.op h3 { font-size: 1.1rem; margin: 0.4rem 0 0.2rem; display: flex; gap: 0.6rem; align-items: baseline; flex-wrap: wrap; }
section.op h3 .path { font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
h4 { font-size: 0.95rem; margin: 1.1rem 0 0.35rem; color: #24292f; }
.summary { margin: 0.2rem 0 0.6rem; }
.opid { color: var(--muted); font-size: 0.85em; }
.method { display: inline-block; text-align: center; border-radius: 4px; padding: 0.05rem 0.4rem; font: 700 0.78rem ui-monospace, Menlo, Consolas, monospace; color: #fff; background: #57606a; }
.m-get { background: #1a7f37; } .m-post { background: #0b5cad; } .m-delete { background: #b42318; } .m-patch, .m-put { background: #9a6700; }
.badge { display: inline-block; font-size: 0.78rem; border: 1px solid var(--line); border-radius: 999px; padding: 0 0.5rem; color: var(--muted); margin-left: 0.3rem; }
.badge.public { border-color: #1a7f37; color: #1a7f37; }
table { border-collapse: collapse; width: 100%; margin: 0.4rem 0 0.8rem; font-size: 0.9rem; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 0.35rem 0.5rem; }
th { background: var(--soft); font-weight: 600; font-size: 0.82rem; }
tr { break-inside: avoid; }
td.field { white-space: nowrap; width: 1%; }
td.ftype { width: 14rem; color: #3b4450; }
td.status { width: 4rem; font-weight: 600; }
.req { color: #b42318; font-size: 0.72rem; font-weight: 600; margin-left: 0.2rem; }
.opt { color: var(--muted); font-size: 0.72rem; margin-left: 0.2rem; }
.desc { display: block; }
.enum, .limits { display: block; color: var(--muted); font-size: 0.85rem; }
tr.has-sub > td { border-bottom: none; }
tr.sub > td { padding: 0 0 0.4rem 1.2rem; }
details { margin: 0.3rem 0 0.2rem; border-left: 3px solid var(--line); padding-left: 0.6rem; }
details > summary { cursor: pointer; color: var(--muted); font-size: 0.85rem; }
details table { font-size: 0.86rem; }
ul.headers { margin: 0.3rem 0; padding-left: 1.1rem; font-size: 0.86rem; }
p.media { margin: 0.3rem 0; }
ol.alternatives { padding-left: 1.3rem; }
p.type { margin: 0.2rem 0; }
.intro { max-width: 60rem; }
@media (max-width: 60rem) {
  .layout { display: block; }
  nav.toc { position: static; max-height: none; border-right: none; border-bottom: 1px solid var(--line); }
  main { padding: 1rem; }
  td.ftype { width: auto; }
}
@media print {
  @page { size: A4; margin: 14mm 12mm; }
  body { font-size: 10pt; }
  .layout { display: block; max-width: none; }
  nav.toc { position: static; max-height: none; overflow: visible; border: none; padding: 0; columns: 2; break-after: page; }
  main { padding: 0; }
  a { color: inherit; }
  pre.code { background: #fff; color: #000; border: 1px solid #999; white-space: pre-wrap; }
  .method { color: #000; background: none; border: 1px solid #000; }
  /* Closed details elements hide their content; a printed reference shows everything. */
  details::details-content { content-visibility: visible; display: block; }
  details > summary { list-style: none; font-weight: 600; }
  section.op { break-before: auto; }
  h2, h3, h4 { break-after: avoid; }
  /* Rows that hold nested tables may be taller than a page: they break, or they would leave pages half empty. */
  tr.sub, table.responses > tbody > tr { break-inside: auto; }
}
`;
