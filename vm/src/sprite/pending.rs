//! The pending-event cap: an instance or a batch keeps at most
//! [`MAX_PENDING_EVENTS`] events fired and not yet drained. Events fired
//! while it is full are dropped (the newest: those already kept stay, in
//! order) and counted, so that `advance(u32::MAX)` on a looping state
//! keeps 65 536 events (256 KiB for an instance, 512 KiB for a batch), not
//! 4 billion.
//!
//! `advance.rs` hands events to a [`Sink`], which says up to which tick it
//! still wants any: whole trips round a cycle past that point are counted
//! as dropped in one multiplication, so catching up costs the events kept,
//! not the ticks run.

use super::EventId;
use super::batch::BatchEvent;
use super::speed::Clock;

/// Most events an instance ([`super::SpriteInstance`], the game API's
/// `Animation`) or a batch ([`super::SpriteBatch`], `AnimationBatch`)
/// keeps pending; the events fired while that many are pending are
/// dropped and counted (`dropped_events`).
pub const MAX_PENDING_EVENTS: usize = 65_536;

/// Where [`super::advance::run`] puts the events it fires.
pub(super) trait Sink {
    /// Whether an event fired at animation tick `t` (of the run) would be
    /// kept. Once false for some `t`, it stays false for every later tick
    /// of the run.
    fn wants(&self, t: u64) -> bool;
    /// Keeps an event [`Sink::wants`] said yes to.
    fn keep(&mut self, t: u64, e: EventId);
    /// Counts `n` events fired and not kept.
    fn drop_events(&mut self, n: u64);
    /// Keeps the event, or counts it dropped.
    fn offer(&mut self, t: u64, e: EventId) {
        if self.wants(t) { self.keep(t, e) } else { self.drop_events(1) }
    }
}

/// A phase being skipped: its ticks fire nothing, so nothing is kept and
/// nothing counts as dropped.
pub(super) struct Discard;

impl Sink for Discard {
    fn wants(&self, _: u64) -> bool {
        false
    }
    fn keep(&mut self, _: u64, _: EventId) {}
    fn drop_events(&mut self, _: u64) {}
}

/// Every event to a function (which caps them itself: a batch tick's).
pub(super) struct Each<F>(pub(super) F);

impl<F: FnMut(EventId)> Sink for Each<F> {
    fn wants(&self, _: u64) -> bool {
        true
    }
    fn keep(&mut self, _: u64, e: EventId) {
        (self.0)(e)
    }
    fn drop_events(&mut self, _: u64) {}
}

/// Pushes `item` onto `pending` if it has room, else counts it dropped.
#[inline]
pub(super) fn push<T>(pending: &mut Vec<T>, dropped: &mut u64, item: T) {
    if pending.len() < MAX_PENDING_EVENTS {
        pending.push(item);
    } else {
        *dropped += 1;
    }
}

/// [`push`] for several items: as many as there is room for.
#[inline]
pub(super) fn extend<T: Copy>(pending: &mut Vec<T>, dropped: &mut u64, items: &[T]) {
    let room = MAX_PENDING_EVENTS.saturating_sub(pending.len());
    let n = items.len().min(room);
    pending.extend_from_slice(&items[..n]);
    *dropped += (items.len() - n) as u64;
}

/// An instance's pending events, capped.
pub(super) struct Capped<'a> {
    pub(super) pending: &'a mut Vec<EventId>,
    pub(super) dropped: &'a mut u64,
}

impl Sink for Capped<'_> {
    fn wants(&self, _: u64) -> bool {
        self.pending.len() < MAX_PENDING_EVENTS
    }
    fn keep(&mut self, _: u64, e: EventId) {
        self.pending.push(e);
    }
    fn drop_events(&mut self, n: u64) {
        *self.dropped += n;
    }
}

/// A batch's `advance`: the events of all its instances, put in tick order
/// (then instance order) and capped to the `room` earliest. Holds at most
/// `2 x room` candidates: when full, it sorts them, keeps the `room`
/// earliest, and from then on wants only events before the tick of the
/// last one kept (a later event, or one of the same tick from a later
/// instance, would sort after it).
pub(super) struct Fired<'a> {
    buf: &'a mut Vec<(u64, u64, BatchEvent)>,
    room: usize,
    /// Events at this tick or later are not wanted.
    before: u64,
    order: u64,
    dropped: u64,
}

impl<'a> Fired<'a> {
    /// Candidates for at most `room` events, in `buf` (cleared).
    pub(super) fn new(buf: &'a mut Vec<(u64, u64, BatchEvent)>, room: usize) -> Fired<'a> {
        buf.clear();
        Fired { buf, room, before: if room == 0 { 0 } else { u64::MAX }, order: 0, dropped: 0 }
    }

    /// The events of instance `instance`, whose clock was `start` when the
    /// run began (animation ticks to ticks).
    pub(super) fn of(&mut self, instance: u32, start: Clock) -> FiredBy<'_, 'a> {
        FiredBy { fired: self, instance, start }
    }

    fn compact(&mut self) {
        self.buf.sort_unstable_by_key(|&(t, order, _)| (t, order));
        if self.buf.len() > self.room {
            self.dropped += (self.buf.len() - self.room) as u64;
            self.buf.truncate(self.room);
            self.before = self.buf.last().map_or(0, |&(t, _, _)| t);
        }
    }

    /// Appends the events kept to `events` in order; returns how many
    /// were dropped.
    pub(super) fn finish(mut self, events: &mut Vec<BatchEvent>) -> u64 {
        self.compact();
        events.extend(self.buf.drain(..).map(|(_, _, e)| e));
        self.dropped
    }
}

/// [`Fired`] for one instance.
pub(super) struct FiredBy<'f, 'a> {
    fired: &'f mut Fired<'a>,
    instance: u32,
    start: Clock,
}

impl Sink for FiredBy<'_, '_> {
    fn wants(&self, t: u64) -> bool {
        self.start.tick_of(t) < self.fired.before
    }
    fn keep(&mut self, t: u64, event: EventId) {
        let f = &mut *self.fired;
        f.buf.push((self.start.tick_of(t), f.order, BatchEvent { instance: self.instance, event }));
        f.order += 1;
        if f.buf.len() >= 2 * f.room {
            f.compact();
        }
    }
    fn drop_events(&mut self, n: u64) {
        self.fired.dropped += n;
    }
}
