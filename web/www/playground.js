// The playground's one script (docs/web.md, "The playground"): a textarea
// with a line-number gutter, compiled by the compiler in the page
// (pkg-playground/, web/build.sh --playground) 250 ms after the last
// keystroke; the player beside it keeps playing the last good build while
// the text has errors, which are listed under the editor (animc's
// line:column and message), marked in the gutter and underlined in the text
// (a highlight layer behind the textarea). The examples' sources
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
const highlight = $("highlight");
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
  drawHighlight();
}

// Selects a diagnostic's span in the textarea.
function select(d) {
  const text = source.value;
  const start = offsetOf(text, d.line, d.column);
  source.focus();
  source.setSelectionRange(start, Math.max(start, offsetOf(text, d.endLine ?? d.line, d.endColumn ?? d.column)));
}

// ---- the highlight layer ----
//
// A <pre> behind the textarea holds the same text in the same font,
// padding and tab size, transparent, with each diagnostic's span
// (line:column to endLine:endColumn, animc's) in a <mark> drawn with a
// wavy underline; it is scrolled with the textarea and redrawn with the
// text (on input, before the next frame is painted) and the diagnostics
// (after each compile).

let lineStarts = [0];
let lineStartsOf = "";

// The UTF-16 offsets at which the lines of `text` start (kept for the last
// text: up to 100 diagnostics look them up).
function startsOf(text) {
  if (lineStartsOf !== text) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    lineStarts = starts;
    lineStartsOf = text;
  }
  return lineStarts;
}

// The UTF-16 offset of `line`:`column` in `text` (1-based; columns count
// characters, code points, as animc's do), at most the line's end.
function offsetOf(text, line, column) {
  const starts = startsOf(text);
  if (line > starts.length) return text.length;
  let at = starts[Math.max(0, line - 1)];
  for (let c = 1; c < column && at < text.length && text[at] !== "\n"; c++) at += codePointAt(text, at);
  return at;
}

// The UTF-16 length of the character at `at`.
function codePointAt(text, at) {
  const u = text.charCodeAt(at);
  return u >= 0xd800 && u < 0xdc00 && at + 1 < text.length ? 2 : 1;
}

// The diagnostics' spans in `text` as UTF-16 ranges, in order, none
// overlapping (a span that starts inside the one before starts where that
// one ends; one inside it is left out). An empty span takes the character
// after it, unless that is a line's end or the text's.
function spans(text) {
  const out = [];
  for (const d of current.diagnostics) {
    if (d.line == null || d.file != null) continue;
    const start = offsetOf(text, d.line, d.column);
    let end = Math.max(start, offsetOf(text, d.endLine ?? d.line, d.endColumn ?? d.column));
    if (end === start && start < text.length && text[start] !== "\n") end += codePointAt(text, start);
    out.push({ start, end, severity: d.severity });
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept = [];
  let last = 0;
  for (const s of out) {
    if (kept.length && s.end <= last) continue;
    kept.push({ ...s, start: Math.max(s.start, last) });
    last = s.end;
  }
  return kept;
}

function drawHighlight() {
  const text = source.value;
  const parts = [];
  let at = 0;
  for (const s of spans(text)) {
    if (s.start > at) parts.push(document.createTextNode(text.slice(at, s.start)));
    const mark = document.createElement("mark");
    // At a line's end (or the text's) the mark holds no visible character:
    // CSS gives it one underlined space there, which moves nothing.
    mark.className = s.severity + (s.start === s.end || text[s.start] === "\n" ? " eol" : "");
    mark.textContent = text.slice(s.start, s.end);
    parts.push(mark);
    at = s.end;
  }
  parts.push(document.createTextNode(text.slice(at)));
  highlight.replaceChildren(...parts);
  syncScroll();
}

function syncScroll() {
  highlight.scrollTop = source.scrollTop;
  highlight.scrollLeft = source.scrollLeft;
  $("gutter").scrollTop = source.scrollTop;
}

// On input: the layer and the gutter follow the text before the next
// frame is painted (once per frame however many inputs came).
let redrawPending = false;
function redrawSoon() {
  if (redrawPending) return;
  redrawPending = true;
  requestAnimationFrame(() => {
    redrawPending = false;
    drawGutter();
    drawHighlight();
  });
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
    const t1 = performance.now();
    error = player.load(bundle, name.replace(/\.[^.]*$/, "") + ".animb") ?? null;
    current.loadMs = performance.now() - t1;
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
  source.addEventListener("input", () => {
    redrawSoon();
    schedule();
  });
  source.addEventListener("scroll", syncScroll);
  source.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    e.preventDefault();
    source.setRangeText("    ", source.selectionStart, source.selectionEnd, "end");
    redrawSoon();
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

// The underlined spans as the highlight layer holds them: each <mark>'s
// text, severity and place, counted from the layer's own text before it
// (line:column to endLine:endColumn, 1-based, columns in characters, the
// end one past the span, as animc's), the empty ones included.
function underlined() {
  const out = [];
  let line = 1;
  let column = 1;
  const advance = (t) => {
    for (const ch of t) {
      if (ch === "\n") {
        line++;
        column = 1;
      } else column++;
    }
  };
  for (const node of highlight.childNodes) {
    if (node.nodeName !== "MARK") {
      advance(node.textContent);
      continue;
    }
    const at = { text: node.textContent, severity: node.classList.contains("warning") ? "warning" : "error", line, column };
    advance(node.textContent);
    out.push({ ...at, endLine: line, endColumn: column, eol: node.classList.contains("eol") });
  }
  return out;
}

// Whether the layer lies under the textarea: the same text, scroll
// offsets and the style properties that place characters (the names of
// those that differ).
function layer() {
  const a = getComputedStyle(source);
  const b = getComputedStyle(highlight);
  const placing = ["font-family", "font-size", "font-weight", "line-height", "letter-spacing", "word-spacing",
    "tab-size", "white-space", "padding-top", "padding-left", "border-top-width", "border-left-width",
    "box-sizing", "left", "top"];
  const sourceBox = source.getBoundingClientRect();
  const layerBox = highlight.getBoundingClientRect();
  return {
    mirrored: highlight.textContent === source.value,
    scroll: [source.scrollTop, source.scrollLeft, highlight.scrollTop, highlight.scrollLeft],
    styleDiffers: placing.filter((p) => a.getPropertyValue(p) !== b.getPropertyValue(p)),
    origin: [sourceBox.left, sourceBox.top, layerBox.left, layerBox.top],
  };
}

// What the page shows: the list under the editor, the marked gutter
// lines, the underlined spans, the time, the text and its link.
function shown() {
  return {
    diagnostics: [...$("diagnostics").children].map((li) => li.textContent),
    marked: [...$("gutter").querySelectorAll("span")].map((s) => Number(s.dataset.line)),
    underlined: underlined(),
    mirrored: highlight.textContent === source.value,
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
  if ("scroll" in s) {
    // The textarea scrolled to [top, left], as the wheel or the caret
    // scrolls it: its `scroll` event.
    [source.scrollTop, source.scrollLeft] = s.scroll;
    source.dispatchEvent(new Event("scroll"));
    return layer();
  }
  if ("layer" in s) return layer();
  if ("edit" in s) {
    // A keystroke: the characters s.edit replace s.at .. s.at + s.length
    // (UTF-16 offsets) as typing does (execCommand's insertText: the
    // browser's own `input` event, the undo stack); `wait`: until the
    // compile it sets off.
    const done = s.wait ? compiled() : null;
    source.focus();
    source.setSelectionRange(s.at, s.at + (s.length ?? 0));
    document.execCommand("insertText", false, s.edit);
    if (done) await done;
    // `painted`: after the next animation frame (what the input drew).
    if (s.painted) await new Promise((resolve) => requestAnimationFrame(resolve));
    return { ...shown(), text: source.value };
  }
  if ("keystrokes" in s) return await keystrokes(s.keystrokes);
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

// Keystroke to new frame, `n` times (BENCHMARKS.md, "The playground"):
// each keystroke alternately adds a newline at the text's end and takes it
// away, typed as `edit` types (the browser's own `input` event); the time
// runs from the input event's time stamp to the first animation frame
// callback after the rebuild the keystroke set off (its debounce, compile
// and load, whose frame that animation frame presents). Needs the real
// clock (`?hold`): the virtual one stands still while scripts run.
async function keystrokes(n) {
  const total = [];
  const compileMs = [];
  const loadMs = [];
  for (let i = 0; i < n; i++) {
    let typed = null;
    source.addEventListener("input", (e) => { typed = e.timeStamp; }, { once: true });
    const done = compiled();
    source.focus();
    const end = source.value.length;
    if (i % 2 === 0) {
      source.setSelectionRange(end, end);
      document.execCommand("insertText", false, "\n");
    } else {
      source.setSelectionRange(end - 1, end);
      document.execCommand("delete");
    }
    await done;
    if (!current.ok) return { error: `keystroke ${i}: ${JSON.stringify(current.diagnostics)}` };
    const drawn = await new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
    total.push(drawn - typed);
    compileMs.push(current.ms);
    loadMs.push(current.loadMs);
  }
  return { total, compileMs, loadMs, debounceMs: DEBOUNCE_MS };
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
    if (params.has("hold")) await fetch("done", { method: "POST" });
  }
}

main().catch((e) => {
  log(String(e), true);
  const pre = $("results");
  pre.textContent = btoa(JSON.stringify({ exception: String(e) }));
  pre.dataset.done = "1";
  if (params.has("hold")) fetch("done", { method: "POST" });
});
