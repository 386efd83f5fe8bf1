// The demo page's one script: loads the player (wasm-bindgen's --target
// web output in pkg/), lists the examples (examples/index.json, written by
// web/build.sh), plays them, accepts dropped files, forwards the pointer
// and keys, and shows the program's output.
//
// Test mode (docs/web.md): `?checks=FILE.json` runs the steps that file
// lists and writes their results, as base64 of a JSON text, into
// <pre id="results" data-done="1">, for `chromium --dump-dom` to print.
import init, { Player } from "./pkg/animkit_web.js";

const $ = (id) => document.getElementById(id);
const canvas = $("canvas");
const params = new URLSearchParams(location.search);
if (params.has("w")) canvas.width = Number(params.get("w"));
if (params.has("h")) canvas.height = Number(params.get("h"));
if (params.has("checks")) document.body.classList.add("test");

let lines = [];
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

function message(text) {
  $("message").textContent = text || "";
}

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

function showStates(player) {
  const states = player.states();
  const select = $("state");
  select.replaceChildren(...states.map((s) => new Option(s, s)));
  $("stateLabel").hidden = states.length === 0;
  if (states.length) select.value = player.state();
}

function load(player, bytes, name) {
  const error = player.load(bytes, name);
  message(error);
  if (!error) {
    $("status").textContent = `${name} (${player.language()})`;
    showStates(player);
    $("frame").value = player.frame();
  }
  return error;
}

// Pointer and keys, in canvas pixels and SDL's button numbers.
function at(e) {
  const r = canvas.getBoundingClientRect();
  return [(e.clientX - r.left) * (canvas.width / r.width), (e.clientY - r.top) * (canvas.height / r.height)];
}
const button = (e) => [1, 2, 3, 8, 9][e.button] ?? e.button + 1;

function wire(player) {
  canvas.addEventListener("mousemove", (e) => player.pointerMove(...at(e)));
  canvas.addEventListener("mousedown", (e) => { canvas.focus(); player.pointerDown(...at(e), button(e)); });
  canvas.addEventListener("mouseup", (e) => player.pointerUp(...at(e), button(e)));
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("keydown", (e) => { player.keyDown(e.code, e.key, e.repeat); e.preventDefault(); });
  canvas.addEventListener("keyup", (e) => { player.keyUp(e.code, e.key); e.preventDefault(); });

  $("play").onclick = () => {
    if (player.isPlaying()) player.pause(); else player.play();
    $("play").textContent = player.isPlaying() ? "pause" : "play";
  };
  $("frame").onchange = () => message(player.seek(Number($("frame").value)));
  $("speed").onchange = () => player.setSpeed(Number($("speed").value));
  $("state").onchange = () => message(player.setState($("state").value));
  $("feed").onclick = () => {
    message(player.feed($("stream").value + "\n"));
    $("status").textContent = "stream";
  };

  const stage = $("stage");
  stage.addEventListener("dragover", (e) => { e.preventDefault(); stage.classList.add("drop"); });
  stage.addEventListener("dragleave", () => stage.classList.remove("drop"));
  stage.addEventListener("drop", async (e) => {
    e.preventDefault();
    stage.classList.remove("drop");
    const file = e.dataTransfer.files[0];
    if (file) load(player, new Uint8Array(await file.arrayBuffer()), file.name);
  });

  let last = performance.now();
  const loop = (now) => {
    if (player.isPlaying()) {
      const error = player.advance(now - last);
      if (error) message(error);
      $("frame").value = player.frame();
    }
    last = now;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

async function examples(player) {
  let list = [];
  try {
    list = await (await fetch("examples/index.json")).json();
  } catch (e) {
    message("no examples/index.json: run web/build.sh");
  }
  for (const name of list) {
    const b = document.createElement("button");
    b.textContent = name.replace(/\.animb$/, "");
    b.onclick = async () => load(player, await fetchBytes("examples/" + name), name);
    $("examples").appendChild(b);
  }
  // ?sheet=Category=url:COLSxROWS (repeatable), as animvm's --sheet.
  for (const spec of params.getAll("sheet")) {
    const m = /^([^=]+)=(.+):(\d+)[xX](\d+)$/.exec(spec);
    if (!m) { message(`sheet ${spec}: expected Category=sheet.png:COLSxROWS`); continue; }
    message(player.setSheet(m[1], m[2], await fetchBytes(m[2]), Number(m[3]), Number(m[4])));
  }
  const first = params.get("example") ?? list[0];
  if (first) load(player, await fetchBytes("examples/" + first), first);
  if (params.has("frame")) {
    message(player.seek(Number(params.get("frame"))));
    $("frame").value = player.frame();
  }
}

// ---- test mode ----

function base64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function unbase64(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function step(player, s) {
  const take = () => { const l = lines; lines = []; return l; };
  if ("load" in s) return { error: load(player, await fetchBytes(s.load), s.name ?? s.load.split("/").pop()) ?? null };
  if ("loadBase64" in s) return { error: load(player, unbase64(s.loadBase64), s.name) ?? null };
  if ("frame" in s) return { error: player.renderFrame(s.frame) ?? null, frame: player.frame() };
  if ("pixels" in s) {
    const t0 = performance.now();
    const px = player.readPixels();
    return { width: player.width(), height: player.height(), pixels: base64(px), ms: performance.now() - t0 };
  }
  if ("trace" in s) {
    try { return { text: player.trace(s.trace) }; } catch (e) { return { error: String(e.message ?? e) }; }
  }
  if ("feed" in s) return { error: player.feed(s.feed) ?? null };
  if ("click" in s) {
    const [x, y, b] = s.click;
    const r = canvas.getBoundingClientRect();
    const init = { clientX: r.left + x * (r.width / canvas.width), clientY: r.top + y * (r.height / canvas.height), button: b - 1, bubbles: true };
    canvas.dispatchEvent(new MouseEvent("mousemove", init));
    canvas.dispatchEvent(new MouseEvent("mousedown", init));
    canvas.dispatchEvent(new MouseEvent("mouseup", init));
    return {};
  }
  if ("output" in s) return { lines: take() };
  if ("sheet" in s) {
    const [category, url, cols, rows] = s.sheet;
    return { error: player.setSheet(category, url, await fetchBytes(url), cols, rows) ?? null };
  }
  if ("keys" in s) {
    // Real DOM key events on the canvas: [["down" | "up", code, key], ...].
    for (const [kind, code, key] of s.keys) {
      canvas.dispatchEvent(new KeyboardEvent(kind === "down" ? "keydown" : "keyup", { code, key, bubbles: true }));
    }
    return {};
  }
  if ("spriteOnly" in s) {
    // The sprite-only player (web/build.sh --sprite-only, in pkg-sprite/).
    const m = await import("./pkg-sprite/animkit_web.js");
    await m.default();
    const p = new m.Player();
    const error = p.load(await fetchBytes(s.spriteOnly));
    if (error) return { error };
    try { return { text: p.trace(s.ticks, s.state) }; } catch (e) { return { error: String(e) }; }
  }
  if ("play" in s) {
    // Plays for s.play ms of page time (in steps of 20 ms), then pauses.
    if ("speed" in s) player.setSpeed(s.speed);
    player.play();
    let error = null;
    for (let t = 0; t < s.play && !error; t += 20) error = player.advance(Math.min(20, s.play - t)) ?? null;
    player.pause();
    return { error, frame: player.frame() };
  }
  if ("seek" in s) return { error: player.seek(s.seek) ?? null, frame: player.frame() };
  if ("setState" in s) return { error: player.setState(s.setState) ?? null, state: player.state(), states: player.states() };
  if ("time" in s) {
    // Milliseconds per renderFrame of frames [from, to): with a read-back
    // after each (sync), or one at the end.
    const t0 = performance.now();
    for (let f = s.time[0]; f < s.time[1]; f++) {
      player.renderFrame(f);
      if (s.sync) player.readPixels();
    }
    player.readPixels();
    return { ms: (performance.now() - t0) / (s.time[1] - s.time[0]) };
  }
  if ("now" in s) return { ms: performance.now() };
  if ("spriteTicks" in s) {
    // The sprite-only player's VM: nanoseconds per tick, best of 5 runs;
    // s.pkg picks another build of it (pkg-sprite-simd: web/build.sh
    // --sprite-only --simd).
    const pkg = s.pkg ?? "pkg-sprite";
    if (!/^pkg-sprite(-simd)?$/.test(pkg)) return { error: "unknown package " + pkg };
    const m = await import(`./${pkg}/animkit_web.js`);
    await m.default();
    const p = new m.Player();
    const error = p.load(await fetchBytes(s.spriteTicks));
    if (error) return { error };
    if (s.state) p.setState(s.state);
    // performance.now() is coarsened (100 us): each sample runs s.n ticks
    // s.repeat times.
    const repeat = s.repeat ?? 1;
    let best = Infinity, events = 0;
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      for (let r = 0; r < repeat; r++) events = p.runTicks(s.n);
      best = Math.min(best, performance.now() - t0);
    }
    return { ns: (best * 1e6) / (s.n * repeat), events };
  }
  return { error: "unknown step " + JSON.stringify(s) };
}

async function runChecks(player, url) {
  const checks = await (await fetch(url)).json();
  const results = [];
  for (const c of checks) {
    const steps = [];
    for (const s of c.steps) {
      try { steps.push(await step(player, s)); } catch (e) { steps.push({ exception: String(e) }); }
    }
    results.push({ id: c.id, steps });
  }
  return results;
}

async function main() {
  const started = performance.now();
  await init();
  const player = new Player(canvas);
  player.setEventCallback(log);
  wire(player);
  if (params.has("checks")) {
    let out;
    try {
      out = { loadMs: performance.now() - started, results: await runChecks(player, params.get("checks")) };
    } catch (e) {
      out = { exception: String(e) };
    }
    const pre = $("results");
    pre.textContent = base64(new TextEncoder().encode(JSON.stringify(out)));
    pre.dataset.done = "1";
    if (params.has("hold")) await fetch("done", { method: "POST" });
    return;
  }
  await examples(player);
  $("status").textContent += ` · first frame after ${Math.round(performance.now() - started)} ms`;
}

main().catch((e) => {
  message(String(e));
  const pre = $("results");
  pre.textContent = btoa(JSON.stringify({ exception: String(e) }));
  pre.dataset.done = "1";
});
