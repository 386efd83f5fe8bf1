//! The work a domain op costs beyond its one instruction, read from its
//! row of the ISA table (`crate::isa::Work`, the property column): the
//! interpreter charges it for every domain op of every language, so no
//! machine keeps a list of what its ops cost (see
//! [`crate::interp::Limits::max_steps`]). Used inside the crate only (not
//! in `engine`): `tests::op_work_charges_from_the_row` shows it at work.

use crate::interp::Args;
use crate::isa::{Arg, Op, Work};

/// Work units charged for an op that touches the whole frame, a file or
/// the clock (`frame`, `flush`, `screenshot`, `image`, `sleep`, ...: rows
/// of [`Work::Heavy`]), so that runaway calls cannot repeat them millions
/// of times.
pub const HEAVY_WORK: u64 = 4096;

/// The work units `op` costs beyond its one instruction, from its row:
/// one per point of its point list, plus what its [`Work`] says (one per
/// 64 bytes of printed or drawn text, one per `image_set` pixel, one per
/// circle vertex, [`HEAVY_WORK`] for whole-frame, file and clock ops, or
/// one per 16 pixels of a new image if more). `viewport NAME`
/// ([`Work::Measured`]) is charged what measuring the macro took, which
/// its machine reports through `crate::interp::Domain::take_work`.
pub fn op_work(op: Op, a: &Args<'_>) -> u64 {
    let mut work = 0;
    let i = POINTS_AT[op as usize];
    if i != NO_POINTS {
        work += a.uint(i as usize) as u64;
    }
    work += match op.info().work {
        Work::Free | Work::Measured => 0,
        Work::Text(i) => a.str(i as usize).len() as u64 / 64,
        Work::Bytes(i) => a.str(i as usize).len() as u64,
        Work::Count(i) => a.uint(i as usize) as u64,
        Work::Heavy => HEAVY_WORK,
        Work::Pixels(w, h) => (a.uint(w as usize) as u64 * a.uint(h as usize) as u64 / 16).max(HEAVY_WORK),
    };
    work
}

const NO_POINTS: u8 = u8::MAX;

/// For each op byte, where its block's point list is (the first `Points`
/// of its signature), [`NO_POINTS`] if it has none: `op_work` runs for
/// every domain op.
const POINTS_AT: [u8; 256] = {
    let mut table = [NO_POINTS; 256];
    let mut i = 0;
    while i < Op::ALL.len() {
        let op = Op::ALL[i];
        let block = op.info().block;
        let mut k = block.len();
        while k > 0 {
            k -= 1;
            if matches!(block[k], Arg::Points) {
                table[op as usize] = k as u8;
            }
        }
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole-frame op costs [`HEAVY_WORK`], text one unit per 64 bytes,
    /// a point list one per point, and SLAP ops nothing.
    #[test]
    fn op_work_charges_from_the_row() {
        let strings = vec!["x".repeat(130)];
        assert_eq!(op_work(Op::Frame, &Args::new(&[], &strings)), HEAVY_WORK);
        assert_eq!(op_work(Op::Echo, &Args::new(&[0.0], &strings)), 2); // 130 bytes
        assert_eq!(op_work(Op::Lines, &Args::new(&[2.0, 0.0, 0.0, 1.0, 1.0], &strings)), 2); // 2 points
        assert_eq!(op_work(Op::Size, &Args::new(&[1.0, 2.0], &strings)), 0); // SLAP: free
    }

    /// The table says, for every op, where the first point list of its
    /// signature is.
    #[test]
    fn points_at_is_the_first_point_list() {
        for &op in Op::ALL {
            let at = op.info().block.iter().position(|arg| *arg == Arg::Points);
            assert_eq!(at, (POINTS_AT[op as usize] != NO_POINTS).then_some(POINTS_AT[op as usize] as usize), "{op}");
        }
        assert_eq!(POINTS_AT[Op::Poly as usize], 0);
        assert_eq!(POINTS_AT[Op::ImgPoly as usize], 7);
        assert_eq!(POINTS_AT[Op::Line as usize], NO_POINTS);
    }
}
