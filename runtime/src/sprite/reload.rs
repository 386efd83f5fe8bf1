//! `animvm --watch` for sprites: when the file is saved, it is compiled
//! again (or, for a bundle, loaded again) and the running instance moves
//! onto the new build keeping its state, frame and ticks into the frame
//! (`SpriteInstance::reload`); a build that fails prints its diagnostics
//! and the old program keeps running.

use crate::Error;
use crate::host::watch::ProgramWatch;
use animkit_vm::engine::sprite::{ReloadReport, SpriteInstance, Sprites};
use std::io::Write;
use std::sync::Arc;

/// Watches the file a sprite module came from.
pub struct Reloader {
    watch: ProgramWatch,
}

impl Reloader {
    /// Watches `file`, which is running now; a file that cannot be read
    /// is an error.
    ///
    /// ```
    /// use animkit_runtime::sprite::reload::Reloader;
    /// let dir = tempfile::tempdir().unwrap();
    /// let p = dir.path().join("hero.anim");
    /// std::fs::write(&p, "Idle: 5, _loop\n").unwrap();
    /// let r = Reloader::new(p.to_str().unwrap()).unwrap();
    /// assert!(r.file().ends_with("hero.anim"));
    /// assert!(Reloader::new(dir.path().join("gone.anim").to_str().unwrap()).is_err());
    /// ```
    pub fn new(file: &str) -> Result<Reloader, crate::Error> {
        Ok(Reloader { watch: ProgramWatch::new(file)? })
    }

    /// A new build of `current`'s module if the file was saved since the
    /// last call and builds; its warnings, or its errors, go to `stderr`.
    ///
    /// ```
    /// use animkit_runtime::sprite::reload::Reloader;
    /// let dir = tempfile::tempdir().unwrap();
    /// let p = dir.path().join("hero.anim");
    /// std::fs::write(&p, "Idle: 5, _loop\n").unwrap();
    /// let file = p.to_str().unwrap();
    /// let old = animkit_vm::engine::sprite::Sprites::first(std::sync::Arc::new(animkit_runtime::load::load_program(file).unwrap())).unwrap();
    /// let mut r = Reloader::new(file).unwrap();
    /// std::fs::write(&p, "Idle: 5, _wait\n").unwrap();
    /// let (mut new, mut err) = (None, Vec::new());
    /// for _ in 0..200 {
    ///     new = new.or_else(|| r.poll(&old, &mut err));
    ///     if new.is_some() { break }
    ///     std::thread::sleep(std::time::Duration::from_millis(10));
    /// }
    /// assert_ne!(new.unwrap().module_hash(), old.module_hash());
    /// ```
    pub fn poll(&mut self, current: &Sprites, stderr: &mut dyn Write) -> Option<Sprites> {
        let program = self.watch.poll(stderr)?;
        match current.reload(Arc::new(program)) {
            Ok(new) => Some(new),
            Err(e) => {
                self.watch.refused(&Error::Module(e.to_string()), stderr);
                None
            }
        }
    }

    /// The watched file, as given to [`Reloader::new`] (see its example).
    pub fn file(&self) -> &str {
        self.watch.file()
    }
}

/// Moves `inst` onto `new` and says so on `stderr`, naming the states
/// that vanished.
pub fn reload_instance(
    inst: &mut SpriteInstance,
    new: &Sprites,
    file: &str,
    stderr: &mut dyn Write,
) -> Option<ReloadReport> {
    match inst.reload(new, None) {
        Ok(report) => {
            let _ = writeln!(stderr, "{}", describe(file, &report));
            Some(report)
        }
        Err(e) => {
            let _ = writeln!(stderr, "animvm: cannot reload `{file}`: {e}");
            None
        }
    }
}

/// The line `animvm` prints after a reload.
///
/// ```
/// use animkit_vm::engine::sprite::ReloadReport;
/// let r = ReloadReport { vanished: vec!["Run".into()], fallback: "Idle".into(), fell_back: 1, ..Default::default() };
/// assert_eq!(animkit_runtime::sprite::reload::describe("hero.anim", &r),
///     "animvm: reloaded `hero.anim` (state Run is gone: restarted in Idle)");
/// assert_eq!(animkit_runtime::sprite::reload::describe("hero.anim", &ReloadReport::default()), "animvm: reloaded `hero.anim`");
/// ```
pub fn describe(file: &str, report: &ReloadReport) -> String {
    let mut line = format!("animvm: reloaded `{file}`");
    if report.fell_back > 0 {
        let s = if report.vanished.len() == 1 { "state" } else { "states" };
        let verb = if report.vanished.len() == 1 { "is" } else { "are" };
        line += &format!(" ({s} {} {verb} gone: restarted in {})", report.vanished.join(", "), report.fallback);
    }
    line
}
