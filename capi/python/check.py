"""Checks of the Python binding beyond the trace (run by capi/tests/python.rs):
errors raise animkit.Error with the library's status and message.

    python3 check.py HERO.animb
"""

import sys

import animkit


def expect_error(status, message, f, *args):
    try:
        f(*args)
    except animkit.Error as e:
        assert (e.status, e.message) == (status, message), (e.status, e.message)
        print("%s: %s" % (animkit.status_name(e.status), e.message))
        return
    raise AssertionError("no error from %s" % f)


def main(path):
    assert animkit.version() == 100 and animkit.bundle_format() == 3
    expect_error(4, "animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)",
                 animkit.Bundle, b"GIF89a")
    data = open(path, "rb").read()
    expect_error(7, "animkit_bundle_open: truncated bundle: expected %d bytes, found %d" % (len(data), len(data) - 1),
                 animkit.Bundle, data[:-1])
    bundle = animkit.Bundle(data)
    print("modules:", bundle.modules())
    expect_error(9, "animkit_bundle_sprite: no module named `hera` in the bundle; did you mean `hero`?",
                 bundle.sprite, "hera")
    hero = bundle.sprite("hero")
    expect_error(11, "animkit_sprite_state: no state named `walk` in sprite module `hero`; did you mean `Walk`?",
                 hero.state, "walk")
    crowd = hero.batch()
    for phase in range(3):
        crowd.spawn(hero.state("Walk"), phase * 6)
    crowd.set_speed(2, 2)
    crowd.advance(1000003)
    print("after 1000003 ticks: frames", [crowd.frame(i) for i in range(3)], "events", len(crowd.drain_events()), "dropped", crowd.dropped_events())
    crowd.set_state(0, "Jump")
    crowd.tick()
    print("Jump by name:", hero.state_name(crowd.state(0)), crowd.frame(0), crowd.time_in_state(0))
    expect_error(13, "animkit_batch_frame: instance 3 is past the end of the batch (3 instances)", crowd.frame, 3)
    saved = crowd.snapshot()
    other = hero.batch()
    other.restore(saved)
    assert len(other) == 3 and [other.frame(i) for i in range(3)] == [crowd.frame(i) for i in range(3)]
    expect_error(16, "animkit_batch_restore: the snapshot is cut short", other.restore, saved[:-1])
    print("snapshot of %d bytes restored" % len(saved))
    # Hot reload onto the same build, opened again: nothing changes.
    again = animkit.Bundle(data).sprite("hero")
    before = crowd.frame(2)
    r = crowd.reload(again, again.state("Idle"))
    print("reloaded: fell back %d, clamped %d, dropped %d, vanished %d, frame kept %s"
          % (r.fell_back, r.clamped, r.dropped_events, r.vanished, crowd.frame(2) == before))
    expect_error(11, "animkit_batch_reload: state 99 is past the 9 states of sprite module `hero`",
                 crowd.reload, again, 99)
    expect_error(1, "animkit_batch_reload: `sprite` is NULL", crowd.reload, None, 0)


if __name__ == "__main__":
    main(sys.argv[1])
