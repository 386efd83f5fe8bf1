//! A 10 MB document re-checked on every keystroke does not block the
//! server: other requests are answered while its checks run, a burst of
//! changes is checked once for its last text, and no result of an older
//! text is ever published after a newer one.

use crate::lsp_support;

use lsp_support::{Client, range};
use serde_json::json;

const BIG: &str = "file:///w/big.slap";
const SMALL: &str = "file:///w/hero.anim";

#[test]
fn a_ten_megabyte_document_typed_in_keeps_the_server_answering() {
    let mut c = Client::start();
    c.open(SMALL, "Walk: 5, _loop\n");
    assert_eq!(c.diagnostics(SMALL, 1), json!([]));
    let mut big = String::from("define a 1\n");
    while big.len() < 10 << 20 {
        big.push_str("time +1\nactor 1 size a\n");
    }
    c.open(BIG, &big);
    // Keystrokes at the end of line 0: `define a 1` becomes `define a 1999...`.
    let changes = 30;
    for v in 2..2 + changes {
        c.change(BIG, v, json!([{ "range": range(0, 10, 0, 10), "text": "9" }]));
    }
    // Answered while the big document is being checked.
    let r = c.at("textDocument/hover", SMALL, 0, 1, json!({}));
    assert_eq!(r["result"]["contents"]["value"], "state `Walk`: 1 frame, 5 ticks in all, then `_loop`");
    let last = 1 + changes;
    let d = c.diagnostics(BIG, last);
    assert_eq!(d, json!([]));
    // Every publication for the big document came in version order, and
    // the burst was not checked change by change.
    let published: Vec<i64> = c
        .backlog
        .iter()
        .filter(|v| v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == BIG)
        .map(|v| v["params"]["version"].as_i64().unwrap())
        .collect();
    assert!(published.windows(2).all(|w| w[0] < w[1]), "{published:?}");
    assert!(published.len() + 1 < changes as usize, "{published:?}");
    // The text the server holds is the one typed.
    let r = c.at("textDocument/hover", BIG, 0, 8, json!({}));
    assert_eq!(r["result"]["contents"]["value"], format!("```slap\ndefine a 1{}\n```", "9".repeat(changes as usize)));
    assert_eq!(c.finish(), 0);
}
