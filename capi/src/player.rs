//! The Player: a SLAP scene or an Animator program of a bundle drawn into
//! the game's own GL context (`animkit_player::player::Player`).

use crate::bundle::{AnimkitBundle, AnimkitModuleKind, find_failure};
use crate::{
    AnimkitStatus, Failure, Outcome, Tagged, call, call_void, check_array, free, give, handle, handle_mut, out, string,
};
use animkit_player::player::{Player, PlayerError};
use animkit_player::render::MAX_IMAGE_SIZE;
use animkit_vm::game::FindError;
use glow::HasContext;
use std::ffi::{CStr, c_char, c_void};
use std::num::NonZeroU32;

/// The game's GL function loader: the address of the GL function `name`
/// (`"glGenFramebuffers"`...) in the game's current context, or NULL.
/// `eglGetProcAddress`, `SDL_GL_GetProcAddress`, `glfwGetProcAddress`
/// wrapped to take `user` (the pointer given to [`animkit_player_new`]).
pub type AnimkitGlLoader = Option<unsafe extern "C" fn(name: *const c_char, user: *mut c_void) -> *mut c_void>;

/// The longest key name [`animkit_player_key`] takes, in bytes (SDL's
/// names are at most 20).
pub const ANIMKIT_MAX_KEY_NAME: usize = 64;

/// A SLAP scene or an Animator program drawn into the game's GL context
/// (opaque). Made by [`animkit_player_new`], freed by
/// [`animkit_player_free`]. Every call on it needs the context it was made
/// with current on the calling thread.
#[repr(C)]
pub struct AnimkitPlayer {
    tag: u64,
    player: Player,
    /// Output lines drained from the player, not yet given to the caller.
    output: Vec<u8>,
}

impl Tagged for AnimkitPlayer {
    const TAG: u64 = u64::from_le_bytes(*b"AKplayer");
    const NAME: &'static str = "an AnimkitPlayer";
}

fn player_failure(e: PlayerError) -> Failure {
    let status = match &e {
        PlayerError::NoSuchModule(_) | PlayerError::NoPlayableModule => AnimkitStatus::NoModule,
        PlayerError::SpriteModule | PlayerError::Module(_) | PlayerError::SeekAnimator => AnimkitStatus::WrongKind,
        PlayerError::BadSize { .. } => AnimkitStatus::InvalidArgument,
        PlayerError::PastLastFrame { .. } => AnimkitStatus::OutOfRange,
        PlayerError::Gl(_) | PlayerError::Draw(_) | PlayerError::Resize(_) => AnimkitStatus::Gl,
    };
    Failure::new(status, e.to_string())
}

fn check_size(width: u32, height: u32) -> Outcome {
    if width == 0 || height == 0 || width > MAX_IMAGE_SIZE || height > MAX_IMAGE_SIZE {
        return Err(Failure::new(
            AnimkitStatus::InvalidArgument,
            format!("cannot draw {width}x{height} pictures (1 to {MAX_IMAGE_SIZE} pixels a side)"),
        ));
    }
    Ok(())
}

/// Functions the player cannot do without: a loader that gives none of
/// them is refused before glow is made (glow panics on a missing one).
const REQUIRED: [&CStr; 6] = [
    c"glGetString",
    c"glGetIntegerv",
    c"glGenFramebuffers",
    c"glBindFramebuffer",
    c"glBlitFramebuffer",
    c"glIsFramebuffer",
];

/// A glow context over the game's current one, through its loader;
/// refused (`ANIMKIT_STATUS_GL`) when a function is missing, no context is
/// current, or the context is older than OpenGL 3.3 / OpenGL ES 3.0.
unsafe fn game_gl(
    loader: unsafe extern "C" fn(*const c_char, *mut c_void) -> *mut c_void,
    user: *mut c_void,
) -> Result<glow::Context, Failure> {
    let gl_failure = |m: String| Failure::new(AnimkitStatus::Gl, m);
    for name in REQUIRED {
        // SAFETY: the caller's loader, given a NUL-terminated name.
        if unsafe { loader(name.as_ptr(), user) }.is_null() {
            return Err(gl_failure(format!("the loader gives no `{}`", name.to_string_lossy())));
        }
    }
    // SAFETY: checked non-NULL above; glGetString's C signature.
    let get_string: unsafe extern "system" fn(u32) -> *const u8 =
        unsafe { std::mem::transmute(loader(c"glGetString".as_ptr(), user)) };
    // SAFETY: a GL call; with no current context it returns NULL.
    let version = unsafe { get_string(glow::VERSION) };
    if version.is_null() {
        return Err(gl_failure("glGetString(GL_VERSION) is NULL: no GL context is current on this thread".into()));
    }
    // SAFETY: GL returns a NUL-terminated string.
    let text = unsafe { CStr::from_ptr(version.cast()) }.to_string_lossy().into_owned();
    let (es, numbers) = match text.strip_prefix("OpenGL ES ") {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let mut parts = numbers.split(|c: char| !c.is_ascii_digit()).map(|p| p.parse::<u32>().ok());
    let (major, minor) = (parts.next().flatten(), parts.next().flatten());
    let Some((major, minor)) = major.zip(minor) else {
        return Err(gl_failure(format!("cannot read the GL version `{}`", excerpt(&text))));
    };
    let wanted = if es { (3, 0) } else { (3, 3) };
    if (major, minor) < wanted {
        return Err(gl_failure(format!(
            "the context is {} {major}.{minor}; the player needs {} {}.{} or newer",
            if es { "OpenGL ES" } else { "OpenGL" },
            if es { "OpenGL ES" } else { "OpenGL" },
            wanted.0,
            wanted.1
        )));
    }
    // SAFETY: the context is current (GL_VERSION answered); glow keeps the
    // function pointers only.
    Ok(unsafe { glow::Context::from_loader_function_cstr(|name| loader(name.as_ptr(), user).cast_const()) })
}

/// At most 40 characters of `s`, for a message.
fn excerpt(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// A player for module `module` of `bundle` (a SLAP scene or an Animator
/// drawing; NULL: the first Animator module, else the first SLAP one),
/// drawing `width` x `height` pictures in the game's GL context, into
/// `*out_player`: the caller's, to free with [`animkit_player_free`].
///
/// The game's context (OpenGL 3.3 core or OpenGL ES 3.0, or newer) must be
/// current on this thread, here and for every call on the player; the
/// player reaches it through `get_proc_address(name, user)`, called during
/// this call only. The viewport starts at `(0, 0)`, `width` x `height`; a
/// SLAP scene starts at frame 0, an Animator program runs to its first
/// wait. The game's GL state is as it was after the call (the list is
/// docs/capi.md's).
///
/// Errors: `ANIMKIT_STATUS_NULL_POINTER` (`bundle`, `get_proc_address` or
/// `out_player`), `ANIMKIT_STATUS_NO_MODULE` (no such module, nearest
/// names in the message; or none to play), `ANIMKIT_STATUS_WRONG_KIND` (a
/// sprite module, or a module that cannot run),
/// `ANIMKIT_STATUS_INVALID_ARGUMENT` (a size of 0 or past 8192),
/// `ANIMKIT_STATUS_GL` (no context current, a function the loader does
/// not give, an older GL, GL objects that could not be made).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_new(
    bundle: *const AnimkitBundle,
    module: *const c_char,
    width: u32,
    height: u32,
    get_proc_address: AnimkitGlLoader,
    user: *mut c_void,
    out_player: *mut *mut AnimkitPlayer,
) -> AnimkitStatus {
    call("animkit_player_new", || {
        let b = unsafe { handle(bundle, "bundle")? };
        unsafe { out(out_player, "out_player")? };
        let name = if module.is_null() { None } else { Some(unsafe { string(module, "module")? }) };
        let Some(loader) = get_proc_address else {
            return Err(Failure::new(AnimkitStatus::NullPointer, "`get_proc_address` is NULL"));
        };
        if let Some(name) = name {
            match b.bundle.scene(name) {
                Ok(_) => {}
                Err(FindError::WrongKind { found, .. }) if Player::plays(found.language()) => {}
                Err(FindError::WrongKind { .. }) => return Err(player_failure(PlayerError::SpriteModule)),
                Err(e) => return Err(find_failure(e)),
            }
        }
        check_size(width, height)?;
        let gl = unsafe { game_gl(loader, user)? };
        let player = Player::from_bundle(gl, &b.bundle, name, width, height).map_err(player_failure)?;
        unsafe { give(out_player, AnimkitPlayer { tag: AnimkitPlayer::TAG, player, output: Vec::new() }, "out_player") }
    })
}

/// Frees a player and deletes its GL objects: its context must be current
/// (NULL, or a handle that is not a live player: nothing happens).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_free(player: *mut AnimkitPlayer) {
    call_void(|| unsafe { free(player, |p, t| p.tag = t) })
}

/// What the player plays: `ANIMKIT_MODULE_KIND_SCENE` (SLAP) or
/// `ANIMKIT_MODULE_KIND_DRAWING` (Animator), into `*out_kind`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_kind(
    player: *const AnimkitPlayer,
    out_kind: *mut AnimkitModuleKind,
) -> AnimkitStatus {
    call("animkit_player_kind", || {
        let p = unsafe { handle(player, "player")? };
        *unsafe { out(out_kind, "out_kind")? } = AnimkitModuleKind::of(p.player.module_language().module_kind());
        Ok(())
    })
}

/// `dt` seconds of the game's clock have passed (at most 1 s counts): a
/// SLAP scene steps at 30 frames a second times the speed, looping at its
/// end; an Animator program's wait runs down and it goes on when the wait
/// is over. No GL state of the game's changes.
///
/// Errors: `ANIMKIT_STATUS_INVALID_ARGUMENT` for a negative or non-finite
/// `dt` (0 does nothing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_update(player: *mut AnimkitPlayer, dt: f64) -> AnimkitStatus {
    call("animkit_player_update", || {
        let p = unsafe { handle_mut(player, "player")? };
        if !dt.is_finite() || dt < 0.0 {
            return Err(Failure::new(AnimkitStatus::InvalidArgument, format!("dt {dt} is not a time of 0 s or more")));
        }
        p.player.update(dt).map_err(player_failure)?;
        p.player.drain_output(&mut p.output);
        Ok(())
    })
}

/// Moves a SLAP scene to frame `frame` (`animvm -H --start FRAME` draws
/// the same picture).
///
/// Errors: `ANIMKIT_STATUS_WRONG_KIND` for an Animator program,
/// `ANIMKIT_STATUS_OUT_OF_RANGE` past the last frame animvm plays.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_seek(player: *mut AnimkitPlayer, frame: u64) -> AnimkitStatus {
    call("animkit_player_seek", || {
        let p = unsafe { handle_mut(player, "player")? };
        p.player.seek(frame).map_err(player_failure)
    })
}

/// The frame shown into `*out_frame`: a SLAP scene's frame, or how many
/// times an Animator program has flushed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_frame(player: *const AnimkitPlayer, out_frame: *mut u64) -> AnimkitStatus {
    call("animkit_player_frame", || {
        let p = unsafe { handle(player, "player")? };
        *unsafe { out(out_frame, "out_frame")? } = p.player.frame();
        Ok(())
    })
}

/// Whether an Animator program has ended or quit, into `*out_finished` (a
/// SLAP scene loops: always false).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_is_finished(
    player: *const AnimkitPlayer,
    out_finished: *mut bool,
) -> AnimkitStatus {
    call("animkit_player_is_finished", || {
        let p = unsafe { handle(player, "player")? };
        *unsafe { out(out_finished, "out_finished")? } = p.player.finished();
        Ok(())
    })
}

/// Where [`animkit_player_draw`] puts the picture: `x`, `y` from the
/// framebuffer's bottom-left corner (as `glViewport`), `width` x `height`
/// pixels. A new size resizes the picture (a SLAP scene keeps its aspect;
/// an Animator program gets a `RESIZE` event if it asked for events).
///
/// Errors: `ANIMKIT_STATUS_INVALID_ARGUMENT` for a size of 0 or past 8192,
/// `ANIMKIT_STATUS_GL` when the picture cannot take the new size.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_set_viewport(
    player: *mut AnimkitPlayer,
    x: i32,
    y: i32,
    width: u32,
    height: u32,
) -> AnimkitStatus {
    call("animkit_player_set_viewport", || {
        let p = unsafe { handle_mut(player, "player")? };
        check_size(width, height)?;
        p.player.set_viewport(x, y, width, height).map_err(player_failure)?;
        p.player.drain_output(&mut p.output);
        Ok(())
    })
}

/// Playback speed: 1 (the default) is 30 SLAP frames a second and Animator
/// waits as written; 0 to 64.
///
/// Errors: `ANIMKIT_STATUS_INVALID_ARGUMENT` outside 0 to 64 or not finite.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_set_speed(player: *mut AnimkitPlayer, speed: f64) -> AnimkitStatus {
    call("animkit_player_set_speed", || {
        let p = unsafe { handle_mut(player, "player")? };
        if !(0.0..=64.0).contains(&speed) {
            return Err(Failure::new(AnimkitStatus::InvalidArgument, format!("speed {speed} is not from 0 to 64")));
        }
        p.player.set_speed(speed);
        Ok(())
    })
}

/// Draws the picture into the game's framebuffer object `framebuffer` (its
/// GL name; 0 is the default framebuffer) at the viewport. Pixels outside
/// the viewport are not touched, and the game's GL state (the framebuffer
/// it has bound included) is as it was after the call. A surfaceless or
/// pbuffer-less headless context has no default framebuffer: drawing into
/// 0 there succeeds and draws nothing (draw into an FBO of the game's).
///
/// Errors: `ANIMKIT_STATUS_INVALID_ARGUMENT` when `framebuffer` is not a
/// framebuffer object of the context, `ANIMKIT_STATUS_GL` when the scene
/// cannot be drawn.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_draw(player: *mut AnimkitPlayer, framebuffer: u32) -> AnimkitStatus {
    call("animkit_player_draw", || {
        let p = unsafe { handle_mut(player, "player")? };
        let target = NonZeroU32::new(framebuffer).map(glow::NativeFramebuffer);
        let bound = {
            let gl = p.player.gl();
            // SAFETY: the context is current (the player's contract).
            unsafe {
                if let Some(fb) = target
                    && !gl.is_framebuffer(fb)
                {
                    return Err(Failure::new(
                        AnimkitStatus::InvalidArgument,
                        format!("{framebuffer} is not a framebuffer object of the current context"),
                    ));
                }
                let bound = gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING);
                gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, target);
                bound
            }
        };
        let drawn = p.player.draw().map_err(player_failure);
        // SAFETY: as above; `bound` is the game's own binding.
        unsafe { p.player.gl().bind_framebuffer(glow::DRAW_FRAMEBUFFER, bound) };
        drawn
    })
}

/// The pointer is at `(x, y)`, pixels in the viewport from its top-left
/// corner: an Animator program that asked for events gets `MOTION` (with
/// the areas under it). Nothing for a SLAP scene.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_pointer_move(player: *mut AnimkitPlayer, x: f64, y: f64) -> AnimkitStatus {
    call("animkit_player_pointer_move", || {
        let p = unsafe { handle_mut(player, "player")? };
        p.player.pointer_move(x, y);
        p.player.drain_output(&mut p.output);
        Ok(())
    })
}

/// Button `button` (1 left, 2 middle, 3 right; up to 32) went down
/// (`down`) or up at `(x, y)` in the viewport: the move there, then
/// `PRESS` or `RELEASE`.
///
/// Errors: `ANIMKIT_STATUS_INVALID_ARGUMENT` for a button outside 1 to 32.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_pointer_button(
    player: *mut AnimkitPlayer,
    x: f64,
    y: f64,
    button: u32,
    down: bool,
) -> AnimkitStatus {
    call("animkit_player_pointer_button", || {
        let p = unsafe { handle_mut(player, "player")? };
        if !(1..=32).contains(&button) {
            return Err(Failure::new(AnimkitStatus::InvalidArgument, format!("button {button} is not 1 to 32")));
        }
        p.player.pointer_button(x, y, button, down);
        p.player.drain_output(&mut p.output);
        Ok(())
    })
}

/// A key went down (`down`) or up: `KEYDOWN mods unicode name` /
/// `KEYUP mods name` for an Animator program that asked for events (SDL's
/// key names, such as `"a"`, `"space"`, `"left"`, and modifier bits).
///
/// Errors: `ANIMKIT_STATUS_NULL_POINTER`, `ANIMKIT_STATUS_INVALID_ARGUMENT`
/// for a name that is not UTF-8, is empty, has a space or a control
/// character, or is longer than `ANIMKIT_MAX_KEY_NAME` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_key(
    player: *mut AnimkitPlayer,
    mods: u32,
    unicode: u32,
    name: *const c_char,
    down: bool,
) -> AnimkitStatus {
    call("animkit_player_key", || {
        let p = unsafe { handle_mut(player, "player")? };
        let name = unsafe { string(name, "name")? };
        if name.is_empty() || name.len() > ANIMKIT_MAX_KEY_NAME || name.chars().any(|c| c.is_control() || c == ' ') {
            return Err(Failure::new(
                AnimkitStatus::InvalidArgument,
                format!(
                    "`{}` ({} bytes) is not a key name (1 to {ANIMKIT_MAX_KEY_NAME} bytes, no spaces)",
                    excerpt(name).escape_debug(),
                    name.len()
                ),
            ));
        }
        p.player.key(mods, unicode, name, down);
        p.player.drain_output(&mut p.output);
        Ok(())
    })
}

/// Copies the lines the program printed (`echo`, event lines: what
/// `animvm` prints on standard output) into `buffer`, at most `capacity`
/// bytes (not NUL-terminated), the count into `*out_len`; what does not fit
/// stays for the next call. `capacity` 0 (`buffer` may then be NULL)
/// gives in `*out_len` how many bytes are waiting, and drains nothing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_player_drain_output(
    player: *mut AnimkitPlayer,
    buffer: *mut u8,
    capacity: usize,
    out_len: *mut usize,
) -> AnimkitStatus {
    call("animkit_player_drain_output", || {
        let p = unsafe { handle_mut(player, "player")? };
        check_array(buffer.cast_const(), capacity, "buffer")?;
        let len = unsafe { out(out_len, "out_len")? };
        p.player.drain_output(&mut p.output);
        if capacity == 0 {
            *len = p.output.len();
            return Ok(());
        }
        let n = capacity.min(p.output.len());
        // SAFETY: checked above; the caller promises `capacity` writable bytes.
        unsafe { std::ptr::copy_nonoverlapping(p.output.as_ptr(), buffer, n) };
        p.output.drain(..n);
        *len = n;
        Ok(())
    })
}
