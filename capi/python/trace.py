"""`animvm --trace` through the Python binding (capi/tests/python.rs
compares the two byte for byte).

    python3 trace.py sprite BUNDLE STATE TICKS [SNAPSHOT_AT]
    python3 trace.py slap BUNDLE [FRAMES]
"""

import decimal
import json
import math
import sys

import animkit


def number(v):
    """`v` as serde_json writes it: the shortest round-trip digits (repr's),
    fixed from 1e-5 to below 1e16, else d.ddde+X."""
    if math.isinf(v) or math.isnan(v):
        return "null"
    if v == 0:
        return "-0.0" if math.copysign(1, v) < 0 else "0.0"
    sign = "-" if v < 0 else ""
    # repr gives the shortest digits that read back to v.
    _, ds, last = decimal.Decimal(repr(abs(v))).as_tuple()
    digits = "".join(map(str, ds)).lstrip("0")
    while digits.endswith("0"):
        digits, last = digits[:-1], last + 1
    e = last + len(digits) - 1  # the exponent of the first digit
    n = len(digits)
    if -5 <= e <= 15:
        if n - 1 <= e:
            return sign + digits + "0" * (e - (n - 1)) + ".0"
        if e >= 0:
            return sign + digits[:e + 1] + "." + digits[e + 1:]
        return sign + "0." + "0" * (-e - 1) + digits
    body = digits[0] + ("." + digits[1:] if n > 1 else "")
    return sign + body + "e" + ("-" if e < 0 else "+") + str(abs(e))


def vector(v):
    return "[" + ",".join(number(x) for x in v) + "]"


def string(s):
    return json.dumps(s, ensure_ascii=False)


def first_module(bundle, kind):
    return next(name for name, k in bundle.modules() if k == kind)


def trace_sprite(path, state, ticks, snapshot_at, out):
    bundle = animkit.Bundle(open(path, "rb").read())
    hero = bundle.sprite(first_module(bundle, animkit.MODULE_SPRITE))
    batch = hero.batch()
    batch.spawn(hero.state(state))
    for t in range(ticks):
        if t == snapshot_at:
            saved = batch.snapshot()
            batch.close()
            batch = hero.batch()
            batch.restore(saved)
        batch.tick()
        now = batch.state(0)
        events = ",".join(string(hero.event_name(e)) for _, e in batch.drain_events())
        out.write('{"tick":%d,"state":%s,"category":%s,"frame":%d,"events":[%s]}\n'
                  % (t, string(hero.state_name(now)), string(hero.category(now)), batch.frame(0), events))


def trace_slap(path, frames, out):
    bundle = animkit.Bundle(open(path, "rb").read())
    scene = bundle.scene(first_module(bundle, animkit.MODULE_SCENE))
    if frames is None:
        frames = scene.length() + 1
    for f in range(frames):
        if f > 0:
            scene.step()
        actors = ",".join(
            '{"id":%d,"action":%d,"position":%s,"direction":%s,"color":%s,"size":%s}'
            % (a.id, a.action, vector(a.position), number(a.heading), vector(a.color), number(a.size))
            for a in scene.actors())
        cam = scene.camera()
        out.write('{"frame":%d,"actors":[%s],"camera":{"position":%s,"direction":%s}}\n'
                  % (scene.frame(), actors, vector(cam.position), vector(cam.direction)))


def main(argv):
    out = sys.stdout
    if len(argv) >= 5 and argv[1] == "sprite":
        trace_sprite(argv[2], argv[3], int(argv[4]), int(argv[5]) if len(argv) > 5 else -1, out)
    elif len(argv) >= 3 and argv[1] == "slap":
        trace_slap(argv[2], int(argv[3]) if len(argv) > 3 else None, out)
    elif len(argv) >= 2 and argv[1] == "numbers":
        for x in argv[2:]:
            out.write(number(float(x)) + "\n")
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except animkit.Error as e:
        sys.stderr.write("trace.py: %s (%s)\n" % (e.message, animkit.status_name(e.status)))
        sys.exit(1)
