// The playground's one script (docs/web.md, "The playground"): a textarea
// with a line-number gutter, compiled by the compiler in the page
// (pkg-playground/, web/build.sh --playground) 250 ms after the last
// keystroke; the player beside it keeps playing the last good build while
// the text has errors, which are listed under the editor (animc's
// line:column and message) and marked in the gutter. The examples' sources
// come from sources/index.json; the text and its language live in the URL's
// fragment (#lang=sprite&name=hero.anim&src=BASE64URL of UTF-8).
//
// Test mode: `?checks=FILE.json` runs the steps the file lists and writes
// their results, base64 of a JSON text, into <pre id="results"
// data-done="1"> (as player.js does; web/tests/playground.rs).
import init, { Player, compile, format } from "./pkg-playground/animkit_web.js";

const $ = (id) => document.getElementById(id);
const canvas = $("canvas");
const source = $("source");
const params = new URLSearchParams(location.search);
if (params.has("w")) canvas.width = Number(params.get("w"));
if (params.has("h")) canvas.height = Number(params.get("h"));

const EXTENSION = { sprite: "anim", animator: "draw", slap: "slap" };
const LANGUAGE = { anim: "sprite", draw: "animator", slap: "slap" };
const DEBOUNCE_MS = 250;
// Texts longer than this are not written into the link (a URL of
// megabytes is refused by some browsers and servers).
const MAX_LINK_TEXT = 64 * 1024;

let player;
let name = "playground.anim";
let timer = null;
let waiters = [];
let lines = [];
// The diagnostics of the text now, and whether a build is playing.
let current = { diagnostics: [], ok: false, ms: 0 };

function log(line, isError) {
  lines.push(isError ? "stderr: " + line : line);
  const div = document.createElement("div");
  if (isError) div.className = "err";
  div.textContent = line;
  const box = $("log");
  box.appendChild(div);
  while (box.childNodes.length > 500) box.removeChild(box.firstChild);
  box.scrollTop = box.scrollHeight;
}

const language = () => $("language").value;

// ---- the gutter ----

function lineCount(text) {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

// Line numbers, the lines with a diagnostic marked (errors over warnings).
function drawGutter() {
  const n = lineCount(source.value);
  const marks = new Map();
  for (const d of current.diagnostics) {
    if (d.line == null || d.file != null) continue;
    if (marks.get(d.line) !== "bad") marks.set(d.line, d.severity === "error" ? "bad" : "warn");
  }
  const gutter = $("gutter");
  const parts = [];
  let plain = [];
  const flush = () => { if (plain.length) parts.push(document.createTextNode(plain.join("\n") + "\n")); plain = []; };
  for (let i = 1; i <= n; i++) {
    const mark = marks.get(i);
    if (!mark) { plain.push(String(i)); continue; }
    flush();
    const span = document.createElement("span");
    span.className = mark;
    span.dataset.line = String(i);
    span.textContent = String(i);
    parts.push(span, document.createTextNode("\n"));
  }
  flush();
  gutter.replaceChildren(...parts);
  gutter.scrollTop = source.scrollTop;
}

// ---- compiling ----

function where(d) {
  if (d.line == null) return "";
  return `${d.file ? d.file + ":" : ""}${d.line}:${d.column}: `;
}

function showDiagnostics() {
  const items = current.diagnostics.map((d) => {
    const li = document.createElement("li");
    li.className = d.severity;
    li.textContent = `${where(d)}${d.severity}: ${d.message}`;
    if (d.line != null && d.file == null) li.onclick = () => select(d);
    return li;
  });
  $("diagnostics").replaceChildren(...items);
  drawGutter();
}

// Selects a diagnostic's span in the textarea (columns count characters,
// as JavaScript strings count UTF-16 units: near enough for the cursor).
function select(d) {
  const text = source.value;
  const offset = (line, column) => {
    let at = 0;
    for (let l = 1; l < line; l++) {
      const end = text.indexOf("\n", at);
      if (end === -1) return text.length;
      at = end + 1;
    }
    return Math.min(text.length, at + column - 1);
  };
  source.focus();
  source.setSelectionRange(offset(d.line, d.column), offset(d.endLine ?? d.line, d.endColumn ?? d.column));
}

function showStates() {
  const states = player.language() === "sprite" ? player.states() : [];
  $("state").replaceChildren(...states.map((s) => new Option(s, s)));
  $("stateLabel").hidden = states.length === 0;
  $("trace").hidden = states.length === 0;
  if (states.length) $("state").value = player.state();
}

function showControls() {
  const lang = player.language();
  $("scrubRow").hidden = lang !== "slap";
  $("commandRow").hidden = lang !== "animator";
}

// Compiles the text now; a good build replaces the one playing.
function rebuild() {
  timer = null;
  const text = source.value;
  const lang = language();
  const t0 = performance.now();
  const { bundle, diagnostics } = compile(lang, name, text);
  const ms = performance.now() - t0;
  current = { diagnostics, ok: bundle != null, ms };
  let error = null;
  if (bundle) {
    const playing = player.isPlaying();
    error = player.load(bundle, name.replace(/\.[^.]*$/, "") + ".animb") ?? null;
    if (!error && playing) player.play();
    showStates();
    showControls();
  }
  $("time").textContent = `compiled in ${ms.toFixed(1)} ms`;
  $("stale").textContent = bundle ? (error ?? "") : "errors: the last good build plays on";
  showDiagnostics();
  keepInLink();
  const w = waiters;
  waiters = [];
  for (const resolve of w) resolve();
}

function schedule() {
  if (timer != null) clearTimeout(timer);
  timer = setTimeout(rebuild, DEBOUNCE_MS);
}

// Resolves after the next compile (test mode and anything that waits).
const compiled = () => new Promise((resolve) => waiters.push(resolve));

// ---- the link ----

function toBase64url(text) {
  const bytes = new TextEncoder().encode(text);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const b = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(b, (c) => c.charCodeAt(0)));
}

function keepInLink() {
  if (source.value.length > MAX_LINK_TEXT) {
    $("stale").textContent += " (the text is too long to keep in the link)";
    return;
  }
  const f = new URLSearchParams({ lang: language(), name, src: toBase64url(source.value) });
  history.replaceState(null, "", "#" + f.toString());
}

// The fragment's text, or null.
function fromLink() {
  if (location.hash.length < 2) return null;
  const f = new URLSearchParams(location.hash.slice(1));
  const lang = f.get("lang");
  if (!(lang in EXTENSION) || !f.has("src")) return null;
  try {
    return { lang, name: f.get("name") || `playground.${EXTENSION[lang]}`, text: fromBase64url(f.get("src")) };
  } catch (e) {
    return null;
  }
}

// ---- the page ----

function setText(text, lang, fileName) {
  $("language").value = lang;
  name = fileName;
  source.value = text;
  source.scrollTop = 0;
}

async function openExample(file) {
  const r = await fetch("sources/" + file);
  if (!r.ok) throw new Error(`sources/${file}: HTTP ${r.status}`);
  const lang = LANGUAGE[file.split(".").pop()];
  setText(await r.text(), lang, file);
  $("examples").value = file;
  rebuild();
}

function wire() {
  source.addEventListener("input", schedule);
  source.addEventListener("scroll", () => { $("gutter").scrollTop = source.scrollTop; });
  source.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    e.preventDefault();
    source.setRangeText("    ", source.selectionStart, source.selectionEnd, "end");
    schedule();
  });
  $("language").onchange = () => {
    name = name.replace(/\.[^.]*$/, "") + "." + EXTENSION[language()];
    rebuild();
  };
  $("examples").onchange = () => { if ($("examples").value) openExample($("examples").value).catch((e) => log(String(e), true)); };
  $("format").onclick = () => {
    const { text, diagnostics } = format(language(), source.value);
    if (text != null) {
      source.value = text;
      rebuild();
    } else {
      current = { ...current, diagnostics };
      showDiagnostics();
    }
  };
  $("play").onclick = () => {
    if (player.isPlaying()) player.pause(); else player.play();
    $("play").textContent = player.isPlaying() ? "pause" : "play";
  };
  $("frame").onchange = () => { const e = player.seek(Number($("frame").value)); if (e) log(e, true); };
  $("state").onchange = () => { const e = player.setState($("state").value); if (e) log(e, true); };
  $("trace").onclick = () => {
    try { log(player.trace(`--ticks 100 --state ${player.state()}`)); } catch (e) { log(String(e.message ?? e), true); }
  };
  $("scrub").oninput = () => {
    player.pause();
    $("play").textContent = "play";
    const e = player.seek(Number($("scrub").value));
    if (e) log(e, true);
  };
  $("feed").onclick = () => { const e = player.feed($("commands").value + "\n"); if (e) log(e, true); };

  let last = performance.now();
  const loop = (now) => {
    if (player.isPlaying()) {
      const error = player.advance(now - last);
      if (error) log(error, true);
      $("frame").value = player.frame();
      if (player.language() === "slap") $("scrub").value = String(player.frame());
    }
    last = now;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

async function examples() {
  let list = [];
  try {
    list = await (await fetch("sources/index.json")).json();
  } catch (e) {
    log("no sources/index.json: run web/build.sh --playground", true);
  }
  for (const file of list) $("examples").appendChild(new Option(file, file));
  return list;
}

// ---- test mode ----

function base64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// What the page shows: the list under the editor, the marked gutter
// lines, the time, the text and its link.
function shown() {
  return {
    diagnostics: [...$("diagnostics").children].map((li) => li.textContent),
    marked: [...$("gutter").querySelectorAll("span")].map((s) => Number(s.dataset.line)),
    time: $("time").textContent,
    stale: $("stale").textContent,
    language: language(),
    name,
    ok: current.ok,
    textLength: source.value.length,
    hash: location.hash,
    controls: ["stateLabel", "scrubRow", "commandRow"].filter((id) => !$(id).hidden),
  };
}

async function step(s) {
  const take = () => { const l = lines; lines = []; return l; };
  if ("example" in s) { await openExample(s.example); return shown(); }
  if ("type" in s) {
    // Text as typed: the textarea's value and an `input` event; the page
    // compiles after its debounce. `repeat` repeats the text.
    const done = compiled();
    if (s.language) $("language").value = s.language;
    if (s.name) name = s.name;
    source.value = s.type.repeat(s.repeat ?? 1);
    source.dispatchEvent(new Event("input", { bubbles: true }));
    await done;
    return shown();
  }
  if ("format" in s) {
    $("format").click();
    return { ...shown(), text: source.value };
  }
  if ("shown" in s) return { ...shown(), text: source.value };
  if ("frame" in s) return { error: player.renderFrame(s.frame) ?? null, frame: player.frame() };
  if ("pixels" in s) return { width: player.width(), height: player.height(), pixels: base64(player.readPixels()) };
  if ("trace" in s) {
    try { return { text: player.trace(s.trace) }; } catch (e) { return { error: String(e.message ?? e) }; }
  }
  if ("output" in s) return { lines: take() };
  if ("command" in s) {
    // The Animator command box and its button.
    $("commands").value = s.command;
    $("feed").click();
    return { lines: take() };
  }
  if ("scrub" in s) {
    // The SLAP time scrubber moved to frame s.scrub.
    $("scrub").value = String(s.scrub);
    $("scrub").dispatchEvent(new Event("input", { bubbles: true }));
    return { frame: player.frame(), pixels: base64(player.readPixels()) };
  }
  return { error: "unknown step " + JSON.stringify(s) };
}

async function runChecks(url) {
  const checks = await (await fetch(url)).json();
  const results = [];
  for (const c of checks) {
    const steps = [];
    for (const s of c.steps) {
      try { steps.push(await step(s)); } catch (e) { steps.push({ exception: String(e) }); }
    }
    results.push({ id: c.id, steps });
  }
  return results;
}

async function main() {
  await init();
  player = new Player(canvas);
  player.setEventCallback(log);
  wire();
  const list = await examples();
  const linked = fromLink();
  if (linked) {
    setText(linked.text, linked.lang, linked.name);
    rebuild();
  } else if (list.length) {
    await openExample(list.includes("hero.anim") ? "hero.anim" : list[0]);
  }
  player.play();
  if (params.has("checks")) {
    player.pause();
    let out;
    try {
      out = { start: { ...shown(), text: source.value }, results: await runChecks(params.get("checks")) };
    } catch (e) {
      out = { exception: String(e) };
    }
    const pre = $("results");
    pre.textContent = base64(new TextEncoder().encode(JSON.stringify(out)));
    pre.dataset.done = "1";
  }
}

main().catch((e) => {
  log(String(e), true);
  const pre = $("results");
  pre.textContent = btoa(JSON.stringify({ exception: String(e) }));
  pre.dataset.done = "1";
});
