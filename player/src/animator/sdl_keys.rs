//! SDL 1.2's keyboard model, apart from any window system: the modifier
//! bits of `animator`'s `KEYDOWN`/`KEYUP` lines, a key as SDL names it, and
//! the modifier state kept from key events. The winit window
//! (`animkit_runtime::animator::keys`, desktop builds) and the web player map their own key
//! events onto it, so both report the same lines.

use std::borrow::Cow;

/// Left Shift.
pub const LSHIFT: u32 = 0x0001;
/// Right Shift.
pub const RSHIFT: u32 = 0x0002;
/// Left Control.
pub const LCTRL: u32 = 0x0040;
/// Right Control.
pub const RCTRL: u32 = 0x0080;
/// Left Alt.
pub const LALT: u32 = 0x0100;
/// Right Alt.
pub const RALT: u32 = 0x0200;
/// Left Meta (the left Super/Windows key).
pub const LMETA: u32 = 0x0400;
/// Right Meta (the right Super/Windows key).
pub const RMETA: u32 = 0x0800;
/// Num Lock is on.
pub const NUM: u32 = 0x1000;
/// Caps Lock is on.
pub const CAPS: u32 = 0x2000;
/// AltGr (Mode switch) is held.
pub const MODE: u32 = 0x4000;

/// What a key is to SDL 1.2: its name and its modifier bit, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SdlKey {
    /// `SDL_GetKeyName`'s name.
    pub name: Cow<'static, str>,
    /// The modifier bit this key holds (or toggles, for a lock).
    pub modifier: u32,
    /// Caps Lock or Num Lock: pressing toggles `modifier`.
    pub lock: bool,
}

impl SdlKey {
    /// A key that is no modifier.
    pub fn plain(name: impl Into<Cow<'static, str>>) -> SdlKey {
        SdlKey { name: name.into(), modifier: 0, lock: false }
    }
    /// A modifier key holding `bit`.
    pub fn modifier(name: &'static str, bit: u32) -> SdlKey {
        SdlKey { name: name.into(), modifier: bit, lock: false }
    }
    /// A lock key toggling `bit`.
    pub fn lock(name: &'static str, bit: u32) -> SdlKey {
        SdlKey { name: name.into(), modifier: bit, lock: true }
    }
}

/// What to print for one key transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// `KEYDOWN mods unicode name`.
    Down(u32),
    /// `KEYUP mods name`.
    Up(u32),
    /// Nothing (the release of a lock key).
    Nothing,
}

/// The modifier state, kept from key events as SDL 1.2 kept it.
///
/// ```
/// use animkit_player::animator::sdl_keys::{Keyboard, LSHIFT, Report, SdlKey};
/// let shift = SdlKey::modifier("left shift", LSHIFT);
/// let b = SdlKey::plain("b");
/// let mut k = Keyboard::default();
/// assert_eq!(k.press(&shift), Report::Down(0));
/// assert_eq!(k.press(&b), Report::Down(1));
/// assert_eq!(k.release(&shift), Report::Up(0));
/// assert_eq!(k.release(&b), Report::Up(0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keyboard {
    mods: u32,
}

impl Keyboard {
    /// The current mask.
    pub fn mods(&self) -> u32 {
        self.mods
    }

    /// A key went down.
    pub fn press(&mut self, key: &SdlKey) -> Report {
        if key.lock {
            self.mods ^= key.modifier;
            return if self.mods & key.modifier != 0 { Report::Down(self.mods) } else { Report::Up(self.mods) };
        }
        let before = self.mods;
        self.mods |= key.modifier;
        Report::Down(before)
    }

    /// A key went up.
    pub fn release(&mut self, key: &SdlKey) -> Report {
        if key.lock {
            return Report::Nothing;
        }
        self.mods &= !key.modifier;
        Report::Up(self.mods)
    }

    /// Keeps the state right for a key event that is not reported (winit's
    /// synthetic presses and releases when the focus changes).
    pub fn sync(&mut self, key: &SdlKey, pressed: bool) {
        if key.lock {
            return;
        }
        if pressed {
            self.mods |= key.modifier;
        } else {
            self.mods &= !key.modifier;
        }
    }
}
