//! animkit for Bevy: `.animb` bundles as Bevy assets, sprite state
//! machines ticked by the plugin's own clock, their events as Bevy
//! messages, and hot reload through Bevy's asset events.
//!
//! - [`AnimkitPlugin`] registers the [`AnimkitBundle`] asset and its
//!   loader (files ending in `.animb`; with the `source` feature also
//!   `AnimkitSourceLoader`, which compiles `.anim`, `.draw` and `.slap`
//!   sources into the same asset on load), the [`Animkit`] resource, the
//!   [`AnimkitSettings`] resource, the messages and the reflected
//!   components, and runs its systems in [`AnimkitSystems`] in the
//!   [`AnimkitTick`] schedule: one animation tick per run, at
//!   [`AnimkitPlugin::ticks_per_second`] (default 50) of the game's
//!   virtual time (`Time<Virtual>`: pausing or slowing it pauses or slows
//!   the animations), whatever rate the game's `Time<Fixed>` runs its
//!   physics at.
//! - An entity plays a sprite module with an [`AnimkitSprite`] (bundle
//!   handle, module and start state by name). Once its bundle is loaded it
//!   gets an instance in a batch shared by every entity of that bundle's
//!   module (the vm's [`AnimationBatch`], which ticks many instances for
//!   next to nothing), and after every tick its [`AnimkitFrame`]
//!   holds the frame index and state shown. With the `atlas` feature the
//!   frame index is also written into the entity's
//!   `Sprite::texture_atlas` index, and `atlas_sprite` makes that sprite
//!   from an image and a grid.
//! - Changing an [`AnimkitSprite`]'s `state` after it started switches the
//!   entity to that state at the next tick (as [`Animkit::set_state`]).
//! - Each event the bundle fires is an [`AnimkitEvent`] message (entity,
//!   event, frame), read with `MessageReader<AnimkitEvent>`.
//! - [`Animkit`] (a resource) sets states by name or handle, speeds, and
//!   reads states, frames and event names.
//! - When a bundle asset changes ([`AssetEvent::Modified`], e.g. after
//!   `AssetServer::reload` or a file watcher's reload), every entity of it
//!   moves onto the new program ([`AnimationBatch::reload`]'s rules: the
//!   same state by name, else [`AnimkitSettings::reload_fallback`]) and
//!   an [`AnimkitReloaded`] message says what happened.
//!
//! ```
//! use animkit_bevy::{AnimkitBundle, AnimkitPlugin, AnimkitSprite};
//! use bevy::prelude::*;
//!
//! fn spawn_hero(mut commands: Commands, assets: Res<AssetServer>) {
//!     let bundle: Handle<AnimkitBundle> = assets.load("hero.animb");
//!     commands.spawn(AnimkitSprite::new(bundle, "hero", "Walk"));
//! }
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, AssetPlugin::default(), AnimkitPlugin::default()))
//!     .add_systems(Startup, spawn_hero);
//! ```

use animkit_vm::game::{
    AnimationBatch, Bundle as VmBundle, Event, FindError, InstanceEvent, OpenError, ReloadReport, Speed, SpriteModule,
    State, UnknownState,
};
use bevy::app::{App, Plugin, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy::asset::io::Reader;
use bevy::asset::{
    Asset, AssetApp, AssetEvent, AssetId, AssetLoader, AssetServer, Assets, Handle, LoadContext, LoadState,
};
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::prelude::*;
use bevy::ecs::world::DeferredWorld;
use bevy::reflect::{Reflect, TypePath, std_traits::ReflectDefault};
use std::fmt;

pub use animkit_vm;
pub use clock::AnimkitTick;

#[cfg(feature = "atlas")]
pub use atlas::atlas_sprite;
pub use grid::SpriteGrid;
#[cfg(feature = "source")]
pub use source::{AnimkitSourceError, AnimkitSourceLoader};

#[cfg(feature = "atlas")]
mod atlas;
mod clock;
mod grid;
#[cfg(feature = "source")]
mod source;

/// The plugin: the bundle asset and its loader, the [`Animkit`] and
/// [`AnimkitSettings`] resources, the messages, the reflected types and
/// the systems. Add it after `AssetPlugin` (in `DefaultPlugins`) and a
/// `TimePlugin` (in `MinimalPlugins` and `DefaultPlugins`).
///
/// The animations tick at `ticks_per_second` of the game's virtual time,
/// on the plugin's own clock: the game's `Time<Fixed>` (its physics rate)
/// does not change them. animkit sources count durations in ticks, and
/// the repository's examples are written for 50 a second, the default.
///
/// ```
/// use animkit_bevy::{AnimkitPlugin, ReloadFallback};
/// use bevy::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, AssetPlugin::default()))
///     // Physics at 64 Hz; the animations at 30 ticks a second.
///     .insert_resource(Time::<Fixed>::from_hz(64.0))
///     .add_plugins(AnimkitPlugin { ticks_per_second: 30, reload_fallback: ReloadFallback::State("Idle".into()) });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnimkitPlugin {
    /// Animation ticks per second of virtual time (default 50; 0 pauses
    /// every animation). [`AnimkitSettings`] holds it at run time.
    pub ticks_per_second: u32,
    /// Where a hot reload puts an entity whose state the new bundle lacks.
    pub reload_fallback: ReloadFallback,
}

impl Default for AnimkitPlugin {
    fn default() -> AnimkitPlugin {
        AnimkitPlugin { ticks_per_second: 50, reload_fallback: ReloadFallback::FirstState }
    }
}

/// Where a hot reload puts an entity whose state the new program lacks (an
/// entity whose state the new program still has keeps it, by name, with
/// its frame position).
#[derive(Clone, Debug, Default, PartialEq, Eq, Reflect)]
pub enum ReloadFallback {
    /// The module's first state (declaration order).
    #[default]
    FirstState,
    /// The state of this name; the first state where the new program has
    /// none of that name either.
    State(String),
}

/// The plugin's settings at run time (a resource, from [`AnimkitPlugin`]):
/// change `ticks_per_second` to speed every animation up or down from the
/// next frame, `reload_fallback` for the next reload.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct AnimkitSettings {
    /// Animation ticks per second of virtual time (0 pauses).
    pub ticks_per_second: u32,
    /// See [`ReloadFallback`].
    pub reload_fallback: ReloadFallback,
}

/// The plugin's systems, in the [`AnimkitTick`] schedule (one run per
/// animation tick): order game systems there that set states
/// `.before(AnimkitSystems)` to take effect in the same tick, and those
/// that read [`AnimkitFrame`] or [`AnimkitEvent`] every tick `.after` it.
/// A system in `Update` sees the frames and events of the ticks run this
/// frame, and its changes take effect at the next tick.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnimkitSystems;

impl Plugin for AnimkitPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<AnimkitBundle>()
            .register_asset_loader(AnimkitBundleLoader)
            .init_resource::<Animkit>()
            .insert_resource(AnimkitSettings {
                ticks_per_second: self.ticks_per_second,
                reload_fallback: self.reload_fallback.clone(),
            })
            .init_resource::<clock::AnimkitClock>()
            .register_type::<AnimkitSprite>()
            .register_type::<AnimkitFrame>()
            .register_type::<AnimkitFailed>()
            .register_type::<AnimkitSettings>()
            .register_type::<ReloadFallback>()
            .add_message::<AnimkitEvent>()
            .add_message::<AnimkitReloaded>()
            .init_schedule(AnimkitTick)
            .add_systems(RunFixedMainLoop, clock::run_ticks.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop))
            .add_systems(
                AnimkitTick,
                (reload, attach, apply_requests, tick, write_frames).chain().in_set(AnimkitSystems),
            );
        #[cfg(feature = "atlas")]
        app.add_systems(AnimkitTick, atlas::write_atlas.after(write_frames).in_set(AnimkitSystems));
        #[cfg(feature = "source")]
        app.register_asset_loader(AnimkitSourceLoader);
    }
}

/// A verified bundle, loaded from a `.animb` file by [`AnimkitBundleLoader`].
#[derive(Asset, TypePath, Clone, Debug)]
pub struct AnimkitBundle {
    bundle: VmBundle,
}

impl AnimkitBundle {
    /// An asset of a bundle opened by the game (e.g. to `Assets::add` one
    /// compiled at run time).
    pub fn new(bundle: VmBundle) -> AnimkitBundle {
        AnimkitBundle { bundle }
    }

    /// The bundle.
    pub fn bundle(&self) -> &VmBundle {
        &self.bundle
    }
}

/// The asset loader of `.animb` files: reads and verifies the bundle; a
/// file that is not a valid bundle fails to load with an
/// [`AnimkitLoadError`] (the asset's `LoadState::Failed`), never a panic.
#[derive(Clone, Copy, Debug, Default, TypePath)]
pub struct AnimkitBundleLoader;

/// Why a `.animb` asset did not load.
#[derive(Debug)]
pub enum AnimkitLoadError {
    /// The asset's bytes could not be read.
    Io {
        /// The asset path.
        path: String,
        /// The reader's reason.
        message: String,
    },
    /// The bytes are not a bundle this build plays.
    Open {
        /// The asset path.
        path: String,
        /// Why (wrong magic, format version, a failed verifier rule...).
        error: OpenError,
    },
}

impl fmt::Display for AnimkitLoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnimkitLoadError::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            AnimkitLoadError::Open { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

impl std::error::Error for AnimkitLoadError {}

impl AssetLoader for AnimkitBundleLoader {
    type Asset = AnimkitBundle;
    type Settings = ();
    type Error = AnimkitLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<AnimkitBundle, AnimkitLoadError> {
        let path = || load_context.path().to_string();
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .await
            .map_err(|e| AnimkitLoadError::Io { path: path(), message: e.to_string() })?;
        let bundle = VmBundle::from_bytes(&bytes).map_err(|error| AnimkitLoadError::Open { path: path(), error })?;
        Ok(AnimkitBundle { bundle })
    }

    fn extensions(&self) -> &[&str] {
        &["animb"]
    }
}

/// Plays sprite module `module` of `bundle` on this entity, from state
/// `state` (`phase` ticks in), once the bundle is loaded. If the bundle
/// fails to load (its `LoadState::Failed`), or the module or the state is
/// not in it, the entity gets an [`AnimkitFailed`] instead.
///
/// `state` is the requested state: a change of the component after the
/// entity started (`Changed<AnimkitSprite>`: a write through
/// `Query<&mut AnimkitSprite>`, or the component inserted again) switches
/// the entity to its `state` at the next tick, as [`Animkit::set_state`]
/// does (no restart when it is in that state already; so writing the same
/// name again after the state machine moved on, e.g. from Attack to Idle,
/// asks for it again). Any write counts, also one of `phase` only: use
/// `set_if_neq` or `bypass_change_detection` for writes that must not ask
/// for `state` again over a state set through [`Animkit`]. An unknown name keeps
/// the entity playing its current state and puts an [`AnimkitFailed`]
/// holding [`AnimkitError::State`] on it, which the next request of a
/// known state removes. `bundle`, `module` and `phase` are read once, at
/// the start (remove the component first to start over on another bundle
/// or module). Removing the component (or despawning the entity) frees
/// its instance.
///
/// ```
/// use animkit_bevy::AnimkitSprite;
/// use bevy::prelude::*;
///
/// /// Put on a hero when it takes a hit.
/// #[derive(Component)]
/// struct Hit;
///
/// fn play_hurt(mut heroes: Query<&mut AnimkitSprite, Added<Hit>>) {
///     for mut hero in &mut heroes {
///         hero.state = "Hurt".to_string();
///     }
/// }
/// # bevy::ecs::system::assert_is_system(play_hurt);
/// ```
#[derive(Component, Clone, Debug, Reflect)]
#[reflect(Component, Debug, Clone)]
#[require(AnimkitFrame)]
#[component(on_remove = on_remove_sprite)]
pub struct AnimkitSprite {
    /// The bundle.
    pub bundle: Handle<AnimkitBundle>,
    /// The sprite module's name.
    pub module: String,
    /// The requested state's name: the start state, and after the start a
    /// state to switch to at the next tick.
    pub state: String,
    /// Animation ticks already run into the start state, so that a crowd
    /// does not walk in lockstep (the skipped ticks fire no events).
    pub phase: u32,
}

impl AnimkitSprite {
    /// Module `module` of `bundle`, from the start of state `state`.
    pub fn new(bundle: Handle<AnimkitBundle>, module: impl Into<String>, state: impl Into<String>) -> AnimkitSprite {
        AnimkitSprite { bundle, module: module.into(), state: state.into(), phase: 0 }
    }

    /// The same, `phase` ticks into the state.
    pub fn with_phase(mut self, phase: u32) -> AnimkitSprite {
        self.phase = phase;
        self
    }
}

/// What an [`AnimkitSprite`] shows after the last tick: the frame
/// index (the sprite to draw from the state's sheet) and the state. Written
/// only when it changes, so `Changed<AnimkitFrame>` finds the entities to
/// redraw. `index` is 0 and `state` the first state until the first tick.
/// (Reflection shows `index`; `state`, a vm handle, is not reflected:
/// [`Animkit::state_name`] names it.)
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, Default)]
pub struct AnimkitFrame {
    /// The frame (sprite) index.
    pub index: u32,
    /// The state (a handle of the entity's module; see [`Animkit::module`]).
    #[reflect(ignore)]
    pub state: State,
}

/// Put on an entity whose [`AnimkitSprite`] failed: its bundle failed to
/// load ([`AnimkitError::Load`]), its module or start state is not in the
/// bundle (the entity plays nothing; remove this component, and fix the
/// sprite, to try again), or, once it plays, the state its sprite requests
/// is not in the module ([`AnimkitError::State`]; it plays on in its
/// current state, and the next request of a known state removes this).
/// Reflected as an opaque value.
#[derive(Component, Clone, Debug, Reflect)]
#[reflect(opaque)]
#[reflect(Component, Debug, Clone)]
pub struct AnimkitFailed(pub AnimkitError);

/// An event fired by an entity's sprite module during a tick.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnimkitEvent {
    /// The entity.
    pub entity: Entity,
    /// The event (its id is the name's number in the bundle; see
    /// [`Animkit::event_name`] and [`Animkit::event`]).
    pub event: Event,
    /// The frame index the entity shows after the tick that fired it.
    pub frame: u32,
    /// The batch it came from, for its name.
    batch: u32,
}

/// A bundle asset changed and the entities of one of its sprite modules
/// moved onto the new program (`Ok`, with what the reload did), or the new
/// bundle lacks the module (`Err`) and they go on playing the old one.
#[derive(Message, Clone, Debug)]
pub struct AnimkitReloaded {
    /// The bundle asset.
    pub bundle: AssetId<AnimkitBundle>,
    /// The sprite module.
    pub module: String,
    /// What happened.
    pub result: Result<ReloadReport, FindError>,
}

/// Why an [`Animkit`] call or an [`AnimkitSprite`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnimkitError {
    /// The entity plays nothing (yet): it has no [`AnimkitSprite`], its
    /// bundle is not loaded, or it failed to start.
    NotPlaying(Entity),
    /// The bundle has no sprite module of that name.
    Module(FindError),
    /// The module has no state of that name.
    State(UnknownState),
    /// The bundle asset failed to load (`LoadState::Failed`): the asset
    /// server's message (the loader's reason, e.g. a corrupted bundle).
    Load(String),
    /// (`atlas_sprite`) No state of the module draws from a sprite
    /// category of that name.
    Category {
        /// The category asked for.
        name: String,
        /// The sprite module.
        module: String,
        /// The closest category names, best first (at most three).
        nearest: Vec<String>,
    },
    /// (`atlas_sprite`) A sprite grid with no cell.
    Grid(SpriteGrid),
}

impl fmt::Display for AnimkitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnimkitError::NotPlaying(e) => write!(f, "entity {e} plays no animkit sprite (yet)"),
            AnimkitError::Module(e) => e.fmt(f),
            AnimkitError::State(e) => e.fmt(f),
            AnimkitError::Load(message) => f.write_str(message),
            AnimkitError::Category { name, module, nearest } => {
                write!(f, "no sprite category `{name}` in sprite module `{module}`")?;
                match nearest.as_slice() {
                    [] => Ok(()),
                    [one] => write!(f, "; did you mean `{one}`?"),
                    more => write!(f, "; did you mean one of `{}`?", more.join("`, `")),
                }
            }
            AnimkitError::Grid(g) => write!(
                f,
                "a sprite grid of {} × {} cells of {} × {} pixels has no cell",
                g.columns, g.rows, g.tile_size.x, g.tile_size.y
            ),
        }
    }
}

impl std::error::Error for AnimkitError {}

/// Where an entity's instance lives: batch and index in it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
struct AnimkitSlot {
    batch: u32,
    instance: u32,
}

/// One sprite module of one bundle asset and every entity playing it.
#[derive(Debug)]
struct Batch {
    asset: AssetId<AnimkitBundle>,
    name: String,
    batch: AnimationBatch,
    /// Per instance, its entity (`None`: free, paused).
    owners: Vec<Option<Entity>>,
    free: Vec<u32>,
}

/// The animations of every [`AnimkitSprite`]: one shared batch per
/// (bundle asset, sprite module). Set states and speeds, and read states,
/// frames and event names here (`ResMut<Animkit>` / `Res<Animkit>`).
#[derive(Resource, Debug, Default)]
pub struct Animkit {
    batches: Vec<Batch>,
    slots: bevy::platform::collections::HashMap<Entity, AnimkitSlot>,
}

impl Animkit {
    fn slot(&self, entity: Entity) -> Result<(&Batch, u32), AnimkitError> {
        let s = self.slots.get(&entity).ok_or(AnimkitError::NotPlaying(entity))?;
        Ok((&self.batches[s.batch as usize], s.instance))
    }

    /// A read of `entity`'s instance; `NotPlaying` if the batch has no
    /// such instance (a slot always names one).
    fn read<'a, T>(&'a self, entity: Entity, f: impl FnOnce(&'a Batch, u32) -> Option<T>) -> Result<T, AnimkitError> {
        let (b, i) = self.slot(entity)?;
        f(b, i).ok_or(AnimkitError::NotPlaying(entity))
    }

    fn slot_mut(&mut self, entity: Entity) -> Result<(&mut Batch, u32), AnimkitError> {
        let s = *self.slots.get(&entity).ok_or(AnimkitError::NotPlaying(entity))?;
        Ok((&mut self.batches[s.batch as usize], s.instance))
    }

    /// The sprite module `entity` plays (for typed [`State`] and [`Event`]
    /// handles, found once by name).
    pub fn module(&self, entity: Entity) -> Result<&SpriteModule, AnimkitError> {
        self.slot(entity).map(|(b, _)| b.batch.module())
    }

    /// Switches `entity` to state `name` from the next tick; a no-op when
    /// it is in that state already. An unknown name is
    /// [`AnimkitError::State`] (with the nearest names) and changes nothing.
    pub fn set_state(&mut self, entity: Entity, name: &str) -> Result<(), AnimkitError> {
        let (b, i) = self.slot_mut(entity)?;
        let state = b.batch.module().state(name).map_err(AnimkitError::State)?;
        b.batch.set_state(i, state);
        Ok(())
    }

    /// [`Animkit::set_state`] with a handle of the entity's module.
    pub fn set_state_to(&mut self, entity: Entity, state: State) -> Result<(), AnimkitError> {
        let (b, i) = self.slot_mut(entity)?;
        b.batch.set_state(i, state);
        Ok(())
    }

    /// Starts `entity` over in state `name` from the next tick (also when
    /// it is in that state already).
    pub fn restart(&mut self, entity: Entity, name: &str) -> Result<(), AnimkitError> {
        let (b, i) = self.slot_mut(entity)?;
        let state = b.batch.module().state(name).map_err(AnimkitError::State)?;
        b.batch.restart(i, state);
        Ok(())
    }

    /// Sets `entity`'s animation speed from the next tick on.
    pub fn set_speed(&mut self, entity: Entity, speed: Speed) -> Result<(), AnimkitError> {
        let (b, i) = self.slot_mut(entity)?;
        b.batch.set_speed(i, speed);
        Ok(())
    }

    /// `entity`'s current state (a state set by [`Animkit::set_state`]
    /// reads at once; [`AnimkitFrame`] shows it from the next tick).
    pub fn state(&self, entity: Entity) -> Result<State, AnimkitError> {
        self.read(entity, |b, i| b.batch.state(i))
    }

    /// The name of `entity`'s current state.
    pub fn state_name(&self, entity: Entity) -> Result<&str, AnimkitError> {
        self.read(entity, |b, i| b.batch.state(i).map(|s| b.batch.module().state_name(s)))
    }

    /// The sprite category of `entity`'s current state (its `[alias]` or
    /// its own name): which sheet to draw its frame from.
    pub fn category(&self, entity: Entity) -> Result<&str, AnimkitError> {
        self.read(entity, |b, i| b.batch.state(i).map(|s| b.batch.module().category(s)))
    }

    /// `entity`'s frame index (what [`AnimkitFrame`] holds after a tick).
    pub fn frame(&self, entity: Entity) -> Result<u32, AnimkitError> {
        self.read(entity, |b, i| b.batch.frame(i))
    }

    /// Animation ticks since `entity` last entered its state.
    pub fn time_in_state(&self, entity: Entity) -> Result<u64, AnimkitError> {
        self.read(entity, |b, i| b.batch.time_in_state(i))
    }

    /// The event `name` of `entity`'s sprite module (one its code fires),
    /// to compare [`AnimkitEvent`]s with by value; `None` for another
    /// name.
    pub fn event(&self, entity: Entity, name: &str) -> Result<Option<Event>, AnimkitError> {
        self.slot(entity).map(|(b, _)| b.batch.module().event(name).ok())
    }

    /// The name of an event (as the program that fired it names it, while
    /// that program plays: a hot reload renumbers names).
    pub fn event_name(&self, event: &AnimkitEvent) -> &str {
        self.batches.get(event.batch as usize).map_or("", |b| b.batch.module().event_name(event.event))
    }

    /// Number of entities playing.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no entity plays.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Gives `entity` an instance in the batch of its bundle's module.
    fn attach(
        &mut self,
        entity: Entity,
        sprite: &AnimkitSprite,
        asset: AssetId<AnimkitBundle>,
        bundle: &VmBundle,
    ) -> Result<AnimkitSlot, AnimkitError> {
        let index = match self.batches.iter().position(|b| b.asset == asset && b.name == sprite.module) {
            Some(i) => i,
            None => {
                let module = bundle.sprite(&sprite.module).map_err(AnimkitError::Module)?;
                self.batches.push(Batch {
                    asset,
                    name: sprite.module.clone(),
                    batch: module.batch(),
                    owners: Vec::new(),
                    free: Vec::new(),
                });
                self.batches.len() - 1
            }
        };
        let b = &mut self.batches[index];
        let state = b.batch.module().state(&sprite.state).map_err(AnimkitError::State)?;
        let instance = match b.free.pop() {
            Some(i) => {
                b.batch.restart_at(i, state, sprite.phase);
                b.batch.set_speed(i, Speed::ONE);
                b.owners[i as usize] = Some(entity);
                i
            }
            None => {
                b.owners.push(Some(entity));
                b.batch.spawn_at(state, sprite.phase)
            }
        };
        let slot = AnimkitSlot { batch: index as u32, instance };
        self.slots.insert(entity, slot);
        Ok(slot)
    }

    /// Frees `entity`'s instance (paused until an entity reuses it).
    fn detach(&mut self, entity: Entity) {
        if let Some(s) = self.slots.remove(&entity)
            && let Some(b) = self.batches.get_mut(s.batch as usize)
        {
            b.batch.set_speed(s.instance, Speed::PAUSED);
            if let Some(o) = b.owners.get_mut(s.instance as usize) {
                *o = None;
            }
            b.free.push(s.instance);
        }
    }
}

fn on_remove_sprite(mut world: DeferredWorld, ctx: HookContext) {
    if let Some(mut animkit) = world.get_resource_mut::<Animkit>() {
        animkit.detach(ctx.entity);
    }
    if let Ok(mut e) = world.commands().get_entity(ctx.entity) {
        e.try_remove::<(AnimkitSlot, AnimkitFailed)>();
    }
}

/// Moves the entities of a changed bundle onto its new program.
fn reload(
    mut changes: MessageReader<AssetEvent<AnimkitBundle>>,
    bundles: Res<Assets<AnimkitBundle>>,
    settings: Res<AnimkitSettings>,
    mut animkit: ResMut<Animkit>,
    mut out: MessageWriter<AnimkitReloaded>,
) {
    for change in changes.read() {
        let AssetEvent::Modified { id } = *change else { continue };
        let Some(asset) = bundles.get(id) else { continue };
        for b in animkit.batches.iter_mut().filter(|b| b.asset == id) {
            let result = match asset.bundle.sprite(&b.name) {
                Ok(m) if m.module_hash() == b.batch.module().module_hash() => continue,
                Ok(m) => {
                    let fallback = match &settings.reload_fallback {
                        ReloadFallback::FirstState => State::default(),
                        ReloadFallback::State(name) => m.state(name).unwrap_or_default(),
                    };
                    Ok(b.batch.reload(&m, fallback))
                }
                Err(e) => Err(e),
            };
            out.write(AnimkitReloaded { bundle: id, module: b.name.clone(), result });
        }
    }
}

/// Sprites not started yet (nor failed to).
type Waiting = (Without<AnimkitSlot>, Without<AnimkitFailed>);

/// Starts the sprites whose bundle is loaded; fails those whose bundle
/// failed to load.
fn attach(
    mut commands: Commands,
    bundles: Res<Assets<AnimkitBundle>>,
    server: Option<Res<AssetServer>>,
    mut animkit: ResMut<Animkit>,
    waiting: Query<(Entity, &AnimkitSprite), Waiting>,
) {
    for (entity, sprite) in &waiting {
        let Some(asset) = bundles.get(&sprite.bundle) else {
            // Not loaded (yet): failed for good, or still waiting.
            if let Some(LoadState::Failed(err)) = server.as_ref().and_then(|s| s.get_load_state(&sprite.bundle)) {
                commands.entity(entity).try_insert(AnimkitFailed(AnimkitError::Load(err.to_string())));
            }
            continue;
        };
        match animkit.attach(entity, sprite, sprite.bundle.id(), &asset.bundle) {
            Ok(slot) => commands.entity(entity).try_insert(slot),
            Err(e) => commands.entity(entity).try_insert(AnimkitFailed(e)),
        };
    }
}

/// Applies the state that a changed [`AnimkitSprite`] requests (a no-op
/// for an entity in that state already, such as one that started this
/// tick).
fn apply_requests(
    mut commands: Commands,
    mut animkit: ResMut<Animkit>,
    changed: Query<(Entity, &AnimkitSprite, &AnimkitSlot, Has<AnimkitFailed>), Changed<AnimkitSprite>>,
) {
    for (entity, sprite, slot, failed) in &changed {
        let Some(b) = animkit.batches.get_mut(slot.batch as usize) else { continue };
        match b.batch.module().state(&sprite.state) {
            Ok(state) => {
                b.batch.set_state(slot.instance, state);
                if failed {
                    commands.entity(entity).try_remove::<AnimkitFailed>();
                }
            }
            Err(e) => {
                commands.entity(entity).try_insert(AnimkitFailed(AnimkitError::State(e)));
            }
        }
    }
}

/// One tick of every batch; its events as messages.
fn tick(mut animkit: ResMut<Animkit>, mut out: MessageWriter<AnimkitEvent>) {
    let mut buf = [InstanceEvent::default(); 64];
    for (index, b) in animkit.batches.iter_mut().enumerate() {
        if b.free.len() == b.owners.len() {
            continue;
        }
        b.batch.tick();
        loop {
            let n = b.batch.drain_events(&mut buf);
            for e in &buf[..n] {
                // An event's instance is one of the batch's.
                if let (Some(Some(entity)), Some(frame)) =
                    (b.owners.get(e.instance as usize), b.batch.frame(e.instance))
                {
                    out.write(AnimkitEvent { entity: *entity, event: e.event, frame, batch: index as u32 });
                }
            }
            if n < buf.len() {
                break;
            }
        }
    }
}

/// Copies each entity's frame and state into its [`AnimkitFrame`].
fn write_frames(animkit: Res<Animkit>, mut frames: Query<(&AnimkitSlot, &mut AnimkitFrame), With<AnimkitSprite>>) {
    for (slot, mut frame) in &mut frames {
        let Some(b) = animkit.batches.get(slot.batch as usize) else { continue };
        if let (Some(index), Some(state)) = (b.batch.frame(slot.instance), b.batch.state(slot.instance)) {
            frame.set_if_neq(AnimkitFrame { index, state });
        }
    }
}
