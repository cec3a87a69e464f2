/**
 * The console's JavaScript (README "Console"), served as `/console/app.js`: a client of `/api/v1` alone. The
 * token lives in the tab's sessionStorage only and travels in `X-API-Token`; what the token may do is read from
 * `GET /api/v1/token` (its scopes), so the page makes no request its token may not make. Every value from the API is
 * set as text (textContent, or attributes that are never URLs or handlers): never as markup. It is kept here as a
 * string so that lib/ does no I/O and the npm package and Deno serve it alike; it avoids backticks and dollar-brace
 * so that it can live in String.raw.
 * @module
 */

/** The script, byte for byte as served. */
export const CONSOLE_JS: string = String.raw`"use strict";
(function () {
  var TOKEN_KEY = "console.token";
  var LANG_KEY = "console.lang";
  var REFRESH_MS = 5000;
  var WATCH_MS = 1500;

  var L = {
    en: {
      title: "Operator console", token: "API token", signIn: "Sign in", signOut: "Sign out", tokenHint: "The token is kept in this tab only (sessionStorage) and sent in the X-API-Token header.",
      badToken: "The API did not accept this token.", noScopes: "This token can read nothing the console shows.",
      overview: "Overview", submissions: "Submissions", documents: "Documents", webhooks: "Webhooks", syncs: "Syncs",
      byStatus: "By KSeF status", byMode: "By mode", overdue: "Offline overdue", near: "Offline deadline near", sessions: "KSeF sessions in flight",
      perHour: "Submissions per hour (48 h)", perDay: "Documents synced per day (30 days)", received: "received", accepted: "accepted", rejected: "rejected", synced: "synced",
      total: "Total", invalid: "Invalid", xmlMissing: "XML missing", sources: "Sources", lastRun: "Last run", none: "none", health: "Health",
      filter: "Filter", next: "Next page", prev: "Previous page", reset: "Reset", upload: "Upload an invoice", chooseFile: "Choose or drop an XML or JSON file", send: "Upload",
      mode: "KSeF mode", corrects: "Correction of", correctedBy: "Corrected by", uploadCorrection: "Upload its technical correction", created: "Created",
      violations: "Violations", rule: "Rule", message: "Message", path: "Path", line: "Line", severity: "Severity", field: "Field",
      losses: "Lost in the conversion", value: "Value", reason: "Reason", source: "source", convertedFrom: "Converted from",
      validation: "Validation", valid: "valid", notValid: "not valid", ksef: "KSeF", status: "Status", code: "Code", details: "Details", ksefNumber: "KSeF number",
      download: "Download", xml: "XML", pdf: "PDF", facturX: "Factur-X PDF", upo: "UPO", sessionUpo: "Session UPO", notSent: "not sent to KSeF",
      number: "Number", issueDate: "Issue date", seller: "Seller", buyer: "Buyer", gross: "Gross", format: "Format", type: "Type", updated: "Updated",
      invoice: "Invoice", lines: "Lines", name: "Name", quantity: "Quantity", unit: "Unit", netPrice: "Net price", netAmount: "Net", vatRate: "VAT rate",
      url: "URL", events: "Events", description: "Description", add: "Add", secretOnce: "The signing secret, shown only now:", pause: "Pause", resume: "Resume", remove: "Delete",
      confirmDelete: "Delete this endpoint?", deliveries: "Deliveries", retry: "Retry", retried: "Retry requested", failures: "Consecutive failures", lastError: "Last error", nextAttempt: "Next attempt",
      event: "Event", attempt: "Attempt", at: "At", statusCode: "HTTP status", duration: "ms", error: "Error", manual: "manual",
      start: "Start a sync", running: "Running", history: "History", counts: "Counts", requested: "Requested", finished: "Finished",
      any: "any", yes: "yes", no: "no", loading: "Loading…", empty: "Nothing here yet.", failed: "The request failed", back: "Back", sort: "Sort", page: "Page", perPage: "Per page",
      from: "From", to: "To", sellerTaxId: "Seller tax id", buyerTaxId: "Buyer tax id", xmlAvailable: "XML available", overdueOnly: "Overdue or near",
      language: "Polski", skip: "Skip to content", notFound: "Not found"
    },
    pl: {
      title: "Konsola operatora", token: "Token API", signIn: "Zaloguj", signOut: "Wyloguj", tokenHint: "Token jest przechowywany tylko w tej karcie (sessionStorage) i wysyłany w nagłówku X-API-Token.",
      badToken: "API nie przyjęło tego tokenu.", noScopes: "Ten token nie pozwala czytać niczego, co pokazuje konsola.",
      overview: "Przegląd", submissions: "Wysyłki", documents: "Dokumenty", webhooks: "Webhooki", syncs: "Synchronizacje",
      byStatus: "Według statusu KSeF", byMode: "Według trybu", overdue: "Offline po terminie", near: "Offline blisko terminu", sessions: "Sesje KSeF w toku",
      perHour: "Wysyłki na godzinę (48 h)", perDay: "Dokumenty zsynchronizowane dziennie (30 dni)", received: "przyjęte", accepted: "zaakceptowane", rejected: "odrzucone", synced: "zsynchronizowane",
      total: "Razem", invalid: "Niepoprawne", xmlMissing: "Brak XML", sources: "Źródła", lastRun: "Ostatnie uruchomienie", none: "brak", health: "Stan",
      filter: "Filtruj", next: "Następna strona", prev: "Poprzednia strona", reset: "Wyczyść", upload: "Wyślij fakturę", chooseFile: "Wybierz lub upuść plik XML lub JSON", send: "Wyślij",
      mode: "Tryb KSeF", corrects: "Korekta faktury", correctedBy: "Skorygowana przez", uploadCorrection: "Wyślij korektę techniczną", created: "Utworzono",
      violations: "Naruszenia", rule: "Reguła", message: "Komunikat", path: "Ścieżka", line: "Wiersz", severity: "Waga", field: "Pole",
      losses: "Utracone w konwersji", value: "Wartość", reason: "Powód", source: "źródło", convertedFrom: "Przekształcona z",
      validation: "Walidacja", valid: "poprawna", notValid: "niepoprawna", ksef: "KSeF", status: "Status", code: "Kod", details: "Szczegóły", ksefNumber: "Numer KSeF",
      download: "Pobierz", xml: "XML", pdf: "PDF", facturX: "PDF Factur-X", upo: "UPO", sessionUpo: "UPO sesji", notSent: "nie wysyłana do KSeF",
      number: "Numer", issueDate: "Data wystawienia", seller: "Sprzedawca", buyer: "Nabywca", gross: "Brutto", format: "Format", type: "Rodzaj", updated: "Zmieniono",
      invoice: "Faktura", lines: "Pozycje", name: "Nazwa", quantity: "Ilość", unit: "Jednostka", netPrice: "Cena netto", netAmount: "Netto", vatRate: "Stawka VAT",
      url: "URL", events: "Zdarzenia", description: "Opis", add: "Dodaj", secretOnce: "Sekret podpisu, pokazywany tylko teraz:", pause: "Wstrzymaj", resume: "Wznów", remove: "Usuń",
      confirmDelete: "Usunąć ten punkt końcowy?", deliveries: "Doręczenia", retry: "Ponów", retried: "Zlecono ponowienie", failures: "Kolejne błędy", lastError: "Ostatni błąd", nextAttempt: "Następna próba",
      event: "Zdarzenie", attempt: "Próba", at: "Czas", statusCode: "Status HTTP", duration: "ms", error: "Błąd", manual: "ręczna",
      start: "Uruchom synchronizację", running: "W toku", history: "Historia", counts: "Liczniki", requested: "Zlecono", finished: "Zakończono",
      any: "dowolny", yes: "tak", no: "nie", loading: "Wczytywanie…", empty: "Na razie nic tu nie ma.", failed: "Żądanie nie powiodło się", back: "Wstecz", sort: "Sortowanie", page: "Strona", perPage: "Na stronę",
      from: "Od", to: "Do", sellerTaxId: "NIP sprzedawcy", buyerTaxId: "NIP nabywcy", xmlAvailable: "XML dostępny", overdueOnly: "Po terminie lub blisko",
      language: "English", skip: "Przejdź do treści", notFound: "Nie znaleziono"
    }
  };

  var state = { token: null, lang: "en", can: {}, timer: null, view: null, blobs: [] };

  function t(key) { return (L[state.lang] && L[state.lang][key]) || L.en[key] || key; }

  // Elements: attributes are set one by one (never markup); children are nodes or text.
  function h(tag, attrs) {
    var el = tag.indexOf("svg:") === 0 ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4)) : document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === "text") el.textContent = String(v);
        else if (k.indexOf("on") === 0) el.addEventListener(k.slice(2), v);
        else el.setAttribute(k, v === true ? "" : String(v));
      }
    }
    for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
    return el;
  }
  function add(el, c) {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { add(el, x); }); return; }
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }
  function main() { return document.getElementById("main"); }

  function when(iso) {
    if (!iso) return h("span", { text: "—" });
    var d = new Date(iso);
    return h("time", { datetime: iso, title: iso, text: isNaN(d.getTime()) ? iso : d.toLocaleString(state.lang === "pl" ? "pl-PL" : "en-GB") });
  }
  function show(v) { return v === null || v === undefined || v === "" ? "—" : String(v); }

  // ---------------------------------------------------------------- the API
  function api(path, init) {
    init = init || {};
    var headers = new Headers(init.headers || {});
    headers.set("X-API-Token", state.token);
    return fetch(path, { method: init.method || "GET", headers: headers, body: init.body, cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" }).then(function (res) {
      if (res.status === 401) { signOut(t("badToken")); throw new Error("401"); }
      var type = res.headers.get("content-type") || "";
      if (init.raw) return res;
      if (type.indexOf("application/json") === 0) return res.json().then(function (body) { return { status: res.status, body: body, headers: res.headers }; });
      return { status: res.status, body: null, headers: res.headers };
    });
  }
  function qs(params) {
    var u = new URLSearchParams();
    Object.keys(params).forEach(function (k) { if (params[k] !== "" && params[k] !== null && params[k] !== undefined) u.set(k, params[k]); });
    var s = u.toString();
    return s ? "?" + s : "";
  }
  function errorBox(res) {
    var e = res && res.body && res.body.error;
    return h("div", { class: "error", role: "alert" }, h("strong", { text: e ? e.code : t("failed") }), " ", e ? e.message : "", e && e.request_id ? h("small", { text: " (" + e.request_id + ")" }) : null);
  }

  // Scopes, read from what the API says of the token (GET /api/v1/token, which any valid token may ask): nothing
  // is learned by being refused, so an operator's log holds no 403 of this page.
  function learnScopes() {
    return api("/api/v1/token").then(function (res) {
      if (res.status !== 200 || !res.body || !Array.isArray(res.body.scopes)) throw new Error(String(res.status));
      var has = function (scope) { return res.body.scopes.indexOf(scope) >= 0; };
      state.can = {
        submissionsRead: has("submissions:read"), submissionsWrite: has("submissions:write"),
        documentsRead: has("documents:read"), documentsWrite: has("documents:write"),
        webhooksRead: has("webhooks:read"), webhooksWrite: has("webhooks:write")
      };
      return state.can;
    });
  }

  // ---------------------------------------------------------------- shell
  function renderShell() {
    var app = clear(document.getElementById("app"));
    var nav = h("nav", { "aria-label": t("title") });
    var items = [["overview", true], ["submissions", state.can.submissionsRead], ["documents", state.can.documentsRead], ["webhooks", state.can.webhooksRead], ["syncs", state.can.documentsRead]];
    items.forEach(function (it) { if (it[1]) nav.appendChild(h("a", { href: "#/" + it[0], id: "nav-" + it[0], text: t(it[0]) })); });
    app.appendChild(h("header", null,
      h("a", { class: "skip", href: "#main", onclick: function (e) { e.preventDefault(); main().focus(); }, text: t("skip") }),
      h("h1", { text: t("title") }), nav,
      h("div", { class: "tools" },
        h("button", { type: "button", id: "lang", onclick: switchLang, text: t("language") }),
        state.token ? h("button", { type: "button", id: "sign-out", onclick: function () { signOut(null); }, text: t("signOut") }) : null)));
    app.appendChild(h("main", { id: "main", tabindex: "-1" }));
  }

  function switchLang() {
    state.lang = state.lang === "en" ? "pl" : "en";
    sessionStorage.setItem(LANG_KEY, state.lang);
    document.documentElement.lang = state.lang;
    if (state.token) { renderShell(); route(); } else renderSignIn(null);
  }

  function renderSignIn(message) {
    stopTimer();
    state.token = null;
    renderShell();
    var input = h("input", { id: "token", type: "password", autocomplete: "off", spellcheck: "false", required: true });
    var form = h("form", { id: "sign-in", class: "card", onsubmit: function (e) {
      e.preventDefault();
      var value = input.value.trim();
      if (!value) return;
      state.token = value;
      learnScopes().then(function (can) {
        if (!canRead(can)) { renderSignIn(t("noScopes")); return; }
        sessionStorage.setItem(TOKEN_KEY, value);
        renderShell();
        if (location.hash !== "#/overview") location.hash = "#/overview"; else route();
      }, scopesFailed);
    } },
      h("label", { for: "token", text: t("token") }), input,
      h("p", { class: "hint", text: t("tokenHint") }),
      message ? h("p", { class: "error", role: "alert", text: message }) : null,
      h("button", { type: "submit", text: t("signIn") }));
    add(main(), form);
    input.focus();
  }

  // The console shows what can be read: a token with write scopes alone has nothing to look at here.
  function canRead(can) { return can.submissionsRead || can.documentsRead || can.webhooksRead; }
  // A 401 has already signed out with its message; any other failure to read the scopes is said on the sign-in form.
  function scopesFailed(e) { if (!e || e.message !== "401") renderSignIn(t("failed")); }

  function signOut(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    state.can = {};
    renderSignIn(message);
  }

  function stopTimer() {
    if (state.timer) { clearTimeout(state.timer); state.timer = null; }
    state.blobs.forEach(function (u) { URL.revokeObjectURL(u); });
    state.blobs = [];
  }
  // Repeats fn while the page is visible and the view is still the one that asked.
  function every(ms, view, fn) {
    function tick() {
      state.timer = null;
      if (state.view !== view) return;
      if (document.visibilityState !== "visible") return;
      Promise.resolve(fn()).catch(function () {}).then(function () {
        if (state.view === view && !state.timer) state.timer = setTimeout(tick, ms);
      });
    }
    state.resume = function () { if (state.view === view && !state.timer) tick(); };
    state.timer = setTimeout(tick, ms);
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { if (state.resume) state.resume(); }
    else if (state.timer) { clearTimeout(state.timer); state.timer = null; }
  });

  function route() {
    if (!state.token) return;
    stopTimer();
    state.resume = null;
    var parts = (location.hash.replace(/^#\/?/, "") || "overview").split("/");
    var view = location.hash + "|" + Date.now();
    state.view = view;
    var m = clear(main());
    Array.prototype.forEach.call(document.querySelectorAll("nav a"), function (a) {
      if (a.id === "nav-" + parts[0]) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    });
    var id = parts[1] ? decoded(parts[1]) : null;
    // A part that is no valid percent-encoding (#/documents/%E0%A4%A) names nothing: not found, never an exception.
    if (id === false) return notFound(m);
    if (parts[0] === "submissions" && state.can.submissionsRead) return id ? submissionPage(m, id, view) : submissionsView(m, view);
    if (parts[0] === "documents" && state.can.documentsRead) return id ? documentPage(m, id) : documentsView(m);
    if (parts[0] === "webhooks" && state.can.webhooksRead) return id ? deliveriesView(m, id) : webhooksView(m);
    if (parts[0] === "syncs" && state.can.documentsRead) return syncsView(m, view);
    return overview(m, view);
  }

  // decodeURIComponent of a part of the hash, or false when the part is not valid percent-encoding (a URIError).
  function decoded(part) {
    try { return decodeURIComponent(part); } catch (e) { return false; }
  }

  function notFound(m) {
    m.appendChild(h("h2", { id: "not-found", text: t("notFound") }));
    m.appendChild(h("p", null, h("a", { href: "#/overview", text: "← " + t("overview") })));
  }

  // ---------------------------------------------------------------- overview
  function overview(m, view) {
    m.appendChild(h("h2", { text: t("overview") }));
    var box = h("div", { id: "overview", "aria-live": "polite" });
    m.appendChild(box);
    function load() {
      return api("/api/v1/summary").then(function (res) {
        if (state.view !== view) return;
        if (res.status !== 200) { clear(box).appendChild(errorBox(res)); return; }
        drawSummary(clear(box), res.body);
      });
    }
    every(REFRESH_MS, view, load);
    return load();
  }

  function stat(label, value, id) { return h("div", { class: "stat", id: id }, h("span", { class: "n", text: show(value) }), h("span", { class: "l", text: label })); }

  function drawSummary(box, s) {
    if (s.submissions) {
      var sub = s.submissions;
      var sec = h("section", { class: "card", id: "summary-submissions" }, h("h3", { text: t("submissions") }));
      var stats = h("div", { class: "stats" });
      ["queued", "sending", "accepted", "rejected", "not_sent"].forEach(function (k) { stats.appendChild(stat(k.replace("_", " "), sub.by_status[k], "count-" + k)); });
      stats.appendChild(stat("online", sub.by_mode.online));
      stats.appendChild(stat("offline", sub.by_mode.offline));
      stats.appendChild(stat(t("overdue"), sub.offline_overdue, "count-overdue"));
      stats.appendChild(stat(t("near"), sub.offline_deadline_near));
      sec.appendChild(stats);
      sec.appendChild(h("h4", { text: t("perHour") }));
      sec.appendChild(chart("chart-hours", sub.per_hour, ["received", "accepted", "rejected"], function (p) { return p.hour; }));
      if (sub.ksef_sessions.length) {
        sec.appendChild(h("h4", { text: t("sessions") }));
        sec.appendChild(table([t("type"), "reference", t("created"), t("submissions")], sub.ksef_sessions.map(function (x) { return [x.type, x.reference, when(x.opened_at), x.invoices]; })));
      }
      box.appendChild(sec);
    }
    if (s.documents) {
      var d = s.documents;
      var ds = h("section", { class: "card", id: "summary-documents" }, h("h3", { text: t("documents") }));
      ds.appendChild(h("div", { class: "stats" }, stat(t("total"), d.total, "count-documents"), stat(t("invalid"), d.invalid), stat(t("xmlMissing"), d.xml_missing)));
      ds.appendChild(h("h4", { text: t("perDay") }));
      ds.appendChild(chart("chart-days", d.per_day, ["synced"], function (p) { return p.day; }));
      ds.appendChild(h("h4", { text: t("sources") }));
      ds.appendChild(table([t("sources"), t("type"), t("lastRun"), t("status")], d.sources.map(function (x) {
        return [x.source, x.type, x.last_run ? when(x.last_run.requested_at) : t("none"), x.last_run ? badge(x.last_run.status) : "—"];
      })));
      box.appendChild(ds);
    }
    if (s.webhooks) {
      var ws = h("section", { class: "card", id: "summary-webhooks" }, h("h3", { text: t("webhooks") }));
      ws.appendChild(s.webhooks.length ? table([t("url"), t("status"), t("failures"), t("lastError"), t("nextAttempt")], s.webhooks.map(function (w) {
        return [w.url, badge(w.status), w.consecutive_failures, w.last_error ? show(w.last_error.status) + " " + w.last_error.message : "—", when(w.next_attempt_at)];
      })) : h("p", { text: t("empty") }));
      box.appendChild(ws);
    }
  }

  // A bar chart drawn here (inline SVG, no library): one group of bars per point, one colour per series.
  function chart(id, points, series, labelOf) {
    var W = 720, H = 160, P = 24;
    var max = 1;
    points.forEach(function (p) { series.forEach(function (k) { if (p[k] > max) max = p[k]; }); });
    var svg = h("svg:svg", { id: id, class: "chart", viewBox: "0 0 " + W + " " + (H + P + 4), role: "img", "aria-label": series.map(t).join(", ") });
    var slot = (W - P) / points.length;
    var bw = Math.max(1, (slot - 2) / series.length);
    svg.appendChild(h("svg:line", { x1: P, y1: H, x2: W, y2: H, class: "axis" }));
    svg.appendChild(h("svg:text", { x: 0, y: 14, class: "tick", text: String(max) }));
    points.forEach(function (p, i) {
      series.forEach(function (k, j) {
        var v = p[k] || 0;
        var bh = Math.round((v / max) * (H - 16));
        var r = h("svg:rect", { x: (P + i * slot + j * bw).toFixed(1), y: H - bh, width: bw.toFixed(1), height: bh, class: "s-" + k, "data-value": v });
        r.appendChild(h("svg:title", { text: labelOf(p) + " " + t(k) + ": " + v }));
        svg.appendChild(r);
      });
      if (i % Math.ceil(points.length / 6) === 0) {
        var d = new Date(labelOf(p));
        var loc = state.lang === "pl" ? "pl-PL" : "en-GB";
        var label = labelOf(p).length > 10 ? d.toLocaleTimeString(loc, { hour: "2-digit", minute: "2-digit" }) : d.toLocaleDateString(loc, { month: "2-digit", day: "2-digit" });
        svg.appendChild(h("svg:text", { x: P + i * slot, y: H + 20, class: "tick", text: label }));
      }
    });
    var legend = h("p", { class: "legend" });
    series.forEach(function (k) { legend.appendChild(h("span", { class: "key s-" + k, text: t(k) })); });
    return h("figure", null, svg, legend);
  }

  function badge(s) { return h("span", { class: "badge b-" + String(s).replace(/[^a-z_]/g, ""), text: show(s) }); }

  function table(head, rows, id) {
    var tb = h("tbody");
    rows.forEach(function (r) { tb.appendChild(h("tr", null, r.map(function (c) { return h("td", null, c === null || c === undefined ? "—" : c); }))); });
    return h("div", { class: "scroll" }, h("table", { id: id }, h("thead", null, h("tr", null, head.map(function (x) { return h("th", { scope: "col", text: x }); }))), tb));
  }

  function select(name, options, value) {
    var s = h("select", { name: name, id: "f-" + name });
    options.forEach(function (o) { var op = h("option", { value: o, text: o === "" ? t("any") : o }); if (o === value) op.selected = true; s.appendChild(op); });
    return s;
  }
  function field(label, control) { return h("label", { class: "field" }, h("span", { text: label }), control); }
  function formValues(form) {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) { if (el.name && el.type !== "checkbox") out[el.name] = el.value; else if (el.name && el.checked) out[el.name] = "true"; });
    return out;
  }

  // ---------------------------------------------------------------- submissions
  var FORMATS = ["", "ksef-fa2", "ksef-fa3", "ksef-fa-rr1", "ksef-pef3", "ubl", "cii"];
  var TYPES = ["", "invoice", "credit_note", "correction", "other"];

  function submissionsView(m, view) {
    m.appendChild(h("h2", { text: t("submissions") }));
    if (state.can.submissionsWrite) m.appendChild(uploadForm(null));
    var filters = h("form", { class: "filters card", id: "submission-filters" },
      field(t("status"), select("ksef_status", ["", "queued", "sending", "accepted", "rejected"], "")),
      field(t("mode"), select("ksef_mode", ["", "online", "offline"], "")),
      field(t("format"), select("format", FORMATS, "")), field(t("type"), select("type", TYPES, "")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "overdue", id: "f-overdue" }), t("overdueOnly")),
      h("button", { type: "submit", text: t("filter") }));
    var list = h("div", { id: "submission-list" });
    m.appendChild(filters);
    m.appendChild(list);
    var cursors = [null];
    function load(i) {
      var p = formValues(filters);
      p.limit = "50";
      if (cursors[i]) p.cursor = cursors[i];
      return api("/api/v1/submissions" + qs(p)).then(function (res) {
        clear(list);
        if (res.status !== 200) { list.appendChild(errorBox(res)); return; }
        list.appendChild(res.body.data.length ? table([t("number"), t("status"), t("ksef"), t("seller"), t("gross"), t("updated")], res.body.data.map(function (s) {
          return [h("a", { href: "#/submissions/" + encodeURIComponent(s.id), text: show(s.number) }), badge(s.status), s.ksef ? badge(s.ksef.status) : t("notSent"),
            s.seller ? show(s.seller.name) : "—", s.totals ? show(s.totals.gross) + " " + show(s.currency) : "—", when(s.updated_at)];
        }), "submissions-table") : h("p", { text: t("empty") }));
        var pager = h("div", { class: "pager" });
        if (i > 0) pager.appendChild(h("button", { type: "button", onclick: function () { load(i - 1); }, text: t("prev") }));
        if (res.body.has_more) pager.appendChild(h("button", { type: "button", id: "next-page", onclick: function () { cursors[i + 1] = res.body.next_cursor; load(i + 1); }, text: t("next") }));
        list.appendChild(pager);
      });
    }
    filters.addEventListener("submit", function (e) { e.preventDefault(); cursors = [null]; load(0); });
    return load(0);
  }

  // The upload form: a file chosen or dropped; the 201 or the 422's violations shown in place. An XML file goes as
  // multipart; a JSON file (named .json, or starting with "{") is the JSON of a creation (README "Creating
  // invoices"), posted as it is unless the form adds ksef_mode or corrects that it does not give.
  function uploadForm(corrects) {
    var file = h("input", { type: "file", name: "xml", id: corrects ? "correction-file" : "upload-file", accept: ".xml,application/xml,text/xml,.json,application/json", required: true });
    var out = h("div", { class: "result", "aria-live": "polite", id: corrects ? "correction-result" : "upload-result" });
    var mode = select("ksef_mode", ["online", "offline"], corrects ? "offline" : "online");
    var dropped = null;
    var zone = h("div", { class: "drop", text: t("chooseFile") });
    var form = h("form", { class: "card upload", id: corrects ? "correction-form" : "upload-form" },
      h("h3", { text: corrects ? t("uploadCorrection") : t("upload") }), zone, file,
      corrects ? null : field(t("mode"), mode),
      h("button", { type: "submit", text: t("send") }), out);
    zone.addEventListener("dragover", function (e) { e.preventDefault(); zone.classList.add("over"); });
    zone.addEventListener("dragleave", function () { zone.classList.remove("over"); });
    zone.addEventListener("drop", function (e) {
      e.preventDefault(); zone.classList.remove("over");
      if (e.dataTransfer && e.dataTransfer.files.length) { dropped = e.dataTransfer.files[0]; zone.textContent = dropped.name; }
    });
    file.addEventListener("change", function () { dropped = null; if (file.files.length) zone.textContent = file.files[0].name; });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var f = dropped || (file.files && file.files[0]);
      if (!f) return;
      // A correction's mode is the server's to settle (README "Offline invoices": it keeps the original's deadline).
      var extra = corrects ? { corrects: corrects } : mode.value !== "online" ? { ksef_mode: mode.value } : {};
      clear(out).appendChild(h("p", { text: t("loading") }));
      uploadBody(f, extra).then(function (init) {
        init.method = "POST";
        return api("/api/v1/submissions", init);
      }).then(function (res) {
        clear(out);
        if (res.status === 201) {
          out.appendChild(h("p", { class: "ok" }, t("created") + ": ", h("a", { href: "#/submissions/" + encodeURIComponent(res.body.id), text: show(res.body.number) + " (" + res.body.id + ")" })));
          return;
        }
        out.appendChild(errorBox(res));
        var v = res.body && res.body.error && res.body.error.details && res.body.error.details.violations;
        if (v) out.appendChild(violationsTable(v, "upload-violations"));
      });
    });
    return form;
  }

  // The request of an upload: JSON when the file is (by its name or its first character), else multipart.
  function uploadBody(f, extra) {
    var named = /\.json$/i.test(f.name);
    return (named ? Promise.resolve(true) : f.slice(0, 1024).text().then(function (head) { return /^\uFEFF?\s*\{/.test(head); })).then(function (json) {
      if (!json) {
        var form = new FormData();
        form.append("xml", f, f.name);
        Object.keys(extra).forEach(function (k) { form.append(k, extra[k]); });
        return { body: form };
      }
      return f.text().then(function (text) {
        var keys = Object.keys(extra);
        if (keys.length) {
          // Added only where the file says nothing of it; a file that is no JSON object goes as it is, for the API to name why.
          try {
            var value = JSON.parse(text);
            if (value && typeof value === "object" && !Array.isArray(value)) {
              keys.forEach(function (k) { if (!(k in value)) value[k] = extra[k]; });
              text = JSON.stringify(value);
            }
          } catch (e) { /* sent as it is */ }
        }
        return { body: text, headers: { "Content-Type": "application/json" } };
      });
    });
  }

  // A created invoice's findings also name the JSON path at fault (field): a last column, when any has one.
  function violationsTable(v, id) {
    var fields = v.some(function (x) { return x.field; });
    var head = [t("rule"), t("severity"), t("message"), t("path"), t("line")].concat(fields ? [t("field")] : []);
    return table(head, v.map(function (x) {
      var row = [x.rule, x.severity, x.message, x.path, x.line === null || x.line === undefined ? "—" : x.line + (x.column ? ":" + x.column : "")];
      return fields ? row.concat([show(x.field)]) : row;
    }), id);
  }

  function dl(pairs) {
    var d = h("dl", { class: "facts" });
    pairs.forEach(function (p) { if (p) { d.appendChild(h("dt", { text: p[0] })); d.appendChild(h("dd", null, p[1] === null || p[1] === undefined ? "—" : p[1])); } });
    return d;
  }

  // Downloads need the token header: fetched, then saved from a blob URL.
  function downloadButton(label, path, filename) {
    var btn = h("button", { type: "button", class: "link", onclick: function () {
      api(path, { raw: true }).then(function (res) {
        if (!res.ok) { btn.textContent = t("failed") + " (" + res.status + ")"; return; }
        return res.blob().then(function (b) {
          var u = URL.createObjectURL(b);
          var a = h("a", { href: u, download: filename });
          document.body.appendChild(a); a.click(); a.remove();
          setTimeout(function () { URL.revokeObjectURL(u); }, 10000);
        });
      });
    }, text: t("download") + " " + label });
    return btn;
  }

  // The PDF/A-3 with the invoice embedded as CII (README "Getting a Factur-X PDF"): an FA_RR invoice has no CII form.
  function facturXButton(pdfPath, name) {
    var btn = downloadButton(t("facturX"), pdfPath + "?as=factur-x", name + "-factur-x.pdf");
    btn.id = "download-facturx";
    return btn;
  }

  // The PDF in a frame: fetched with the token, shown from a blob URL (frame-src 'self' blob:).
  function pdfFrame(path) {
    var box = h("div", { class: "pdf", id: "pdf" });
    api(path, { raw: true }).then(function (res) {
      if (!res.ok) { box.appendChild(h("p", { text: t("pdf") + ": " + res.status })); return; }
      return res.blob().then(function (b) {
        var u = URL.createObjectURL(new Blob([b], { type: "application/pdf" }));
        state.blobs.push(u);
        box.appendChild(h("iframe", { src: u, title: t("pdf") }));
      });
    });
    return box;
  }

  function partyName(p) { return p ? show(p.name) + (p.tax_id ? " (" + p.tax_id + ")" : "") : "—"; }

  function submissionPage(m, id, view) {
    var box = h("div", { id: "submission", "aria-live": "polite" });
    m.appendChild(h("p", null, h("a", { href: "#/submissions", text: "← " + t("submissions") })));
    m.appendChild(box);
    var shownPdf = null;
    var pdfBox = h("div");
    function load() {
      return api("/api/v1/submissions/" + encodeURIComponent(id)).then(function (res) {
        if (state.view !== view) return;
        clear(box);
        if (res.status !== 200) { box.appendChild(errorBox(res)); return; }
        var s = res.body;
        var k = s.ksef;
        box.appendChild(h("h2", { text: t("submissions") + ": " + show(s.number) }));
        box.appendChild(dl([
          ["id", s.id], [t("status"), badge(s.status)], [t("format"), s.format], [t("type"), s.type], [t("issueDate"), s.issue_date],
          [t("seller"), partyName(s.seller)], [t("buyer"), partyName(s.buyer)], [t("gross"), s.totals ? show(s.totals.gross) + " " + show(s.currency) : "—"],
          [t("created"), when(s.created_at)], [t("updated"), when(s.updated_at)]
        ]));
        var ks = h("section", { class: "card", id: "ksef" }, h("h3", { text: t("ksef") }));
        if (!k) ks.appendChild(h("p", { text: t("notSent") }));
        else {
          ks.appendChild(dl([
            [t("status"), h("span", { id: "ksef-status" }, badge(k.status))], [t("ksefNumber"), h("span", { id: "ksef-number", text: show(k.ksef_number) })],
            [t("mode"), k.mode], ["deadline", k.deadline], ["session", k.session], ["reference", k.reference], ["attempts", k.attempts],
            k.error ? [t("code"), k.error.code] : null, k.error ? [t("message"), k.error.message] : null,
            k.error && k.error.details.length ? [t("details"), h("ul", null, k.error.details.map(function (x) { return h("li", { text: x }); }))] : null,
            k.corrects ? [t("corrects"), h("a", { href: "#/submissions/" + encodeURIComponent(k.corrects), id: "link-corrects", text: k.corrects })] : null,
            k.corrected_by ? [t("correctedBy"), h("a", { href: "#/submissions/" + encodeURIComponent(k.corrected_by), id: "link-corrected-by", text: k.corrected_by })] : null
          ]));
        }
        box.appendChild(ks);
        var links = h("p", { class: "downloads" }, downloadButton(t("xml"), s.links.xml, safeName(s.number) + ".xml"), " ");
        // A Factur-X PDF embeds the CII as stored (README "Getting a Factur-X PDF").
        if (s.format !== "ksef-fa-rr1") add(links, [facturXButton(s.links.pdf, safeName(s.number)), " "]);
        if (s.links.upo) add(links, [downloadButton(t("upo"), s.links.upo, safeName(s.number) + "-upo.xml"), " "]);
        if (k && k.session_type === "batch" && k.status === "accepted") add(links, [downloadButton(t("sessionUpo"), "/api/v1/submissions/" + encodeURIComponent(s.id) + "/session-upo", "session-upo.xml"), " "]);
        if (s.links.source) add(links, h("span", { id: "download-source" }, downloadButton(t("source"), s.links.source, safeName(s.number) + "-source" + sourceExtension(s.source))));
        box.appendChild(links);
        var c = s.conversion;
        if (c && c.losses && c.losses.length) {
          box.appendChild(h("section", { class: "card", id: "losses" }, h("h3", { text: t("losses") + " (" + t("convertedFrom") + " " + show(c.from) + ")" }),
            table([t("field"), t("value"), t("reason"), t("path")], c.losses.map(function (l) { return [l.field, l.value, l.reason, show(l.path)]; }), "losses-table")));
        }
        var v = s.validation;
        if (v) {
          var vs = h("section", { class: "card", id: "validation" }, h("h3", null, t("validation") + ": ", badge(v.valid ? t("valid") : t("notValid"))));
          var found = (v.errors || []).concat(v.warnings || []);
          if (found.length) vs.appendChild(violationsTable(found, "validation-table"));
          box.appendChild(vs);
        }
        if (k && k.mode === "offline" && k.status === "rejected" && !k.corrected_by && state.can.submissionsWrite) box.appendChild(uploadForm(s.id));
        // The PDF changes when KSeF accepts (its number is printed): shown again only then.
        var pdfKey = s.links.pdf + "|" + (k ? k.status : "");
        if (pdfKey !== shownPdf) { shownPdf = pdfKey; clear(pdfBox).appendChild(pdfFrame(s.links.pdf)); }
        box.appendChild(pdfBox);
      });
    }
    every(WATCH_MS, view, load);
    return load();
  }

  function sourceExtension(src) {
    var type = src && src.media_type;
    return type === "application/json" ? ".json" : type === "application/pdf" ? ".pdf" : ".xml";
  }

  function safeName(s) { return String(s || "invoice").replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80); }

  // ---------------------------------------------------------------- documents
  function documentsView(m) {
    m.appendChild(h("h2", { text: t("documents") }));
    var filters = h("form", { class: "filters card", id: "document-filters" },
      field(t("type"), select("type", TYPES, "")), field(t("format"), select("format", FORMATS, "")),
      field(t("from"), h("input", { type: "date", name: "issue_date_from" })), field(t("to"), h("input", { type: "date", name: "issue_date_to" })),
      field(t("sellerTaxId"), h("input", { name: "seller_tax_id", inputmode: "numeric" })), field(t("buyerTaxId"), h("input", { name: "buyer_tax_id", inputmode: "numeric" })),
      field(t("ksefNumber"), h("input", { name: "ksef_number" })), field(t("xmlAvailable"), select("xml_available", ["", "true", "false"], "")),
      field(t("sort"), select("sort", ["-issue_date", "issue_date", "-synced_at", "synced_at"], "-issue_date")),
      h("button", { type: "submit", text: t("filter") }));
    var list = h("div", { id: "document-list" });
    m.appendChild(filters);
    m.appendChild(list);
    function load(page) {
      var p = formValues(filters);
      p.page = String(page);
      p.per_page = "25";
      return api("/api/v1/documents" + qs(p)).then(function (res) {
        clear(list);
        if (res.status !== 200) { list.appendChild(errorBox(res)); return; }
        var b = res.body;
        list.appendChild(b.data.length ? table([t("number"), t("issueDate"), t("seller"), t("buyer"), t("gross"), t("format"), "XML"], b.data.map(function (d) {
          return [h("a", { href: "#/documents/" + encodeURIComponent(d.id), text: show(d.number || d.external_id) }), show(d.issue_date), partyName(d.seller), partyName(d.buyer),
            d.totals ? show(d.totals.gross) + " " + show(d.currency) : "—", show(d.format), d.xml_available ? t("yes") : t("no")];
        }), "documents-table") : h("p", { text: t("empty") }));
        var pager = h("div", { class: "pager" }, h("span", { text: t("page") + " " + b.page + " / " + Math.max(1, b.total_pages) + " (" + b.total + ")" }));
        if (page > 1) pager.appendChild(h("button", { type: "button", onclick: function () { load(page - 1); }, text: t("prev") }));
        if (page < b.total_pages) pager.appendChild(h("button", { type: "button", onclick: function () { load(page + 1); }, text: t("next") }));
        list.appendChild(pager);
      });
    }
    filters.addEventListener("submit", function (e) { e.preventDefault(); load(1); });
    return load(1);
  }

  function documentPage(m, id) {
    m.appendChild(h("p", null, h("a", { href: "#/documents", text: "← " + t("documents") })));
    var box = h("div", { id: "document" });
    m.appendChild(box);
    return api("/api/v1/documents/" + encodeURIComponent(id)).then(function (res) {
      if (res.status !== 200) { box.appendChild(errorBox(res)); return; }
      var d = res.body;
      box.appendChild(h("h2", { text: t("documents") + ": " + show(d.number || d.external_id) }));
      box.appendChild(dl([["id", d.id], [t("sources"), d.source], ["external_id", d.external_id], [t("format"), d.format], [t("type"), d.type],
        [t("issueDate"), d.issue_date], [t("seller"), partyName(d.seller)], [t("buyer"), partyName(d.buyer)],
        [t("gross"), d.totals ? show(d.totals.gross) + " " + show(d.currency) : "—"], [t("ksefNumber"), d.ksef_number], [t("synced"), when(d.synced_at)]]));
      if (d.links.xml) {
        var docLinks = box.appendChild(h("p", { class: "downloads" }, downloadButton(t("xml"), d.links.xml, safeName(d.number || d.external_id) + ".xml")));
        if (d.format !== "ksef-fa-rr1" && d.links.pdf) add(docLinks, [" ", facturXButton(d.links.pdf, safeName(d.number || d.external_id))]);
      }
      var v = d.validation;
      if (v) {
        var vs = h("section", { class: "card", id: "validation" }, h("h3", null, t("validation") + ": ", badge(v.valid ? t("valid") : t("notValid"))));
        var found = (v.errors || []).concat(v.warnings || []);
        if (found.length) vs.appendChild(violationsTable(found, "validation-table"));
        box.appendChild(vs);
      }
      var inv = d.invoice;
      if (inv && inv.lines) {
        box.appendChild(h("section", { class: "card", id: "invoice" }, h("h3", { text: t("invoice") + " · " + t("lines") }),
          table(["#", t("name"), t("quantity"), t("unit"), t("netPrice"), t("netAmount"), t("vatRate")], inv.lines.map(function (l) {
            return [show(l.number), show(l.name), show(l.quantity), show(l.unit), show(l.net_price), show(l.net_amount), show(l.vat_rate_text || l.vat_rate)];
          }))));
      }
      if (d.links.pdf) box.appendChild(pdfFrame(d.links.pdf));
    });
  }

  // ---------------------------------------------------------------- webhooks
  var EVENTS = ["*", "document.created", "document.updated", "sync.completed", "sync.failed", "submission.created", "submission.ksef_accepted", "submission.ksef_rejected", "submission.ksef_deadline_near", "ksef.certificate_expiring"];

  function webhooksView(m) {
    m.appendChild(h("h2", { text: t("webhooks") }));
    var list = h("div", { id: "webhook-list" });
    if (state.can.webhooksWrite) {
      var url = h("input", { type: "url", name: "url", id: "wh-url", required: true, placeholder: "https://" });
      var desc = h("input", { name: "description", id: "wh-desc" });
      var events = h("fieldset", { class: "events" }, h("legend", { text: t("events") }));
      EVENTS.forEach(function (e) { events.appendChild(h("label", { class: "check" }, h("input", { type: "checkbox", value: e, checked: e === "*" }), e)); });
      var out = h("div", { class: "result", "aria-live": "polite", id: "wh-result" });
      var form = h("form", { class: "card", id: "webhook-form", onsubmit: function (e) {
        e.preventDefault();
        var chosen = Array.prototype.filter.call(events.querySelectorAll("input"), function (i) { return i.checked; }).map(function (i) { return i.value; });
        api("/api/v1/webhooks", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: url.value, events: chosen, description: desc.value || null }) }).then(function (res) {
          clear(out);
          if (res.status !== 201) { out.appendChild(errorBox(res)); return; }
          out.appendChild(h("p", { class: "ok" }, t("secretOnce") + " ", h("code", { id: "wh-secret", text: res.body.secret })));
          load();
        });
      } }, h("h3", { text: t("add") }), field(t("url"), url), field(t("description"), desc), events, h("button", { type: "submit", text: t("add") }), out);
      m.appendChild(form);
    }
    m.appendChild(list);
    function load() {
      return api("/api/v1/webhooks").then(function (res) {
        clear(list);
        if (res.status !== 200) { list.appendChild(errorBox(res)); return; }
        list.appendChild(res.body.data.length ? table([t("url"), t("status"), t("failures"), t("lastError"), t("nextAttempt"), ""], res.body.data.map(function (w) {
          var actions = h("span", { class: "actions" }, h("a", { href: "#/webhooks/" + encodeURIComponent(w.id), text: t("deliveries") }));
          if (state.can.webhooksWrite) {
            add(actions, [" ", h("button", { type: "button", class: "toggle", onclick: function () {
              api("/api/v1/webhooks/" + encodeURIComponent(w.id), { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: w.status === "enabled" ? "disabled" : "enabled" }) }).then(load);
            }, text: w.status === "enabled" ? t("pause") : t("resume") }), " ", h("button", { type: "button", class: "danger", onclick: function () {
              if (!confirm(t("confirmDelete"))) return;
              api("/api/v1/webhooks/" + encodeURIComponent(w.id), { method: "DELETE" }).then(load);
            }, text: t("remove") })]);
          }
          return [w.url, badge(w.status), w.consecutive_failures, w.last_error ? show(w.last_error.status) + " " + w.last_error.message : "—", when(w.next_attempt_at), actions];
        }), "webhooks-table") : h("p", { text: t("empty") }));
      });
    }
    return load();
  }

  function deliveriesView(m, id) {
    m.appendChild(h("p", null, h("a", { href: "#/webhooks", text: "← " + t("webhooks") })));
    m.appendChild(h("h2", { text: t("deliveries") }));
    var head = h("div");
    var list = h("div", { id: "delivery-list", "aria-live": "polite" });
    m.appendChild(head);
    m.appendChild(list);
    api("/api/v1/webhooks/" + encodeURIComponent(id)).then(function (res) {
      if (res.status === 200) head.appendChild(dl([[t("url"), res.body.url], [t("status"), badge(res.body.status)], [t("failures"), res.body.consecutive_failures]]));
    });
    function load() {
      return api("/api/v1/webhooks/" + encodeURIComponent(id) + "/deliveries?limit=200").then(function (res) {
        clear(list);
        if (res.status !== 200) { list.appendChild(errorBox(res)); return; }
        list.appendChild(res.body.data.length ? table([t("event"), t("type"), t("attempt"), t("at"), t("statusCode"), t("duration"), t("error"), ""], res.body.data.map(function (d) {
          var retry = state.can.webhooksWrite ? h("button", { type: "button", class: "retry", "data-event": d.event_id, onclick: function (e) {
            var b = e.currentTarget;
            b.disabled = true;
            api("/api/v1/webhooks/" + encodeURIComponent(id) + "/deliveries/" + encodeURIComponent(d.event_id) + "/retry", { method: "POST" }).then(function (r) {
              b.textContent = r.status === 202 ? t("retried") : t("failed") + " " + r.status;
              setTimeout(load, WATCH_MS);
            });
          }, text: t("retry") }) : null;
          return [d.event_id, d.type, d.attempt + (d.manual ? " (" + t("manual") + ")" : ""), when(d.attempted_at), show(d.status_code), d.duration_ms, show(d.error), retry];
        }), "deliveries-table") : h("p", { text: t("empty") }));
      });
    }
    return load();
  }

  // ---------------------------------------------------------------- syncs
  function syncsView(m, view) {
    m.appendChild(h("h2", { text: t("syncs") }));
    var box = h("div", { id: "syncs", "aria-live": "polite" });
    m.appendChild(box);
    var watched = {};
    function history() { try { return JSON.parse(sessionStorage.getItem("console.runs") || "[]"); } catch (e) { return []; } }
    function remember(run) {
      var runs = history().filter(function (r) { return r.id !== run.id; });
      runs.unshift(run);
      sessionStorage.setItem("console.runs", JSON.stringify(runs.slice(0, 50)));
    }
    function load() {
      return api("/api/v1/summary").then(function (res) {
        if (state.view !== view || res.status !== 200 || !res.body.documents) return;
        var pending = [];
        history().forEach(function (r) { if (r.status === "queued" || r.status === "running") pending.push(api(r.links.self).then(function (x) { if (x.status === 200) remember(x.body); })); });
        return Promise.all(pending).then(function () {
          clear(box);
          box.appendChild(table([t("sources"), t("type"), t("lastRun"), t("status"), t("counts"), ""], res.body.documents.sources.map(function (s) {
            var r = s.last_run;
            var start = state.can.documentsWrite ? h("button", { type: "button", class: "start", "data-source": s.source, onclick: function () {
              api("/api/v1/documents/sync", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ source: s.source }) }).then(function (x) {
                if (x.status === 202) { remember(x.body); watched[x.body.id] = true; }
                load();
              });
            }, text: t("start") }) : null;
            return [s.source, s.type, r ? when(r.requested_at) : t("none"), r ? badge(r.status) : "—", r ? countsText(r.counts) : "—", start];
          }), "sources-table"));
          var runs = history();
          box.appendChild(h("h3", { text: t("history") }));
          box.appendChild(runs.length ? table(["id", t("sources"), t("status"), t("requested"), t("finished"), t("counts"), t("error")], runs.map(function (r) {
            return [r.id, r.source, badge(r.status), when(r.requested_at), when(r.finished_at), countsText(r.counts), r.error ? r.error.code + ": " + r.error.message : "—"];
          }), "runs-table") : h("p", { text: t("empty") }));
        });
      });
    }
    every(WATCH_MS, view, load);
    return load();
  }
  function countsText(c) { return "fetched " + c.fetched + ", created " + c.created + ", updated " + c.updated + ", unchanged " + c.unchanged + ", failed " + c.failed; }

  // ---------------------------------------------------------------- start
  function start() {
    state.lang = sessionStorage.getItem(LANG_KEY) === "pl" ? "pl" : "en";
    document.documentElement.lang = state.lang;
    var saved = sessionStorage.getItem(TOKEN_KEY);
    if (!saved) { renderSignIn(null); return; }
    state.token = saved;
    learnScopes().then(function (can) {
      if (!canRead(can)) { signOut(t("noScopes")); return; }
      renderShell(); route();
    }, scopesFailed);
  }
  window.addEventListener("hashchange", route);
  start();
})();
`;
