// A small game on the animkit-web package (docs/web.md, "Games"): a
// crowd of heroes from examples/hero.anim, ticked at the bundle's 50 ticks
// a second by the page's clock, each drawn from its state's sheet on a 2D
// canvas; `step` events make dust, space makes everyone attack, and a
// hero lands (the game says so: Fall waits) 30 ticks after it jumped.
// Type-checked by web/tests/package.rs (`tsc --noEmit -p
// web/examples/ts-game`).
import init, { SpriteBatch, type BatchEvent } from "animkit-web";

const TICK_MS = 20; // hero.anim's durations are 50-per-second ticks
const CELL = 32; // each sheet: one row of 32x32 cells, named CATEGORY.png

export async function start(canvas: HTMLCanvasElement, bundleUrl: string): Promise<void> {
  await init();
  const bytes = new Uint8Array(await (await fetch(bundleUrl)).arrayBuffer());
  const heroes = new SpriteBatch(bytes, "hero");
  const walk: number = heroes.stateIndex("Walk");
  for (let i = 0; i < 8; i++) heroes.spawn(i % 2 === 0 ? walk : "Jump", i * 3);

  // Names per state index, read once: no call into the package while a
  // typed-array view is in use (any call may detach it).
  const sheets: HTMLImageElement[] = heroes.stateNames().map((_, s) => {
    const image = new Image();
    image.src = `${heroes.category(s)}.png`;
    return image;
  });
  const dust: { x: number; until: number }[] = [];
  const landings: { hero: number; at: number }[] = [];
  const onEvent = (e: BatchEvent): void => {
    if (e.name === "step") dust.push({ x: e.instance * 40, until: e.tick + 10 });
    if (e.name === "jumpSound") landings.push({ hero: e.instance, at: e.tick + 30 });
  };
  addEventListener("keydown", (k: KeyboardEvent) => {
    if (k.key === " ") for (let i = 0; i < heroes.length; i++) heroes.restart(i, "Attack");
  });

  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no 2D context");
  let last = performance.now();
  let owed = 0;
  const frame = (now: number): void => {
    owed = Math.min(owed + now - last, 1000);
    last = now;
    const n = Math.floor(owed / TICK_MS);
    owed -= n * TICK_MS;
    heroes.tick(n); // every event of the n ticks, each with its tick
    heroes.events().forEach(onEvent);
    const tick: number = heroes.ticks;
    for (const l of landings.filter((l) => l.at <= tick)) heroes.setState(l.hero, "Land");
    landings.splice(0, landings.length, ...landings.filter((l) => l.at > tick));
    const states: Uint16Array = heroes.states().slice(); // a copy
    const frames: Uint32Array = heroes.frames(); // a view: used before the next call
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    frames.forEach((cell: number, i: number) => {
      ctx.drawImage(sheets[states[i]], cell * CELL, 0, CELL, CELL, i * 40, 40, CELL, CELL);
    });
    for (const d of dust.filter((d) => d.until > tick)) ctx.fillRect(d.x + 8, 74, 16, 2);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}
