/**
 * The console's stylesheet (README "Console"), served as `/console/app.css`: system fonts only (nothing is loaded
 * from elsewhere), readable from 390 px phones to 1280 px screens, visible keyboard focus.
 * @module
 */

/** The stylesheet, byte for byte as served. */
export const CONSOLE_CSS: string = `
:root { --fg: #1b1f24; --muted: #59636e; --bg: #f6f8fa; --card: #fff; --line: #d0d7de; --accent: #0b5cad; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --info: #6639ba; }
* { box-sizing: border-box; }
html { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
body { margin: 0; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; padding: .6rem 1rem; background: #24292f; color: #fff; }
header h1 { font-size: 1.05rem; margin: 0; }
header nav { display: flex; flex-wrap: wrap; gap: .25rem; }
header nav a { color: #fff; text-decoration: none; padding: .3rem .6rem; border-radius: 6px; }
header nav a[aria-current="page"] { background: #fff; color: #24292f; }
header .tools { margin-left: auto; display: flex; gap: .4rem; }
header button { background: transparent; color: #fff; border-color: #8c959f; }
.skip { position: absolute; left: -9999px; }
.skip:focus { position: static; color: #fff; }
main { max-width: 1240px; margin: 0 auto; padding: 1rem; outline: none; }
h2 { font-size: 1.3rem; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h3 { font-size: 1.05rem; margin: 0 0 .6rem; }
h4 { font-size: .95rem; margin: 1rem 0 .4rem; color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin: 0 0 1rem; }
#overview { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 560px), 1fr)); gap: 1rem; }
#overview .card { margin: 0; }
#summary-webhooks { grid-column: 1 / -1; }
.stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(96px, 1fr)); gap: .5rem; }
.stat { border: 1px solid var(--line); border-radius: 6px; padding: .4rem .6rem; }
.stat .n { display: block; font-size: 1.35rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.stat .l { color: var(--muted); font-size: .82rem; }
figure { margin: 0; }
.chart { width: 100%; height: auto; display: block; }
.chart .axis { stroke: var(--line); }
.chart .tick { fill: var(--muted); font-size: 15px; }
.s-received { fill: #8c959f; background: #8c959f; }
.s-accepted { fill: var(--ok); background: var(--ok); }
.s-rejected { fill: var(--bad); background: var(--bad); }
.s-synced { fill: var(--accent); background: var(--accent); }
.legend { display: flex; gap: 1rem; margin: .3rem 0 0; font-size: .85rem; }
.legend .key { padding-left: 1rem; position: relative; background: none; }
.legend .key::before { content: ""; position: absolute; left: 0; top: .3em; width: .7rem; height: .7rem; border-radius: 2px; background: inherit; }
.legend .key.s-received::before { background: #8c959f; } .legend .key.s-accepted::before { background: var(--ok); }
.legend .key.s-rejected::before { background: var(--bad); } .legend .key.s-synced::before { background: var(--accent); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
td { max-width: 28rem; }
th { color: var(--muted); font-weight: 600; white-space: nowrap; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; border: 1px solid currentColor; white-space: nowrap; }
.b-accepted, .b-succeeded, .b-enabled, .b-valid, .b-poprawna { color: var(--ok); }
.b-rejected, .b-failed, .b-disabled { color: var(--bad); }
.b-queued, .b-running { color: var(--warn); }
.b-sending { color: var(--info); }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem .8rem; align-items: end; }
.field { display: flex; flex-direction: column; gap: .15rem; font-size: .85rem; color: var(--muted); }
.check { display: inline-flex; align-items: center; gap: .3rem; font-size: .9rem; margin-right: .6rem; }
input, select, button { font: inherit; }
input, select { padding: .35rem .45rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--fg); min-width: 0; }
#sign-in { max-width: 32rem; margin: 2rem auto; display: flex; flex-direction: column; gap: .5rem; }
#sign-in input { width: 100%; }
button { padding: .35rem .8rem; border: 1px solid var(--line); border-radius: 6px; background: #f6f8fa; color: var(--fg); cursor: pointer; }
button[type="submit"] { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { color: var(--bad); }
button.link { background: none; border: none; color: var(--accent); text-decoration: underline; padding: 0; }
button:disabled { opacity: .6; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f0a30a; outline-offset: 2px; }
.hint { color: var(--muted); font-size: .85rem; margin: 0; }
.error { color: var(--bad); }
.ok { color: var(--ok); }
.upload { display: grid; gap: .5rem; }
.drop { border: 2px dashed var(--line); border-radius: 8px; padding: 1rem; text-align: center; color: var(--muted); overflow-wrap: anywhere; }
.drop.over { border-color: var(--accent); color: var(--accent); }
.events { border: 1px solid var(--line); border-radius: 6px; display: flex; flex-wrap: wrap; gap: .2rem; }
#webhook-form { display: grid; gap: .5rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0 0 1rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.pdf iframe { width: 100%; height: 80vh; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
.pager { display: flex; gap: .5rem; align-items: center; margin: .6rem 0; flex-wrap: wrap; }
.downloads { display: flex; gap: 1rem; flex-wrap: wrap; }
code { overflow-wrap: anywhere; background: #eef1f4; padding: 0 .25rem; border-radius: 4px; }
@media (max-width: 600px) {
  html { font-size: 14px; }
  header .tools { margin-left: 0; }
  main { padding: .6rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: .3rem; }
  .stats { grid-template-columns: repeat(2, 1fr); }
}
`;
