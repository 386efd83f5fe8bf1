"""animkit: a Python (ctypes) binding of libanimkit, the C ABI of animkit.

Load the library from ``$ANIMKIT_LIB`` (a path to libanimkit.so), else by
name through the system's search path::

    import animkit
    bundle = animkit.Bundle(open("hero.animb", "rb").read())
    hero = bundle.sprite("hero")
    crowd = hero.batch()
    crowd.spawn(hero.state("Walk"))
    crowd.tick()
    print(crowd.frame(0), [hero.event_name(e) for _, e in crowd.drain_events()])

Every failing call raises ``animkit.Error`` with the library's status and
message. Objects free their handle when collected (or with ``close()``).
"""

import ctypes
import os
from ctypes import POINTER, byref, c_bool, c_char_p, c_double, c_float, c_int32, c_size_t, c_uint8, c_uint16
from ctypes import c_uint32, c_uint64, c_void_p

STATUS_OK = 0
STATUS_BUFFER_TOO_SMALL = 14
MODULE_SPRITE, MODULE_DRAWING, MODULE_SCENE = 0, 1, 2


def _load():
    path = os.environ.get("ANIMKIT_LIB")
    return ctypes.CDLL(path if path else "libanimkit.so")


_lib = _load()


class Error(Exception):
    """A call into libanimkit failed: ``status`` (an ANIMKIT_STATUS_* value)
    and the library's message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class Pose(ctypes.Structure):
    _fields_ = [(n, c_float) for n in (
        "body_height", "body_pitch", "body_roll", "head_pitch", "head_yaw", "leg_swing_left",
        "leg_swing_right", "leg_lift_left", "leg_lift_right", "wing_lift", "leg_tuck")]


class Actor(ctypes.Structure):
    _fields_ = [("id", c_uint32), ("action", c_uint32), ("position", c_double * 3), ("heading", c_double),
                ("color", c_double * 3), ("size", c_double), ("pose", Pose)]


class Camera(ctypes.Structure):
    _fields_ = [("position", c_double * 3), ("direction", c_double * 3)]


class InstanceEvent(ctypes.Structure):
    _fields_ = [("instance", c_uint32), ("event", c_uint32)]


class ReloadReport(ctypes.Structure):
    """What ``Batch.reload`` did: animations that fell back to the fallback
    state, frame positions clamped, pending events dropped, and animations
    and states of the old build that the new one lacks."""
    _fields_ = [(n, c_size_t) for n in ("fell_back", "clamped", "dropped_events", "vanished")]


def _declare(name, *args, restype=c_int32):
    f = getattr(_lib, name)
    f.argtypes = list(args)
    f.restype = restype
    return f


P = c_void_p
_lib_version = _declare("animkit_version", restype=c_uint32)
_lib_format = _declare("animkit_bundle_format", restype=c_uint16)
_last_error = _declare("animkit_last_error", restype=c_char_p)
_status_name = _declare("animkit_status_name", c_int32, restype=c_char_p)
_open = _declare("animkit_bundle_open", POINTER(c_uint8), c_size_t, POINTER(P))
_bundle_free = _declare("animkit_bundle_free", P, restype=None)
_module_count = _declare("animkit_bundle_module_count", P, POINTER(c_size_t))
_module = _declare("animkit_bundle_module", P, c_size_t, POINTER(c_char_p), POINTER(c_int32))
_sprite = _declare("animkit_bundle_sprite", P, c_char_p, POINTER(P))
_sprite_free = _declare("animkit_sprite_free", P, restype=None)
_state = _declare("animkit_sprite_state", P, c_char_p, POINTER(c_uint32))
_state_count = _declare("animkit_sprite_state_count", P, POINTER(c_size_t))
_state_name = _declare("animkit_sprite_state_name", P, c_uint32, POINTER(c_char_p))
_category = _declare("animkit_sprite_category", P, c_uint32, POINTER(c_char_p))
_event = _declare("animkit_sprite_event", P, c_char_p, POINTER(c_uint32))
_event_name = _declare("animkit_sprite_event_name", P, c_uint32, POINTER(c_char_p))
_batch_new = _declare("animkit_sprite_batch_new", P, POINTER(P))
_batch_free = _declare("animkit_batch_free", P, restype=None)
_spawn = _declare("animkit_batch_spawn", P, c_uint32, c_uint32, POINTER(c_uint32))
_batch_len = _declare("animkit_batch_len", P, POINTER(c_size_t))
_tick = _declare("animkit_batch_tick", P)
_advance = _declare("animkit_batch_advance", P, c_uint32)
_set_state = _declare("animkit_batch_set_state", P, c_uint32, c_uint32, c_uint32)
_set_state_by_name = _declare("animkit_batch_set_state_by_name", P, c_uint32, c_char_p, c_uint32)
_set_speed = _declare("animkit_batch_set_speed", P, c_uint32, c_uint32, c_uint32)
_batch_state = _declare("animkit_batch_state", P, c_uint32, POINTER(c_uint32))
_frame = _declare("animkit_batch_frame", P, c_uint32, POINTER(c_uint32))
_time_in_state = _declare("animkit_batch_time_in_state", P, c_uint32, POINTER(c_uint64))
_drain = _declare("animkit_batch_drain_events", P, POINTER(InstanceEvent), c_size_t, POINTER(c_size_t))
_dropped = _declare("animkit_batch_dropped_events", P, POINTER(c_uint64))
_snapshot = _declare("animkit_batch_snapshot", P, POINTER(c_uint8), c_size_t, POINTER(c_size_t))
_restore = _declare("animkit_batch_restore", P, POINTER(c_uint8), c_size_t)
_reload = _declare("animkit_batch_reload", P, P, c_uint32, POINTER(ReloadReport))
_scene = _declare("animkit_bundle_scene", P, c_char_p, POINTER(P))
_scene_free = _declare("animkit_scene_free", P, restype=None)
_step = _declare("animkit_scene_step", P)
_seek = _declare("animkit_scene_seek", P, c_uint64)
_scene_frame = _declare("animkit_scene_frame", P, POINTER(c_uint64))
_scene_length = _declare("animkit_scene_length", P, POINTER(c_uint64))
_finished = _declare("animkit_scene_is_finished", P, POINTER(c_bool))
_actor_count = _declare("animkit_scene_actor_count", P, POINTER(c_size_t))
_actors = _declare("animkit_scene_actors", P, POINTER(Actor), c_size_t, POINTER(c_size_t))
_camera = _declare("animkit_scene_camera", P, POINTER(Camera))


def _check(status):
    if status != STATUS_OK:
        raise Error(status, _last_error().decode("utf-8", "replace"))


def _text(p):
    return p.value.decode("utf-8")


def version():
    """The library's version, major * 10000 + minor * 100 + patch."""
    return _lib_version()


def bundle_format():
    """The bundle format version the library reads."""
    return _lib_format()


def status_name(status):
    return _status_name(status).decode()


class _Handle:
    _free = None
    _h = None

    def __init__(self, handle):
        self._h = handle

    def close(self):
        if self._h:
            type(self)._free(self._h)
            self._h = None

    def __del__(self):
        self.close()


class Bundle(_Handle):
    """A verified bundle, read from ``data`` (bytes)."""
    _free = _bundle_free

    def __init__(self, data):
        data = bytes(data)
        buf = (c_uint8 * len(data)).from_buffer_copy(data) if data else None
        h = P()
        _check(_open(buf, len(data), byref(h)))
        super().__init__(h)

    def modules(self):
        """[(name, kind)] of every module (kind: MODULE_SPRITE, MODULE_DRAWING, MODULE_SCENE)."""
        n = c_size_t()
        _check(_module_count(self._h, byref(n)))
        out = []
        for i in range(n.value):
            name, kind = c_char_p(), c_int32()
            _check(_module(self._h, i, byref(name), byref(kind)))
            out.append((_text(name), kind.value))
        return out

    def sprite(self, name):
        h = P()
        _check(_sprite(self._h, name.encode(), byref(h)))
        return Sprite(h)

    def scene(self, name):
        h = P()
        _check(_scene(self._h, name.encode(), byref(h)))
        return Scene(h)


class Sprite(_Handle):
    """A sprite module: names to handles, and new batches."""
    _free = _sprite_free

    def state(self, name):
        s = c_uint32()
        _check(_state(self._h, name.encode(), byref(s)))
        return s.value

    def state_count(self):
        n = c_size_t()
        _check(_state_count(self._h, byref(n)))
        return n.value

    def state_name(self, state):
        p = c_char_p()
        _check(_state_name(self._h, state, byref(p)))
        return _text(p)

    def category(self, state):
        p = c_char_p()
        _check(_category(self._h, state, byref(p)))
        return _text(p)

    def event(self, name):
        e = c_uint32()
        _check(_event(self._h, name.encode(), byref(e)))
        return e.value

    def event_name(self, event):
        p = c_char_p()
        _check(_event_name(self._h, event, byref(p)))
        return _text(p)

    def batch(self):
        h = P()
        _check(_batch_new(self._h, byref(h)))
        return Batch(h)


class Batch(_Handle):
    """Many animations of one sprite module, indexed from 0."""
    _free = _batch_free

    def __init__(self, handle):
        super().__init__(handle)
        self._events = (InstanceEvent * 64)()

    def spawn(self, state, phase=0):
        i = c_uint32()
        _check(_spawn(self._h, state, phase, byref(i)))
        return i.value

    def __len__(self):
        n = c_size_t()
        _check(_batch_len(self._h, byref(n)))
        return n.value

    def tick(self):
        _check(_tick(self._h))

    def advance(self, ticks):
        _check(_advance(self._h, ticks))

    def set_state(self, index, state, phase=0):
        if isinstance(state, str):
            _check(_set_state_by_name(self._h, index, state.encode(), phase))
        else:
            _check(_set_state(self._h, index, state, phase))

    def set_speed(self, index, num, den=1):
        _check(_set_speed(self._h, index, num, den))

    def state(self, index):
        s = c_uint32()
        _check(_batch_state(self._h, index, byref(s)))
        return s.value

    def frame(self, index):
        f = c_uint32()
        _check(_frame(self._h, index, byref(f)))
        return f.value

    def time_in_state(self, index):
        t = c_uint64()
        _check(_time_in_state(self._h, index, byref(t)))
        return t.value

    def dropped_events(self):
        """Events dropped since the batch was made: at most 65 536 stay
        pending, and those fired while that many are pending are counted
        here."""
        d = c_uint64()
        _check(_dropped(self._h, byref(d)))
        return d.value

    def drain_events(self):
        """Every pending event, oldest first, as [(instance, event)]."""
        out = []
        n = c_size_t()
        while True:
            _check(_drain(self._h, self._events, len(self._events), byref(n)))
            out.extend((self._events[i].instance, self._events[i].event) for i in range(n.value))
            if n.value < len(self._events):
                return out

    def snapshot(self):
        """The batch saved as bytes (for ``restore``)."""
        size = c_size_t()
        status = _snapshot(self._h, None, 0, byref(size))
        if status != STATUS_BUFFER_TOO_SMALL:
            _check(status)
        buf = (c_uint8 * size.value)()
        _check(_snapshot(self._h, buf, size.value, byref(size)))
        return bytes(buf[:size.value])

    def restore(self, data):
        buf = (c_uint8 * len(data)).from_buffer_copy(data) if data else None
        _check(_restore(self._h, buf, len(data)))

    def reload(self, sprite, fallback):
        """Hot reload: moves every animation onto ``sprite``, a new build of
        the batch's module (from a recompiled bundle), keeping indices,
        states by name and frame positions; an animation whose state the
        new build lacks restarts in ``fallback`` (a state number of
        ``sprite``). Returns the ``ReloadReport``; on an error the batch is
        unchanged."""
        report = ReloadReport()
        _check(_reload(self._h, sprite._h if sprite is not None else None, fallback, byref(report)))
        return report


class Scene(_Handle):
    """A SLAP scene, stepped frame by frame."""
    _free = _scene_free

    def step(self):
        _check(_step(self._h))

    def seek(self, frame):
        _check(_seek(self._h, frame))

    def frame(self):
        f = c_uint64()
        _check(_scene_frame(self._h, byref(f)))
        return f.value

    def length(self):
        n = c_uint64()
        _check(_scene_length(self._h, byref(n)))
        return n.value

    def is_finished(self):
        b = c_bool()
        _check(_finished(self._h, byref(b)))
        return b.value

    def actors(self):
        n = c_size_t()
        _check(_actor_count(self._h, byref(n)))
        buf = (Actor * max(n.value, 1))()
        _check(_actors(self._h, buf, n.value, byref(n)))
        return list(buf[:n.value])

    def camera(self):
        c = Camera()
        _check(_camera(self._h, byref(c)))
        return c
