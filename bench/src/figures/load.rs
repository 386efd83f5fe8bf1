//! Bundle load throughput: `animkit_vm::engine::codec::load` (header and CRC check,
//! decoding with a size limit, then the verifier) on the corpus bundle.

use super::Group;
use crate::timing::{best, best_interleaved, time};
use crate::{Context, Report};
use animkit_compiler::{Options, compile};

/// The group.
pub struct Load;

impl Group for Load {
    fn name(&self) -> &'static str {
        "load"
    }

    fn what(&self) -> &'static str {
        "bundle load + verify throughput"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let sources = super::compile::sources(cx);
        let program = compile(&sources, &Options::default()).expect("corpus compiles");
        let bytes = animkit_vm::engine::codec::encode(&program);
        let rounds = cx.rounds();
        let secs = best(rounds, || time(|| animkit_vm::engine::codec::load(&bytes).expect("loads")));
        report.add(
            "load_mb_s",
            bytes.len() as f64 / secs / 1e6,
            "MB/s",
            format!(
                "decode + verify of the corpus bundle ({:.1} MB), bundle bytes per second",
                bytes.len() as f64 / 1e6
            ),
        );
        // Decode and verify apart, in alternating rounds (the program is
        // built, then dropped, outside the verifier's timing).
        let decoded = animkit_vm::engine::codec::decode(&bytes).expect("decodes");
        let (decode_secs, verify_secs) = best_interleaved(
            rounds,
            || time(|| animkit_vm::engine::codec::decode(&bytes).expect("decodes")),
            || time(|| animkit_vm::engine::verify::verify_program(&decoded).expect("verifies")),
        );
        report.add(
            "load_decode_mb_s",
            bytes.len() as f64 / decode_secs / 1e6,
            "MB/s",
            "decode alone (header, CRC, records, code, constants, lines, states; drop included), bundle bytes per second",
        );
        report.add(
            "verify_mb_s",
            bytes.len() as f64 / verify_secs / 1e6,
            "MB/s",
            "the verifier alone on the decoded corpus program, bundle bytes per second",
        );
        report.add("load_ms_corpus", secs * 1e3, "ms", "time to load + verify the whole corpus bundle");
        report.add(
            "load_source_mb_s",
            cx.corpus().bytes() as f64 / secs / 1e6,
            "MB/s",
            "the same in source bytes compiled into it per second",
        );
    }
}
