//! Animator streaming, the front half alone: the bytes of a visualiser's
//! stream through the streaming reader, lowering, the VM and tessellation
//! into vertices, with a canvas that discards the vertices at each flush
//! ([`CpuCanvas`]: the renderer's own CPU geometry, no GL). Fed as `animvm`
//! feeds its standard input ([`feed_stream`]: 64 KiB reads).
//!
//! Reference, in the same rounds: a minimal hand-written front half for
//! exactly this workload (split lines at whitespace, `str::parse` the
//! numbers, map to pixels, append the same triangles), no streaming, no
//! error positions, no VM: what the work costs when nothing else is done.

use super::Group;
use crate::draw::stream_text;
use crate::timing::best_rotating;
use crate::{Context, Report};
use animkit_runtime::animator::CpuCanvas;
use animkit_runtime::animator::headless::feed_stream;
use animkit_runtime::render::{MODE_SOLID, Vertex};
use animkit_runtime::stream::Stream;
use std::time::Instant;

/// The group.
pub struct StreamCpu;

/// Seed of the streamed commands.
pub const SEED: u64 = 0x57ea_3000_0000_0001;

/// Commands of the workload (1e6; 20 000 with `--quick`).
pub fn commands(cx: &Context) -> usize {
    if cx.opts.quick { 20_000 } else { 1_000_000 }
}

/// Runs `text` through a stream over a fresh CPU canvas; returns (seconds,
/// commands run, vertices produced).
pub fn ours(text: &str) -> (f64, u64, u64) {
    ours_with(text, true)
}

/// [`ours`], with the verifier's shape cache on or off (off: every
/// command's chunk is verified in full, as before the cache).
pub fn ours_with(text: &str, shape_cache: bool) -> (f64, u64, u64) {
    let t = Instant::now();
    let mut s = Stream::new(CpuCanvas::new(640, 480), "<stdin>");
    s.set_shape_cache(shape_cache);
    feed_stream(&mut s, &mut text.as_bytes(), &mut std::io::sink());
    let dt = t.elapsed().as_secs_f64();
    assert_eq!(s.error_count(), 0);
    (dt, s.command_count(), s.canvas().flushed_vertices())
}

/// The hand-written reference: returns (seconds, commands, vertices).
pub fn reference(text: &str) -> (f64, u64, u64) {
    let t = Instant::now();
    let mut out: Vec<Vertex> = Vec::new();
    let (mut commands, mut vertices) = (0u64, 0u64);
    let mut color = [0u8, 0, 0, 255];
    let px = |x: f64, y: f64| [(320.0 + x * 240.0) as f32, (240.0 - y * 240.0) as f32];
    let vertex = |pos: [f32; 2], color| Vertex { pos, uv: [0.0; 2], color, mode: MODE_SOLID };
    let mut nums = [0f64; 4];
    for line in text.lines() {
        let mut words = line.split_ascii_whitespace();
        let Some(kw) = words.next() else { continue };
        for (n, w) in nums.iter_mut().zip(words) {
            *n = w.parse().unwrap_or(0.0);
        }
        commands += 1;
        match kw {
            "color" => {
                let c = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
                color = [c(nums[0]), c(nums[1]), c(nums[2]), 255];
            }
            "line" => {
                let (a, b) = (px(nums[0], nums[1]), px(nums[2], nums[3]));
                let d = [b[0] - a[0], b[1] - a[1]];
                let len = d[0].abs().max(d[1].abs());
                let k = [d[0] / len * 0.5, d[1] / len * 0.5];
                let o = if d[0].abs() >= d[1].abs() { [0.0, 0.5] } else { [0.5, 0.0] };
                let (s, e) = ([a[0] - k[0], a[1] - k[1]], [b[0] + k[0], b[1] + k[1]]);
                let q = [
                    [s[0] - o[0], s[1] - o[1]],
                    [s[0] + o[0], s[1] + o[1]],
                    [e[0] + o[0], e[1] + o[1]],
                    [e[0] - o[0], e[1] - o[1]],
                ]
                .map(|p| vertex(p, color));
                out.extend_from_slice(&[q[0], q[1], q[2], q[0], q[2], q[3]]);
            }
            "fillcircle" => {
                let n = nums[3] as usize;
                let step = std::f64::consts::TAU / n as f64;
                let p = |i: usize| {
                    let (s, c) = (i as f64 * step).sin_cos();
                    vertex(px(nums[0] + nums[2] * c, nums[1] + nums[2] * s), color)
                };
                let first = p(0);
                let mut prev = p(1);
                for i in 2..n {
                    let next = p(i);
                    out.extend_from_slice(&[first, prev, next]);
                    prev = next;
                }
            }
            "flush" => {
                vertices += out.len() as u64;
                out.clear();
            }
            _ => {}
        }
    }
    vertices += out.len() as u64;
    (t.elapsed().as_secs_f64(), commands, vertices)
}

impl Group for StreamCpu {
    fn name(&self) -> &'static str {
        "stream"
    }

    fn what(&self) -> &'static str {
        "Animator stream, front half on the CPU"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let n = commands(cx);
        let text = stream_text(SEED, n, 10_000);
        let rounds = if cx.opts.quick { 1 } else { 9 };
        let (mut cmds, mut verts) = ((0, 0, 0), (0, 0, 0));
        let times = best_rotating(
            rounds,
            &mut [
                &mut || {
                    let (t, c, v) = ours(&text);
                    (cmds.0, verts.0) = (c, v);
                    t
                },
                &mut || {
                    let (t, c, v) = reference(&text);
                    (cmds.1, verts.1) = (c, v);
                    t
                },
                &mut || {
                    let (t, c, v) = ours_with(&text, false);
                    (cmds.2, verts.2) = (c, v);
                    t
                },
            ],
        );
        let (a, b, full) = (times[0], times[1], times[2]);
        assert_eq!(cmds.0, cmds.1, "both read every command");
        assert_eq!(verts.0, verts.1, "both make the same triangles");
        assert_eq!((cmds.0, verts.0), (cmds.2, verts.2), "the same run without the shape cache");
        let mb = text.len() as f64 / 1e6;
        report.add(
            "stream_cmds_per_s_cpu",
            cmds.0 as f64 / a,
            "cmd/s",
            format!("front half: {n} line/fillcircle/color commands ({mb:.1} MB) read, lowered, run, tessellated"),
        );
        report.add("stream_mb_s_cpu", mb / a, "MB/s", "same, in bytes of the stream");
        report.add(
            "stream_cpu_reference_cmds_per_s",
            cmds.1 as f64 / b,
            "cmd/s",
            "a minimal hand-written parser + tessellator for this workload, same triangles",
        );
        report.add("stream_cpu_vs_reference", a / b, "x", "our time / the reference's (1.0 = as fast)");
        report.add(
            "stream_cmds_per_s_cpu_full_verify",
            cmds.2 as f64 / full,
            "cmd/s",
            "the same, every command's chunk verified in full (the verifier's shape cache off)",
        );
        report.add(
            "stream_cpu_full_verify_vs_reference",
            full / b,
            "x",
            "that time / the reference's: what verifying every chunk in full would cost",
        );
    }
}
