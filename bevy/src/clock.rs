//! The plugin's own clock: animation ticks at
//! [`AnimkitSettings::ticks_per_second`] from the game's virtual time,
//! independent of `Time<Fixed>` (which a game's physics owns).

use crate::AnimkitSettings;
use bevy::ecs::prelude::*;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::time::{Time, Virtual};

/// The schedule the plugin runs once per animation tick, in
/// [`RunFixedMainLoop`](bevy::app::RunFixedMainLoop) after Bevy's fixed
/// loop (so before `Update`): [`AnimkitSystems`](crate::AnimkitSystems)
/// runs in it. A game system that sets states and must take effect in the
/// same tick goes here, `.before(AnimkitSystems)`; one that reads every
/// tick's frames or events, `.after(AnimkitSystems)`.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnimkitTick;

/// Virtual time not yet ticked, in nanoseconds times ticks a second (so
/// that every integer rate is exact: no drift over a long game).
#[derive(Resource, Debug, Default)]
pub(crate) struct AnimkitClock {
    scaled: u128,
}

const NANOS_PER_SECOND: u128 = 1_000_000_000;

impl AnimkitClock {
    /// Adds `nanos` of virtual time at `rate` ticks a second; returns the
    /// ticks now due.
    pub(crate) fn advance(&mut self, nanos: u128, rate: u32) -> u128 {
        if rate == 0 {
            self.scaled = 0;
            return 0;
        }
        self.scaled += nanos * u128::from(rate);
        let due = self.scaled / NANOS_PER_SECOND;
        self.scaled %= NANOS_PER_SECOND;
        due
    }
}

/// Runs [`AnimkitTick`] once per tick due since the last frame.
pub(crate) fn run_ticks(world: &mut World) {
    let delta = world.resource::<Time<Virtual>>().delta().as_nanos();
    let rate = world.resource::<AnimkitSettings>().ticks_per_second;
    let due = world.resource_mut::<AnimkitClock>().advance(delta, rate);
    if due == 0 {
        return;
    }
    let _ = world.try_schedule_scope(AnimkitTick, |world, schedule| {
        for _ in 0..due {
            schedule.run(world);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::AnimkitClock;

    #[test]
    fn the_clock_ticks_at_its_rate_without_drift() {
        let mut c = AnimkitClock::default();
        // 60 ticks a second from 16_666_667 ns frames: 1 tick each, and
        // after 3 frames the rounding still gives exactly 3.
        let ticks: Vec<u128> = (0..3).map(|_| c.advance(16_666_667, 60)).collect();
        assert_eq!(ticks, [1, 1, 1]);
        // 25 a second from 20 ms frames: every other frame.
        let mut c = AnimkitClock::default();
        let ticks: Vec<u128> = (0..4).map(|_| c.advance(20_000_000, 25)).collect();
        assert_eq!(ticks, [0, 1, 0, 1]);
        // A 250 ms frame at 50 a second: 12 ticks, 10 ms left over.
        let mut c = AnimkitClock::default();
        assert_eq!((c.advance(250_000_000, 50), c.advance(10_000_000, 50)), (12, 1));
        // Rate 0: paused, nothing accumulates.
        assert_eq!((c.advance(1_000_000_000, 0), c.advance(0, 50)), (0, 0));
    }
}
