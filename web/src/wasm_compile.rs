//! The JavaScript face of [`crate::compile`] (feature `compiler`): the
//! functions `compile(language, name, text)` and `format(language, text)`.
//!
//! Both return a plain object. `compile`: `{ bundle, diagnostics }`, the
//! bundle a `Uint8Array` (what `animc -o` writes; `Player.load` takes it)
//! or `null` when the text does not compile; `format`: `{ text,
//! diagnostics }`, the formatted text or `null`. `diagnostics` is an array
//! of `{ severity, message, file, line, column, endLine, endColumn }`:
//! `severity` `"error"` or `"warning"`, `message` `animc`'s headline
//! without that word, the position 1-based in characters (`animc`'s `-->
//! file:line:column`; the end one past the span), `file` `null` for the
//! text itself (or the path of a file a SLAP scene includes), and `null`
//! positions for a message about no place.

use crate::compile::{self, Message};
use wasm_bindgen::prelude::*;

fn set(object: &js_sys::Object, key: &str, value: &JsValue) {
    // `Reflect.set` on a plain object cannot fail.
    let _ = js_sys::Reflect::set(object, &JsValue::from_str(key), value);
}

fn number(n: Option<u32>) -> JsValue {
    n.map_or(JsValue::NULL, JsValue::from)
}

fn diagnostics(messages: &[Message]) -> JsValue {
    let array = js_sys::Array::new();
    for m in messages {
        let o = js_sys::Object::new();
        let at = m.at.as_ref();
        set(&o, "severity", &JsValue::from_str(m.severity.as_str()));
        set(&o, "message", &JsValue::from_str(&m.message));
        set(&o, "file", &at.and_then(|p| p.file.as_deref()).map_or(JsValue::NULL, JsValue::from_str));
        set(&o, "line", &number(at.map(|p| p.line)));
        set(&o, "column", &number(at.map(|p| p.column)));
        set(&o, "endLine", &number(at.map(|p| p.end_line)));
        set(&o, "endColumn", &number(at.map(|p| p.end_column)));
        array.push(&o);
    }
    array.into()
}

/// Compiles `text`, a source of `language` (`sprite`, `animator`, `slap`)
/// named `name`, as `animc --lang LANGUAGE NAME -o OUT` does: `{ bundle,
/// diagnostics }` (see the module's docs).
#[wasm_bindgen]
pub fn compile(language: &str, name: &str, text: &str) -> JsValue {
    let o = js_sys::Object::new();
    let (bundle, messages) = match compile::compile(language, name, text) {
        Ok(built) => (js_sys::Uint8Array::from(&built.bundle[..]).into(), built.warnings),
        Err(messages) => (JsValue::NULL, messages),
    };
    set(&o, "bundle", &bundle);
    set(&o, "diagnostics", &diagnostics(&messages));
    o.into()
}

/// Formats `text`, a source of `language`, as `animc --fmt --lang LANGUAGE
/// -` does: `{ text, diagnostics }` (see the module's docs).
#[wasm_bindgen]
pub fn format(language: &str, text: &str) -> JsValue {
    let o = js_sys::Object::new();
    let (text, messages) = match compile::format(language, text) {
        Ok(formatted) => (JsValue::from_str(&formatted), Vec::new()),
        Err(messages) => (JsValue::NULL, messages),
    };
    set(&o, "text", &text);
    set(&o, "diagnostics", &diagnostics(&messages));
    o.into()
}
