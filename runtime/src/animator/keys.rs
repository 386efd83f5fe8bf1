//! Keyboard input in SDL 1.2's terms, as `animator` reported it:
//! `KEYDOWN mod_mask unicode keyname` and `KEYUP mod_mask keyname`.
//!
//! * **Names** are what SDL 1.2's `SDL_GetKeyName` returns (its table in
//!   `SDL_keyboard.c`, all lower case): `a`, `1`, `return`, `escape`,
//!   `space`, `left shift`, `up`, `f1`, `page up`, `[5]` (keypad 5),
//!   `enter` (keypad Enter), `world 68` (Latin-1 `ä`), and
//!   `unknown key` for keys SDL 1.2 had no name for.
//! * Like SDL 1.2 on X11, the name comes from the key's **unshifted**
//!   symbol in the current layout (`shift+b` is `b`; on a German layout the
//!   key right of `0` is `world 63`, `ß`); keypad keys, modifiers and locks
//!   are named by their position (`[7]` with or without Num Lock).
//! * **unicode** is the first character the key press types, with every
//!   modifier applied (`shift+b` = 66, `ctrl+a` = 1, Return = 13), 0 when
//!   it types nothing.
//! * **mod_mask** uses the spec's bits ([`LSHIFT`] ...). As in SDL 1.2, a
//!   KEYDOWN carries the modifiers held *before* the key went down and a
//!   KEYUP those held *after* it went up, so pressing and releasing Left
//!   Shift alone reports `KEYDOWN 0 0 left shift` and `KEYUP 0 left shift`.
//! * **Locks** behave like SDL 1.2's: Caps Lock and Num Lock toggle their
//!   bit when pressed; the press that turns a lock on reports KEYDOWN, the
//!   press that turns it off reports KEYUP, and the physical releases report
//!   nothing. The lock state is assumed off at start (winit does not tell).
//! * The Windows/Super keys are named `left super` / `right super` and set
//!   the META bits (the only keys of a modern keyboard that can); Right Alt
//!   is `alt gr` with the MODE bit where the layout makes it AltGr, and
//!   `right alt` with RALT otherwise.

pub use super::sdl_keys::*;
use std::borrow::Cow;
use winit::keyboard::{Key, KeyCode, NamedKey, PhysicalKey};

/// The SDL 1.2 key for a key event: `physical` is where the key is,
/// `unmodified` the key's symbol without modifiers (winit's
/// `key_without_modifiers`).
///
/// ```
/// use animkit_runtime::animator::keys::{sdl_key, LSHIFT};
/// use winit::keyboard::{Key, KeyCode, NamedKey, PhysicalKey};
/// assert_eq!(sdl_key(PhysicalKey::Code(KeyCode::KeyB), &Key::Character("b".into())).name, "b");
/// let shift = sdl_key(PhysicalKey::Code(KeyCode::ShiftLeft), &Key::Named(NamedKey::Shift));
/// assert_eq!((shift.name.as_ref(), shift.modifier), ("left shift", LSHIFT));
/// ```
pub fn sdl_key(physical: PhysicalKey, unmodified: &Key) -> SdlKey {
    if let PhysicalKey::Code(code) = physical {
        if let Some(k) = by_position(code, unmodified) {
            return k;
        }
    }
    match unmodified {
        Key::Character(s) => {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => SdlKey::plain(char_name(c)),
                _ => fallback(physical),
            }
        }
        Key::Named(n) => named(*n).map_or_else(|| fallback(physical), SdlKey::plain),
        _ => fallback(physical),
    }
}

/// Keys named by position: the keypad, modifiers and locks.
fn by_position(code: KeyCode, unmodified: &Key) -> Option<SdlKey> {
    use KeyCode::*;
    Some(match code {
        Numpad0 => SdlKey::plain("[0]"),
        Numpad1 => SdlKey::plain("[1]"),
        Numpad2 => SdlKey::plain("[2]"),
        Numpad3 => SdlKey::plain("[3]"),
        Numpad4 => SdlKey::plain("[4]"),
        Numpad5 => SdlKey::plain("[5]"),
        Numpad6 => SdlKey::plain("[6]"),
        Numpad7 => SdlKey::plain("[7]"),
        Numpad8 => SdlKey::plain("[8]"),
        Numpad9 => SdlKey::plain("[9]"),
        NumpadDecimal => SdlKey::plain("[.]"),
        NumpadDivide => SdlKey::plain("[/]"),
        NumpadMultiply | NumpadStar => SdlKey::plain("[*]"),
        NumpadSubtract => SdlKey::plain("[-]"),
        NumpadAdd => SdlKey::plain("[+]"),
        NumpadEnter => SdlKey::plain("enter"),
        NumpadEqual => SdlKey::plain("equals"),
        ShiftLeft => SdlKey::modifier("left shift", LSHIFT),
        ShiftRight => SdlKey::modifier("right shift", RSHIFT),
        ControlLeft => SdlKey::modifier("left ctrl", LCTRL),
        ControlRight => SdlKey::modifier("right ctrl", RCTRL),
        AltLeft => SdlKey::modifier("left alt", LALT),
        AltRight if *unmodified == Key::Named(NamedKey::AltGraph) => SdlKey::modifier("alt gr", MODE),
        AltRight => SdlKey::modifier("right alt", RALT),
        SuperLeft | Meta => SdlKey::modifier("left super", LMETA),
        SuperRight => SdlKey::modifier("right super", RMETA),
        CapsLock => SdlKey::lock("caps lock", CAPS),
        NumLock => SdlKey::lock("numlock", NUM),
        ScrollLock => SdlKey::plain("scroll lock"),
        _ => return None,
    })
}

/// SDL 1.2's name of the key whose unshifted symbol is `c`.
///
/// ```
/// use animkit_runtime::animator::keys::char_name;
/// assert_eq!(char_name('A'), "a");
/// assert_eq!(char_name('\\'), "\\");
/// assert_eq!(char_name('ä'), "world 68");
/// assert_eq!(char_name('%'), "unknown key");
/// ```
pub fn char_name(c: char) -> Cow<'static, str> {
    let c = c.to_ascii_lowercase();
    match c {
        ' ' => "space".into(),
        '!'
        | '"'
        | '#'
        | '$'
        | '&'
        | '\''
        | '('
        | ')'
        | '*'
        | '+'
        | ','
        | '-'
        | '.'
        | '/'
        | '0'..='9'
        | ':'
        | ';'
        | '<'
        | '='
        | '>'
        | '?'
        | '@'
        | '['
        | '\\'
        | ']'
        | '^'
        | '_'
        | '`'
        | 'a'..='z' => c.to_string().into(),
        '\u{7f}' => "delete".into(),
        '\u{a0}'..='\u{ff}' => format!("world {}", c as u32 - 0xa0).into(),
        _ => "unknown key".into(),
    }
}

/// SDL 1.2's names of named (non-character) keys.
fn named(n: NamedKey) -> Option<&'static str> {
    use NamedKey::*;
    Some(match n {
        Backspace => "backspace",
        Tab => "tab",
        Clear => "clear",
        Enter => "return",
        Pause => "pause",
        Escape => "escape",
        Space => "space",
        Delete => "delete",
        ArrowUp => "up",
        ArrowDown => "down",
        ArrowRight => "right",
        ArrowLeft => "left",
        Insert => "insert",
        Home => "home",
        End => "end",
        PageUp => "page up",
        PageDown => "page down",
        F1 => "f1",
        F2 => "f2",
        F3 => "f3",
        F4 => "f4",
        F5 => "f5",
        F6 => "f6",
        F7 => "f7",
        F8 => "f8",
        F9 => "f9",
        F10 => "f10",
        F11 => "f11",
        F12 => "f12",
        F13 => "f13",
        F14 => "f14",
        F15 => "f15",
        NumLock => "numlock",
        CapsLock => "caps lock",
        ScrollLock => "scroll lock",
        AltGraph => "alt gr",
        Compose => "compose",
        Help => "help",
        PrintScreen => "print screen",
        ContextMenu => "menu",
        Power => "power",
        Undo => "undo",
        _ => return None,
    })
}

/// Names by position for keys whose symbol gave none (dead keys, symbols
/// of other scripts): the US-layout key at that position, else unknown.
fn fallback(physical: PhysicalKey) -> SdlKey {
    use KeyCode::*;
    let PhysicalKey::Code(code) = physical else { return SdlKey::plain("unknown key") };
    let c = match code {
        KeyA => 'a',
        KeyB => 'b',
        KeyC => 'c',
        KeyD => 'd',
        KeyE => 'e',
        KeyF => 'f',
        KeyG => 'g',
        KeyH => 'h',
        KeyI => 'i',
        KeyJ => 'j',
        KeyK => 'k',
        KeyL => 'l',
        KeyM => 'm',
        KeyN => 'n',
        KeyO => 'o',
        KeyP => 'p',
        KeyQ => 'q',
        KeyR => 'r',
        KeyS => 's',
        KeyT => 't',
        KeyU => 'u',
        KeyV => 'v',
        KeyW => 'w',
        KeyX => 'x',
        KeyY => 'y',
        KeyZ => 'z',
        Digit0 => '0',
        Digit1 => '1',
        Digit2 => '2',
        Digit3 => '3',
        Digit4 => '4',
        Digit5 => '5',
        Digit6 => '6',
        Digit7 => '7',
        Digit8 => '8',
        Digit9 => '9',
        Backquote => '`',
        Minus => '-',
        Equal => '=',
        BracketLeft => '[',
        BracketRight => ']',
        Backslash => '\\',
        Semicolon => ';',
        Quote => '\'',
        Comma => ',',
        Period => '.',
        Slash => '/',
        Enter => return SdlKey::plain("return"),
        Escape => return SdlKey::plain("escape"),
        Tab => return SdlKey::plain("tab"),
        Backspace => return SdlKey::plain("backspace"),
        Space => return SdlKey::plain("space"),
        ContextMenu => return SdlKey::plain("menu"),
        _ => return SdlKey::plain("unknown key"),
    };
    SdlKey::plain(char_name(c))
}

/// The unicode number of a key press: the first character it types with
/// every modifier applied (winit's `text_with_all_modifiers`), or 0.
///
/// ```
/// use animkit_runtime::animator::keys::unicode;
/// assert_eq!(unicode(Some("B")), 66);
/// assert_eq!(unicode(Some("\r")), 13);
/// assert_eq!(unicode(None), 0);
/// ```
pub fn unicode(text: Option<&str>) -> u32 {
    text.and_then(|t| t.chars().next()).map_or(0, |c| c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(c: KeyCode, k: Key) -> SdlKey {
        sdl_key(PhysicalKey::Code(c), &k)
    }
    fn ch(s: &str) -> Key {
        Key::Character(s.into())
    }
    fn nk(n: NamedKey) -> Key {
        Key::Named(n)
    }
    fn name(c: KeyCode, k: Key) -> String {
        code(c, k).name.into_owned()
    }

    #[test]
    fn letters_and_digits_use_the_unshifted_symbol() {
        assert_eq!(name(KeyCode::KeyA, ch("a")), "a");
        assert_eq!(name(KeyCode::KeyZ, ch("z")), "z");
        // A layout's symbol wins over the position (AZERTY's A key).
        assert_eq!(name(KeyCode::KeyQ, ch("a")), "a");
        assert_eq!(name(KeyCode::Digit0, ch("0")), "0");
        assert_eq!(name(KeyCode::Digit9, ch("9")), "9");
        // An upper-case symbol (Caps Lock in some layouts) names the key.
        assert_eq!(name(KeyCode::KeyB, ch("B")), "b");
    }

    #[test]
    fn punctuation_is_named_by_its_character() {
        for (c, s) in [
            (KeyCode::Minus, "-"),
            (KeyCode::Equal, "="),
            (KeyCode::BracketLeft, "["),
            (KeyCode::BracketRight, "]"),
            (KeyCode::Backslash, "\\"),
            (KeyCode::Semicolon, ";"),
            (KeyCode::Quote, "'"),
            (KeyCode::Comma, ","),
            (KeyCode::Period, "."),
            (KeyCode::Slash, "/"),
            (KeyCode::Backquote, "`"),
        ] {
            assert_eq!(name(c, ch(s)), s);
        }
        // Characters SDL 1.2 had no key for.
        assert_eq!(name(KeyCode::Digit5, ch("%")), "unknown key");
        assert_eq!(name(KeyCode::KeyA, ch("ф")), "unknown key");
    }

    #[test]
    fn latin1_symbols_are_world_keys() {
        assert_eq!(name(KeyCode::Quote, ch("ä")), "world 68");
        assert_eq!(name(KeyCode::Minus, ch("ß")), "world 63");
        assert_eq!(char_name('\u{a0}'), "world 0");
        assert_eq!(char_name('ÿ'), "world 95");
    }

    #[test]
    fn editing_and_whitespace_keys() {
        assert_eq!(name(KeyCode::Enter, nk(NamedKey::Enter)), "return");
        assert_eq!(name(KeyCode::Escape, nk(NamedKey::Escape)), "escape");
        assert_eq!(name(KeyCode::Space, nk(NamedKey::Space)), "space");
        assert_eq!(name(KeyCode::Space, ch(" ")), "space");
        assert_eq!(name(KeyCode::Tab, nk(NamedKey::Tab)), "tab");
        assert_eq!(name(KeyCode::Backspace, nk(NamedKey::Backspace)), "backspace");
        assert_eq!(name(KeyCode::Delete, nk(NamedKey::Delete)), "delete");
        assert_eq!(name(KeyCode::Insert, nk(NamedKey::Insert)), "insert");
    }

    #[test]
    fn navigation_keys() {
        assert_eq!(name(KeyCode::ArrowUp, nk(NamedKey::ArrowUp)), "up");
        assert_eq!(name(KeyCode::ArrowDown, nk(NamedKey::ArrowDown)), "down");
        assert_eq!(name(KeyCode::ArrowLeft, nk(NamedKey::ArrowLeft)), "left");
        assert_eq!(name(KeyCode::ArrowRight, nk(NamedKey::ArrowRight)), "right");
        assert_eq!(name(KeyCode::Home, nk(NamedKey::Home)), "home");
        assert_eq!(name(KeyCode::End, nk(NamedKey::End)), "end");
        assert_eq!(name(KeyCode::PageUp, nk(NamedKey::PageUp)), "page up");
        assert_eq!(name(KeyCode::PageDown, nk(NamedKey::PageDown)), "page down");
    }

    #[test]
    fn function_keys_up_to_f15() {
        assert_eq!(name(KeyCode::F1, nk(NamedKey::F1)), "f1");
        assert_eq!(name(KeyCode::F10, nk(NamedKey::F10)), "f10");
        assert_eq!(name(KeyCode::F15, nk(NamedKey::F15)), "f15");
        assert_eq!(name(KeyCode::F16, nk(NamedKey::F16)), "unknown key");
    }

    #[test]
    fn keypad_keys_by_position_whatever_num_lock_says() {
        assert_eq!(name(KeyCode::Numpad5, ch("5")), "[5]");
        assert_eq!(name(KeyCode::Numpad7, nk(NamedKey::Home)), "[7]");
        assert_eq!(name(KeyCode::Numpad0, nk(NamedKey::Insert)), "[0]");
        assert_eq!(name(KeyCode::NumpadDecimal, nk(NamedKey::Delete)), "[.]");
        assert_eq!(name(KeyCode::NumpadDivide, ch("/")), "[/]");
        assert_eq!(name(KeyCode::NumpadMultiply, ch("*")), "[*]");
        assert_eq!(name(KeyCode::NumpadSubtract, ch("-")), "[-]");
        assert_eq!(name(KeyCode::NumpadAdd, ch("+")), "[+]");
        assert_eq!(name(KeyCode::NumpadEnter, nk(NamedKey::Enter)), "enter");
        assert_eq!(name(KeyCode::NumpadEqual, ch("=")), "equals");
    }

    #[test]
    fn modifiers_and_their_bits() {
        let cases = [
            (KeyCode::ShiftLeft, nk(NamedKey::Shift), "left shift", LSHIFT),
            (KeyCode::ShiftRight, nk(NamedKey::Shift), "right shift", RSHIFT),
            (KeyCode::ControlLeft, nk(NamedKey::Control), "left ctrl", LCTRL),
            (KeyCode::ControlRight, nk(NamedKey::Control), "right ctrl", RCTRL),
            (KeyCode::AltLeft, nk(NamedKey::Alt), "left alt", LALT),
            (KeyCode::AltRight, nk(NamedKey::Alt), "right alt", RALT),
            (KeyCode::AltRight, nk(NamedKey::AltGraph), "alt gr", MODE),
            (KeyCode::SuperLeft, nk(NamedKey::Super), "left super", LMETA),
            (KeyCode::SuperRight, nk(NamedKey::Super), "right super", RMETA),
        ];
        for (c, k, n, bit) in cases {
            let key = code(c, k);
            assert_eq!((key.name.as_ref(), key.modifier, key.lock), (n, bit, false));
        }
        let caps = code(KeyCode::CapsLock, nk(NamedKey::CapsLock));
        assert_eq!((caps.name.as_ref(), caps.modifier, caps.lock), ("caps lock", CAPS, true));
        let num = code(KeyCode::NumLock, nk(NamedKey::NumLock));
        assert_eq!((num.name.as_ref(), num.modifier, num.lock), ("numlock", NUM, true));
        assert_eq!(name(KeyCode::ScrollLock, nk(NamedKey::ScrollLock)), "scroll lock");
    }

    #[test]
    fn other_named_keys() {
        assert_eq!(name(KeyCode::PrintScreen, nk(NamedKey::PrintScreen)), "print screen");
        assert_eq!(name(KeyCode::Pause, nk(NamedKey::Pause)), "pause");
        assert_eq!(name(KeyCode::ContextMenu, nk(NamedKey::ContextMenu)), "menu");
        assert_eq!(name(KeyCode::Help, nk(NamedKey::Help)), "help");
        assert_eq!(name(KeyCode::Power, nk(NamedKey::Power)), "power");
        assert_eq!(name(KeyCode::Undo, nk(NamedKey::Undo)), "undo");
        assert_eq!(name(KeyCode::NumpadClear, nk(NamedKey::Clear)), "clear");
        assert_eq!(name(KeyCode::AudioVolumeUp, nk(NamedKey::AudioVolumeUp)), "unknown key");
        assert_eq!(
            sdl_key(PhysicalKey::Unidentified(winit::keyboard::NativeKeyCode::Xkb(0)), &nk(NamedKey::Compose)).name,
            "compose"
        );
    }

    #[test]
    fn dead_keys_fall_back_to_the_position() {
        let dead = Key::Dead(Some('^'));
        assert_eq!(name(KeyCode::BracketLeft, dead), "[");
        assert_eq!(name(KeyCode::KeyE, Key::Dead(None)), "e");
    }

    #[test]
    fn modifier_masks_follow_sdl12() {
        let lshift = code(KeyCode::ShiftLeft, nk(NamedKey::Shift));
        let rctrl = code(KeyCode::ControlRight, nk(NamedKey::Control));
        let a = code(KeyCode::KeyA, ch("a"));
        let mut k = Keyboard::default();
        assert_eq!(k.press(&lshift), Report::Down(0), "a modifier's own KEYDOWN: the state before");
        assert_eq!(k.press(&rctrl), Report::Down(LSHIFT));
        assert_eq!(k.press(&a), Report::Down(LSHIFT | RCTRL));
        assert_eq!(k.release(&a), Report::Up(LSHIFT | RCTRL));
        assert_eq!(k.release(&rctrl), Report::Up(LSHIFT), "a modifier's own KEYUP: the state after");
        assert_eq!(k.release(&lshift), Report::Up(0));
    }

    #[test]
    fn locks_toggle_on_press() {
        let caps = code(KeyCode::CapsLock, nk(NamedKey::CapsLock));
        let num = code(KeyCode::NumLock, nk(NamedKey::NumLock));
        let a = code(KeyCode::KeyA, ch("a"));
        let mut k = Keyboard::default();
        assert_eq!(k.press(&caps), Report::Down(CAPS));
        assert_eq!(k.release(&caps), Report::Nothing);
        assert_eq!(k.press(&num), Report::Down(CAPS | NUM));
        assert_eq!(k.press(&a), Report::Down(CAPS | NUM));
        assert_eq!(k.press(&caps), Report::Up(NUM));
        assert_eq!(k.release(&caps), Report::Nothing);
        assert_eq!(k.mods(), NUM);
    }

    #[test]
    fn synthetic_events_only_update_the_state() {
        let lalt = code(KeyCode::AltLeft, nk(NamedKey::Alt));
        let caps = code(KeyCode::CapsLock, nk(NamedKey::CapsLock));
        let mut k = Keyboard::default();
        k.sync(&lalt, true);
        k.sync(&caps, true);
        assert_eq!(k.mods(), LALT);
        k.sync(&lalt, false);
        assert_eq!(k.mods(), 0);
    }

    #[test]
    fn unicode_is_the_first_typed_character() {
        assert_eq!(unicode(Some("a")), 97);
        assert_eq!(unicode(Some("\u{1}")), 1);
        assert_eq!(unicode(Some("\u{1b}")), 27);
        assert_eq!(unicode(Some("é")), 0xe9);
        assert_eq!(unicode(Some("")), 0);
    }
}
