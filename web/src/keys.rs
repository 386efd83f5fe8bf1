//! DOM keyboard events in SDL 1.2's terms, as `animvm`'s window reports
//! them (`runtime/src/animator/keys.rs` does the same for winit, which the
//! web build does not have): `KEYDOWN mod_mask unicode keyname` and
//! `KEYUP mod_mask keyname`.
//!
//! * The **name** comes from `KeyboardEvent.code` (the key's position) for
//!   keys SDL named by position (letters and digits of the main block as
//!   their unshifted US symbol, keypad `[5]`, `enter`, modifiers, locks,
//!   arrows, `f1` ...), and from `KeyboardEvent.key` for the rest (the
//!   symbol typed, lower case), so `shift+b` is `b`.
//! * **unicode** is the character typed (`key` when it is one character,
//!   13 for Enter, 8 Backspace, 9 Tab, 27 Escape; `ctrl+letter` its
//!   control code), 0 when it types nothing.
//! * **mod_mask**: the spec's bits; a KEYDOWN carries the modifiers held
//!   before the key went down, a KEYUP those held after it went up.
//!   Caps Lock and Num Lock toggle (the press that turns one on reports
//!   KEYDOWN, the one that turns it off KEYUP; releases report nothing).
//!
//! ```
//! use animkit_web::keys::{Keyboard, sdl_name};
//! assert_eq!(sdl_name("KeyB", "B"), "b");
//! assert_eq!(sdl_name("Numpad5", "5"), "[5]");
//! assert_eq!(sdl_name("ShiftLeft", "Shift"), "left shift");
//! let mut k = Keyboard::default();
//! assert_eq!(k.down("ShiftLeft", "Shift", false), Some("KEYDOWN 0 0 left shift".into()));
//! assert_eq!(k.down("KeyB", "B", false), Some("KEYDOWN 1 66 b".into()));
//! assert_eq!(k.up("KeyB", "B"), Some("KEYUP 1 b".into()));
//! assert_eq!(k.up("ShiftLeft", "Shift"), Some("KEYUP 0 left shift".into()));
//! ```

use animkit_runtime::animator::sdl_keys::{self, Report, SdlKey};
pub use animkit_runtime::animator::sdl_keys::{
    CAPS, LALT, LCTRL, LMETA, LSHIFT, MODE, NUM, RALT, RCTRL, RMETA, RSHIFT,
};

/// The modifier bit a key holds (or toggles, for a lock).
fn modifier(code: &str) -> Option<u32> {
    Some(match code {
        "ShiftLeft" => LSHIFT,
        "ShiftRight" => RSHIFT,
        "ControlLeft" => LCTRL,
        "ControlRight" => RCTRL,
        "AltLeft" => LALT,
        "AltRight" => RALT,
        "MetaLeft" | "OSLeft" => LMETA,
        "MetaRight" | "OSRight" => RMETA,
        "NumLock" => NUM,
        "CapsLock" => CAPS,
        _ => return None,
    })
}

/// SDL 1.2's `SDL_GetKeyName` for the key of DOM `code`, typing `key`.
pub fn sdl_name(code: &str, key: &str) -> String {
    let named = match code {
        "Enter" => "return",
        "NumpadEnter" => "enter",
        "Escape" => "escape",
        "Space" => "space",
        "Backspace" => "backspace",
        "Tab" => "tab",
        "Delete" => "delete",
        "Insert" => "insert",
        "Home" => "home",
        "End" => "end",
        "PageUp" => "page up",
        "PageDown" => "page down",
        "ArrowUp" => "up",
        "ArrowDown" => "down",
        "ArrowLeft" => "left",
        "ArrowRight" => "right",
        "ShiftLeft" => "left shift",
        "ShiftRight" => "right shift",
        "ControlLeft" => "left ctrl",
        "ControlRight" => "right ctrl",
        "AltLeft" => "left alt",
        "AltRight" => "right alt",
        "MetaLeft" | "OSLeft" => "left super",
        "MetaRight" | "OSRight" => "right super",
        "CapsLock" => "caps lock",
        "NumLock" => "numlock",
        "ScrollLock" => "scroll lock",
        "Pause" => "pause",
        "PrintScreen" => "print screen",
        "ContextMenu" => "menu",
        "NumpadDecimal" => "[.]",
        "NumpadDivide" => "[/]",
        "NumpadMultiply" => "[*]",
        "NumpadSubtract" => "[-]",
        "NumpadAdd" => "[+]",
        "NumpadEqual" => "equals",
        _ => "",
    };
    if !named.is_empty() {
        return named.to_string();
    }
    if let Some(c) = code.strip_prefix("Key").filter(|c| c.len() == 1) {
        return c.to_ascii_lowercase();
    }
    if let Some(d) = code.strip_prefix("Digit").filter(|d| d.len() == 1) {
        return d.to_string();
    }
    if let Some(d) = code.strip_prefix("Numpad").filter(|d| d.len() == 1) {
        return format!("[{d}]");
    }
    if let Some(n) = code.strip_prefix('F').and_then(|n| n.parse::<u32>().ok()).filter(|n| (1..=15).contains(n)) {
        return format!("f{n}");
    }
    let mut chars = key.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => {
            let c = c.to_lowercase().next().unwrap_or(c);
            if c.is_ascii() {
                c.to_string()
            } else if (c as u32) < 256 {
                format!("world {}", c as u32 - 160)
            } else {
                "unknown key".into()
            }
        }
        _ => "unknown key".into(),
    }
}

/// What a key press types (see the [module documentation](self)).
pub fn unicode(code: &str, key: &str, mods: u32) -> u32 {
    match key {
        "Enter" => return 13,
        "Backspace" => return 8,
        "Tab" => return 9,
        "Escape" => return 27,
        _ => {}
    }
    let _ = code;
    let mut chars = key.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => {
            if mods & (LCTRL | RCTRL) != 0 && c.is_ascii_alphabetic() {
                (c.to_ascii_lowercase() as u32) & 0x1f
            } else {
                c as u32
            }
        }
        _ => 0,
    }
}

/// The SDL 1.2 key of DOM `code`, typing `key`.
fn sdl_key(code: &str, key: &str) -> SdlKey {
    let name = sdl_name(code, key);
    match modifier(code) {
        Some(lock @ (NUM | CAPS)) => SdlKey { name: name.into(), modifier: lock, lock: true },
        Some(bit) => SdlKey { name: name.into(), modifier: bit, lock: false },
        None => SdlKey::plain(name),
    }
}

/// The modifier state of a keyboard, as SDL 1.2 kept it (the runtime's
/// [`sdl_keys::Keyboard`], fed DOM key events).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keyboard(sdl_keys::Keyboard);

impl Keyboard {
    /// The modifiers held (and locks on) now.
    pub fn mods(&self) -> u32 {
        self.0.mods()
    }

    /// A key went down: its KEYDOWN (or, for a lock being turned off, its
    /// KEYUP) line. Auto-repeats report nothing, as in `animvm`.
    pub fn down(&mut self, code: &str, key: &str, repeat: bool) -> Option<String> {
        if repeat {
            return None;
        }
        let k = sdl_key(code, key);
        let unicode = if k.modifier != 0 { 0 } else { unicode(code, key, self.0.mods()) };
        line(self.0.press(&k), unicode, &k.name)
    }

    /// A key went up: its KEYUP line (nothing for a lock).
    pub fn up(&mut self, code: &str, key: &str) -> Option<String> {
        let k = sdl_key(code, key);
        line(self.0.release(&k), 0, &k.name)
    }
}

/// The event line of one key transition.
fn line(report: Report, unicode: u32, name: &str) -> Option<String> {
    match report {
        Report::Down(mods) => Some(format!("KEYDOWN {mods} {unicode} {name}")),
        Report::Up(mods) => Some(format!("KEYUP {mods} {name}")),
        Report::Nothing => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Locks as SDL 1.2 (and `animvm`'s window) report them: the press that
    /// turns Caps Lock on is a KEYDOWN whose mask has the lock's bit, the
    /// press that turns it off a KEYUP, and releases report nothing.
    #[test]
    fn locks_toggle_as_in_animvm() {
        let mut k = Keyboard::default();
        assert_eq!(k.down("CapsLock", "CapsLock", false), Some(format!("KEYDOWN {CAPS} 0 caps lock")));
        assert_eq!(k.up("CapsLock", "CapsLock"), None);
        assert_eq!(k.down("KeyA", "A", false), Some(format!("KEYDOWN {CAPS} 65 a")));
        assert_eq!(k.down("CapsLock", "CapsLock", false), Some("KEYUP 0 caps lock".into()));
        assert_eq!(k.mods(), 0);
    }
}
