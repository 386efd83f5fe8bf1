//! `animvm` as a process on bundles that lie about their lengths: a valid
//! header and checksum around a payload that claims far more than it
//! holds. Under an address-space limit far below the claim, `animvm`
//! reports the lie (it used to allocate the claimed length first and abort
//! with "memory allocation of 209715200 bytes failed").

use animkit_vm::engine::codec;
use std::process::Command;

/// `ulimit -v` for the runs, in KiB: about 117 MiB of address space,
/// enough for `animvm --trace` and far less than the 200 MiB claimed.
const ADDRESS_SPACE_KIB: u32 = 120_000;

/// A bundle around `payload`, with a correct header and checksum.
fn bundle(payload: &[u8]) -> Vec<u8> {
    codec::frame_payload(payload)
}

/// bincode's varint of a length from 2^16 to 2^32 - 1.
fn varint_u32(v: u32) -> Vec<u8> {
    [vec![0xfc], v.to_le_bytes().to_vec()].concat()
}

/// Runs `animvm ARGS` in `dir` under the address-space limit: (status,
/// stdout, stderr).
fn animvm_limited(args: &str, dir: &std::path::Path) -> (i32, String, String) {
    let script = format!("ulimit -v {ADDRESS_SPACE_KIB}; exec \"$0\" {args}");
    let out = Command::new("sh").args(["-c", &script, env!("CARGO_BIN_EXE_animvm")]).current_dir(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn a_string_table_claiming_200_mib_is_reported_not_allocated() {
    let dir = tempfile::tempdir().unwrap();
    // One string of 200 MiB, of which 4 bytes are there: 30 bytes in all.
    let lie = bundle(&[vec![1], varint_u32(200 << 20), b"abcd".to_vec()].concat());
    assert_eq!(lie.len(), 30);
    std::fs::write(dir.path().join("lie.animb"), &lie).unwrap();
    let (status, out, err) = animvm_limited("--trace lie.animb", dir.path());
    assert_eq!(
        (status, out.as_str(), err.as_str()),
        (
            1,
            "",
            "error: `lie.animb`: malformed bundle: the payload ends in the middle of a field (a length or count claims more than there is)\n"
        )
    );
}

#[test]
fn the_limit_leaves_room_for_a_real_bundle() {
    // The same limit, a bundle that tells the truth: the test above fails
    // for the lie, not for the limit.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hero.anim"), "Walk: 2|step, 2, _loop\n").unwrap();
    let program = animkit_runtime::load::load_program(dir.path().join("hero.anim").to_str().unwrap()).unwrap();
    std::fs::write(dir.path().join("hero.animb"), codec::encode(&program)).unwrap();
    let (status, out, err) = animvm_limited("--trace --ticks 1 hero.animb", dir.path());
    assert_eq!(
        (status, out.as_str(), err.as_str()),
        (0, "{\"tick\":0,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[\"step\"]}\n", "")
    );
}
