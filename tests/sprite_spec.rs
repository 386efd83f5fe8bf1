//! Every example and pattern of `sprite-dsl.md`, tick by tick: state,
//! category, frame and events, for at least two full cycles.

use crate::common;
use common::{Tick, frames, run, sprites};

/// The frames of `n` ticks of `state`.
fn frame_seq(src: &str, state: &str, n: usize) -> Vec<u32> {
    let s = sprites(src);
    let mut i = s.instance(state).unwrap();
    run(&mut i, n).into_iter().map(|t| t.frame).collect()
}

/// `(tick, events)` for every tick that fired something.
fn event_ticks(src: &str, state: &str, n: usize) -> Vec<(usize, Vec<String>)> {
    let s = sprites(src);
    let mut i = s.instance(state).unwrap();
    run(&mut i, n).into_iter().enumerate().filter(|(_, t)| !t.events.is_empty()).map(|(k, t)| (k, t.events)).collect()
}

fn ev(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn duration_only_walk_loops() {
    let src = "Walk: 5, 5, 5, 5, _loop\n";
    assert_eq!(frame_seq(src, "Walk", 40), frames("0x5 1x5 2x5 3x5 0x5 1x5 2x5 3x5"));
    assert!(event_ticks(src, "Walk", 40).is_empty());
}

#[test]
fn duration_with_events_then_transition() {
    let src = "Attack: 5|swingSound, 5|hitSound, 5, Idle\nIdle: 10|0, 10|1, 10|2, 10|1, _loop\n";
    let s = sprites(src);
    let mut i = s.instance("Attack").unwrap();
    let t = run(&mut i, 15 + 80);
    assert_eq!(t[0], Tick { state: "Attack".into(), category: "Attack".into(), frame: 0, events: ev(&["swingSound"]) });
    assert_eq!(t[5].events, ev(&["hitSound"]));
    assert_eq!((t[5].frame, t[10].frame, t[14].frame), (1, 2, 2));
    assert!(t[..15].iter().all(|x| x.state == "Attack"));
    assert!(t[15..].iter().all(|x| x.state == "Idle" && x.category == "Idle"));
    let idle: Vec<u32> = t[15..].iter().map(|x| x.frame).collect();
    assert_eq!(idle, frames("0x10 1x10 2x10 1x10 0x10 1x10 2x10 1x10"));
    assert_eq!(t.iter().filter(|x| !x.events.is_empty()).count(), 2);
}

#[test]
fn explicit_indices_idle() {
    let src = "Idle: 10|0, 10|1, 10|2, 10|1, _loop\n";
    assert_eq!(frame_seq(src, "Idle", 80), frames("0x10 1x10 2x10 1x10 0x10 1x10 2x10 1x10"));
}

#[test]
fn duration_index_and_events_jump_waits() {
    let src = "Jump: 3|0|jumpSound, 3|1, 3|2|landSound, _wait\n";
    assert_eq!(frame_seq(src, "Jump", 20), frames("0x3 1x3 2x14"));
    assert_eq!(event_ticks(src, "Jump", 20), vec![(0, ev(&["jumpSound"])), (6, ev(&["landSound"]))]);
}

#[test]
fn events_only_frames_reuse_the_last_sprite() {
    assert_eq!(frame_seq("fall: 8, _wait\n", "fall", 20), frames("0x20"));
    assert_eq!(frame_seq("fall: 8, 0|1, _wait\n", "fall", 20), frames("0x8 1x12"));
}

#[test]
fn loop_with_custom_event_fires_at_each_wrap() {
    let src = "Run: 5, 5, 5, 5, _loop|vfxRun\n";
    assert_eq!(frame_seq(src, "Run", 40), frames("0x5 1x5 2x5 3x5 0x5 1x5 2x5 3x5"));
    assert_eq!(event_ticks(src, "Run", 45), vec![(20, ev(&["vfxRun"])), (40, ev(&["vfxRun"]))]);
}

#[test]
fn wait_examples() {
    assert_eq!(frame_seq("Death: 5, 5, 5, 5, _wait\n", "Death", 30), frames("0x5 1x5 2x5 3x15"));
    let src = "Fall: 1|2, _wait|sfxLand\n";
    assert_eq!(frame_seq(src, "Fall", 10), frames("2x10"));
    assert_eq!(event_ticks(src, "Fall", 10), vec![(1, ev(&["sfxLand"]))]);
    let s = sprites(src);
    let mut i = s.instance("Fall").unwrap();
    run(&mut i, 3);
    assert!(i.is_waiting());
}

#[test]
fn pingpong_sequence() {
    let src = "Breathe: 5, 5, 5, 5, _pingpong\n";
    assert_eq!(frame_seq(src, "Breathe", 65), frames("0x5 1x5 2x5 3x5 2x5 1x5 0x5 1x5 2x5 3x5 2x5 1x5 0x5"));
    assert_eq!(frame_seq("Breathe: 8, 8, 8, 8, _pingpong\n", "Breathe", 8 * 13), {
        let mut v = Vec::new();
        for f in [0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0] {
            v.extend(std::iter::repeat_n(f, 8));
        }
        v
    });
}

#[test]
fn pingpong_events_fire_at_every_turn_at_the_end() {
    let src = "BreatheVfx: 5, 5, 5, 5, _pingpong|vfxBreathe\n";
    // Turns after frame 3: ticks 20, 50, 80.
    assert_eq!(
        event_ticks(src, "BreatheVfx", 85),
        vec![(20, ev(&["vfxBreathe"])), (50, ev(&["vfxBreathe"])), (80, ev(&["vfxBreathe"]))]
    );
}

#[test]
fn pingpong_replays_frame_events_in_both_directions() {
    let src = "P: 2|a, 2|b, 2|c, _pingpong|turn\n";
    // a b c (turn) b a b c (turn) b a ...
    assert_eq!(frame_seq(src, "P", 20), frames("0x2 1x2 2x2 1x2 0x2 1x2 2x2 1x2 0x2 1x2"));
    assert_eq!(
        event_ticks(src, "P", 20),
        vec![
            (0, ev(&["a"])),
            (2, ev(&["b"])),
            (4, ev(&["c"])),
            (6, ev(&["turn", "b"])),
            (8, ev(&["a"])),
            (10, ev(&["b"])),
            (12, ev(&["c"])),
            (14, ev(&["turn", "b"])),
            (16, ev(&["a"])),
            (18, ev(&["b"])),
        ]
    );
}

#[test]
fn non_sequential_indices() {
    let src = "Special: 5|0, 5|5, 5|2, 5|7, _loop\n";
    assert_eq!(frame_seq(src, "Special", 40), frames("0x5 5x5 2x5 7x5 0x5 5x5 2x5 7x5"));
}

#[test]
fn aliases_set_the_category_only() {
    let src = "Fall[Jump]: 1|2, _wait\nRunning[Run]: 10, 10, 10, 10, _loop\nWalk[Run]: 20, 20, 20, 20, _loop\n";
    let s = sprites(src);
    let mut fall = s.instance("Fall").unwrap();
    let t = run(&mut fall, 3);
    assert!(t.iter().all(|x| x.state == "Fall" && x.category == "Jump" && x.frame == 2));
    let mut running = s.instance("Running").unwrap();
    let t = run(&mut running, 80);
    assert!(t.iter().all(|x| x.state == "Running" && x.category == "Run"));
    assert_eq!(t.iter().map(|x| x.frame).collect::<Vec<_>>(), frames("0x10 1x10 2x10 3x10 0x10 1x10 2x10 3x10"));
    let mut walk = s.instance("Walk").unwrap();
    assert_eq!(run(&mut walk, 1)[0].category, "Run");
    // The alias is not a state name.
    assert!(s.instance("Run").is_err());
    assert!(s.instance("Jump").is_err());
}

#[test]
fn zero_duration_explicit_index_sets_the_sprite_and_the_counter_continues() {
    let src = "Jump: 5, 0|2, 5, _wait\n";
    assert_eq!(frame_seq(src, "Jump", 20), frames("0x5 3x15"));
}

#[test]
fn zero_duration_auto_index_is_a_control_frame() {
    let src = "Attack: 5, 0|sfxHit, 5, Idle\nIdle: 10, _loop\n";
    let s = sprites(src);
    let mut i = s.instance("Attack").unwrap();
    let t = run(&mut i, 12);
    assert_eq!(t.iter().map(|x| x.frame).collect::<Vec<_>>(), frames("0x5 1x5 0x2"));
    assert_eq!(t[5].events, ev(&["sfxHit"]));
    assert_eq!(t[10].state, "Idle");
}

#[test]
fn complete_examples_and_common_patterns() {
    assert_eq!(
        frame_seq("Idle: 10, 10, 10, 10, _loop\n", "Idle", 80),
        frames("0x10 1x10 2x10 3x10 0x10 1x10 2x10 3x10")
    );
    let walk = "Walk: 5|stepSound, 5, 5|stepSound, 5, _loop\n";
    assert_eq!(
        event_ticks(walk, "Walk", 40),
        vec![(0, ev(&["stepSound"])), (10, ev(&["stepSound"])), (20, ev(&["stepSound"])), (30, ev(&["stepSound"]))]
    );
    let attack = "Attack: 8, 8, 8, Idle\nIdle: 15, 15, 15, 15, _loop\n";
    let s = sprites(attack);
    let mut i = s.instance("Attack").unwrap();
    let t = run(&mut i, 24 + 120);
    assert_eq!(t[..24].iter().map(|x| x.frame).collect::<Vec<_>>(), frames("0x8 1x8 2x8"));
    assert_eq!(t[24..].iter().map(|x| x.frame).collect::<Vec<_>>(), frames("0x15 1x15 2x15 3x15 0x15 1x15 2x15 3x15"));
    assert_eq!(frame_seq("Jump: 5, 5, 5, _wait\n", "Jump", 20), frames("0x5 1x5 2x10"));
    assert_eq!(frame_seq("Death: 6, 6, 6, 6, 6, _wait\n", "Death", 40), frames("0x6 1x6 2x6 3x6 4x16"));
    let slash = "Slash: 3|swingStart, 3|swingMid, 3|hitFrame, 3|recover, 3, Idle\nIdle: 15, _loop\n";
    assert_eq!(
        event_ticks(slash, "Slash", 20),
        vec![(0, ev(&["swingStart"])), (3, ev(&["swingMid"])), (6, ev(&["hitFrame"])), (9, ev(&["recover"]))]
    );
    let s = sprites(slash);
    let mut i = s.instance("Slash").unwrap();
    let t = run(&mut i, 16);
    assert_eq!((t[14].state.as_str(), t[15].state.as_str()), ("Slash", "Idle"));
    let punch = "Punch: 4, 4, 4, Idle\nIdle: 15, 15, 15, 15, _loop\n";
    let s = sprites(punch);
    let mut i = s.instance("Punch").unwrap();
    let t = run(&mut i, 13);
    assert_eq!(t.iter().map(|x| x.frame).collect::<Vec<_>>(), frames("0x4 1x4 2x4 0"));
    assert_eq!(t[12].state, "Idle");
    let shoot = "Shoot: 3|gunSound, 3, 3, 3, Idle\nIdle: 15, _loop\n";
    assert_eq!(event_ticks(shoot, "Shoot", 12), vec![(0, ev(&["gunSound"]))]);
    assert_eq!(frame_seq("Run: 5, 5, 5, 5, _loop\n", "Run", 40), frames("0x5 1x5 2x5 3x5 0x5 1x5 2x5 3x5"));
}

#[test]
fn several_states_empty_lines_and_comments() {
    let src = "\n# a character\nIdle: 2, _loop\n\n\nWalk: 1, 1, _loop   # trailing comment\n\n";
    let s = sprites(src);
    assert_eq!(s.state_count(), 2);
    assert_eq!(s.state_name(1), "Walk");
}

#[test]
fn frames_may_continue_on_the_next_line_after_a_comma() {
    let src = "Long: 1, 1,\n      1, 1, _loop\n";
    assert_eq!(frame_seq(src, "Long", 8), frames("0 1 2 3 0 1 2 3"));
}

#[test]
fn transitions_fire_end_events_then_the_target_first_frame_events_in_one_tick() {
    let src = "A: 2|a, B|leaving\nB: 0|b0, 3|b1, _wait\n";
    let s = sprites(src);
    let mut i = s.instance("A").unwrap();
    let t = run(&mut i, 4);
    assert_eq!(t[2].events, ev(&["leaving", "b0", "b1"]));
    assert_eq!((t[2].state.as_str(), t[2].frame), ("B", 0));
}

#[test]
fn a_state_without_a_displayed_frame_shows_sprite_zero() {
    let src = "A: 3|7, B\nB: 0|x, _wait\n";
    assert_eq!(frame_seq(src, "A", 6), frames("7x3 0x3"));
}

#[test]
fn zero_duration_chains_pass_through_in_one_tick() {
    let src = "A: 0|a, 0|b, B|c\nB: 0|d, C\nC: 0|e, 4|f, _loop\n";
    let s = sprites(src);
    let mut i = s.instance("A").unwrap();
    let t = run(&mut i, 9);
    assert_eq!(t[0].events, ev(&["a", "b", "c", "d", "e", "f"]));
    assert_eq!(t[0].state, "C");
    assert_eq!(t[4].events, ev(&["e", "f"]));
    assert_eq!(t[8].events, ev(&["e", "f"]));
}

#[test]
fn set_state_enters_at_the_next_tick_and_same_state_does_not_restart() {
    let src = "Walk: 5, 5, 5, 5, _loop\nJump: 3|0|jumpSound, 3|1, _wait\n";
    let s = sprites(src);
    let mut i = s.instance("Walk").unwrap();
    run(&mut i, 7);
    assert_eq!(i.frame(), 1);
    i.set_state("Walk").unwrap();
    let t = run(&mut i, 4);
    assert_eq!(t.iter().map(|x| x.frame).collect::<Vec<_>>(), frames("1x3 2"));
    i.set_state("Jump").unwrap();
    assert_eq!(i.state_name(), "Jump");
    assert_eq!(i.frame(), 2, "the displayed sprite changes only at the next tick");
    let t = run(&mut i, 8);
    assert_eq!(t[0].events, ev(&["jumpSound"]));
    assert_eq!(t.iter().map(|x| x.frame).collect::<Vec<_>>(), frames("0x3 1x5"));
    i.restart_state("Jump").unwrap();
    let t = run(&mut i, 1);
    assert_eq!((t[0].frame, t[0].events.clone()), (0, ev(&["jumpSound"])));
    assert!(i.set_state("jump").is_err(), "state names are case-sensitive");
    assert_eq!(i.state_name(), "Jump");
}

#[test]
fn batch_matches_single_instances() {
    let src = "Walk: 5|step, 5, 5|step, 5, _loop\nJump: 3|0|up, 3|1, Fall\nFall[Jump]: 2|2, _wait|land\nB: 2,2,2,_pingpong|turn\n";
    let s = sprites(src);
    let states = ["Walk", "Jump", "Fall", "B"];
    let mut batch = s.batch();
    let mut singles: Vec<_> = Vec::new();
    for k in 0..40 {
        let st = states[k % states.len()];
        batch.spawn(st).unwrap();
        singles.push(s.instance(st).unwrap());
    }
    for tick in 0..60 {
        if tick == 17 {
            batch.set_state(3, "Walk").unwrap();
            singles[3].set_state("Walk").unwrap();
            batch.restart_state(4, "Walk").unwrap();
            singles[4].restart_state("Walk").unwrap();
        }
        batch.tick();
        let mut expected = Vec::new();
        for (k, inst) in singles.iter_mut().enumerate() {
            inst.tick();
            assert_eq!(batch.frame(k as u32), inst.frame(), "tick {tick} instance {k}");
            assert_eq!(batch.state(k as u32), inst.state());
            expected.extend(inst.drain_events().map(|e| (k as u32, e)));
        }
        let got: Vec<_> = batch.drain_events().map(|e| (e.instance, e.event)).collect();
        assert_eq!(got, expected, "tick {tick}");
    }
}
