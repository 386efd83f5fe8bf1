//! Playback speed ([`Speed`]) and the clock that turns fixed ticks into
//! animation ticks (the units of the DSL's durations).
//!
//! An instance at speed `s` keeps a *credit*, the fraction of an animation
//! tick it is owed, in 1/65536ths. Each tick adds `s` to the credit; every
//! whole animation tick in it is run and taken off. Entering a state
//! through the API (spawning, `set_state`, `restart_state`) sets the credit
//! to just under one animation tick, so the first tick after it enters the
//! state at any speed above 0, and at speed 1/2 the animation runs on the
//! 1st, 3rd, 5th ... tick. Changing the speed keeps the credit, so a speed
//! that varies every tick (tied to a character's velocity, say) still adds
//! up exactly. At speed 1 the credit never changes and one animation tick
//! runs per tick: the plain tick model.

use serde::{Deserialize, Serialize};

/// A playback speed: a fixed-point multiplier with 16 fractional bits, from
/// 0 (paused) to 256 (256 animation ticks per tick).
///
/// Exact for every multiple of 1/65536: 1/2, 1/4, 3/4, 1.5, 2 ... A ratio
/// such as 1/3 rounds to the nearest 1/65536 ([`Speed::ratio`]).
///
/// ```
/// use animkit_vm::engine::sprite::Speed;
/// assert_eq!(Speed::ratio(1, 2), Some(Speed::from_raw(32768)));
/// assert_eq!(Speed::from_f32(2.0), Speed::ratio(2, 1).unwrap());
/// assert_eq!(Speed::from_f32(1000.0), Speed::MAX);
/// assert_eq!(Speed::ONE.to_f32(), 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Speed(u32);

/// Fractional bits of a [`Speed`] and of an instance's credit.
const FRACTION: u32 = 16;
/// One animation tick, in credit units.
pub(super) const UNIT: u64 = 1 << FRACTION;
/// The credit after entering a state: one unit short of an animation tick,
/// so that the next tick at any speed above 0 runs at least one.
pub(super) const ENTRY_CREDIT: u32 = (1 << FRACTION) - 1;

impl Speed {
    /// Paused: no animation tick runs.
    pub const PAUSED: Speed = Speed(0);
    /// Normal speed: one animation tick per tick.
    pub const ONE: Speed = Speed(1 << FRACTION);
    /// The fastest speed, 256x.
    pub const MAX: Speed = Speed(256 << FRACTION);

    /// The speed of `raw / 65536`, at most [`Speed::MAX`].
    ///
    /// ```
    /// use animkit_vm::engine::sprite::Speed;
    /// assert_eq!(Speed::from_raw(65536), Speed::ONE);
    /// assert_eq!(Speed::from_raw(u32::MAX), Speed::MAX);
    /// ```
    pub const fn from_raw(raw: u32) -> Speed {
        if raw > Speed::MAX.0 { Speed::MAX } else { Speed(raw) }
    }

    /// The multiplier in 1/65536ths.
    ///
    /// ```
    /// assert_eq!(animkit_vm::engine::sprite::Speed::ONE.raw(), 65536);
    /// ```
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// `num / den`, rounded to the nearest 1/65536 and at most
    /// [`Speed::MAX`]; `None` when `den` is 0.
    ///
    /// ```
    /// use animkit_vm::engine::sprite::Speed;
    /// assert_eq!(Speed::ratio(3, 2).unwrap().raw(), 98304);
    /// assert_eq!(Speed::ratio(1, 3).unwrap().raw(), 21845);
    /// assert_eq!(Speed::ratio(0, 5), Some(Speed::PAUSED));
    /// assert_eq!(Speed::ratio(1, 0), None);
    /// ```
    pub fn ratio(num: u32, den: u32) -> Option<Speed> {
        if den == 0 {
            return None;
        }
        let raw = ((num as u64) << FRACTION) * 2 / den as u64;
        Some(Speed::from_raw(raw.div_ceil(2).min(u32::MAX as u64) as u32))
    }

    /// `x` rounded to the nearest 1/65536, clamped to 0 ..= 256 (NaN is 0).
    ///
    /// ```
    /// use animkit_vm::engine::sprite::Speed;
    /// assert_eq!(Speed::from_f32(0.5), Speed::ratio(1, 2).unwrap());
    /// assert_eq!(Speed::from_f32(-1.0), Speed::PAUSED);
    /// assert_eq!(Speed::from_f32(f32::NAN), Speed::PAUSED);
    /// ```
    pub fn from_f32(x: f32) -> Speed {
        let raw = (x as f64 * UNIT as f64).round();
        // `as` saturates, and NaN becomes 0.
        Speed::from_raw(raw.clamp(0.0, u32::MAX as f64) as u32)
    }

    /// The multiplier as a float.
    ///
    /// ```
    /// assert_eq!(animkit_vm::engine::sprite::Speed::ratio(1, 4).unwrap().to_f32(), 0.25);
    /// ```
    pub fn to_f32(self) -> f32 {
        (self.0 as f64 / UNIT as f64) as f32
    }
}

impl Default for Speed {
    /// [`Speed::ONE`].
    fn default() -> Speed {
        Speed::ONE
    }
}

/// An instance's clock: its speed, its credit (see the module docs) and
/// the phase it still has to skip when it next ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Clock {
    pub(super) speed: Speed,
    /// In 1/65536ths of an animation tick, below 65536.
    pub(super) credit: u32,
    /// Animation ticks to run silently (no events) at the start of the
    /// next tick: the phase given when the state was entered.
    pub(super) skip: u32,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock { speed: Speed::ONE, credit: ENTRY_CREDIT, skip: 0 }
    }
}

impl Clock {
    /// True when a tick is exactly one animation tick: the plain path.
    #[inline]
    pub(super) fn is_plain(&self) -> bool {
        self.speed == Speed::ONE && self.skip == 0
    }

    /// Takes `ticks` ticks' worth of animation ticks out of the credit.
    #[inline]
    pub(super) fn take(&mut self, ticks: u64) -> u64 {
        let total = self.credit as u64 + ticks * self.speed.0 as u64;
        self.credit = (total & (UNIT - 1)) as u32;
        total >> FRACTION
    }

    /// The tick (0 = the next one) during which animation tick `j` (0 = the
    /// next one) runs, for a speed above 0.
    #[inline]
    pub(super) fn tick_of(&self, j: u64) -> u64 {
        let k = self.speed.0.max(1) as u64;
        ((j + 1) * UNIT - self.credit as u64).div_ceil(k) - 1
    }
}
