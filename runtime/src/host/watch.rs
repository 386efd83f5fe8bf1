//! `animvm --watch`: noticing that the file being run was saved again.
//!
//! The file's folder is watched (not the file: editors often save by
//! writing a new file and renaming it over the old one, which ends a watch
//! on the file itself), events about other files are ignored, and a change
//! counts only when the file's bytes differ from the last ones seen, so a
//! save that changes nothing, or a burst of events for one save, reloads
//! once at most. [`ProgramWatch`] builds each change as `animvm` loads a
//! file (a bundle, a source compiled on the fly, an Aseprite export); each
//! language's host decides what a new build means for what it runs
//! (sprites: `sprite::reload`; Animator scripts start over).
//!
//! No save stops what runs. A save that cannot be used keeps the previous
//! program running and says why on standard error, once per reason: a file
//! that cannot be read (deleted, a dangling link, no permission), one over
//! the size limit (a source over `MAX_SOURCE_BYTES`, a bundle over its
//! largest payload: checked before it is read, so a link to a huge sparse
//! file costs nothing), or one that does not build. An empty file is not
//! taken for a save at all: editors and `: > file` truncate a file before
//! writing it, and the write that follows is the save; so the previous
//! program keeps running (with a note on standard error) until the file
//! has bytes again. The next save that builds is picked up whatever came
//! before it.

use super::POLL;
use crate::Error;
use crate::load::program_from_bytes_with;
use animkit_vm::Program;
use animkit_vm::engine::verify::Verified;
use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

/// A watched file.
pub struct FileWatch {
    path: PathBuf,
    name: OsString,
    events: Receiver<notify::Result<Event>>,
    /// Dropping it ends the watch.
    _watcher: RecommendedWatcher,
    last: Vec<u8>,
    /// The last reason a change could not be used, so that a burst of
    /// events for one bad save says it once.
    refusal: Option<Error>,
}

impl FileWatch {
    /// Watches `path`, whose current contents are `bytes` (what is
    /// running).
    ///
    /// ```
    /// use animkit_runtime::host::watch::FileWatch;
    /// let dir = tempfile::tempdir().unwrap();
    /// let p = dir.path().join("hero.anim");
    /// std::fs::write(&p, "Idle: 5, _loop\n").unwrap();
    /// let mut w = FileWatch::new(p.to_str().unwrap(), b"Idle: 5, _loop\n".to_vec()).unwrap();
    /// assert_eq!(w.changed(), None);
    /// std::fs::write(&p, "Idle: 6, _loop\n").unwrap();
    /// let mut got = None;
    /// for _ in 0..200 {
    ///     got = got.or_else(|| w.changed());
    ///     if got.is_some() { break }
    ///     std::thread::sleep(std::time::Duration::from_millis(10));
    /// }
    /// assert_eq!(got.unwrap().unwrap(), b"Idle: 6, _loop\n");
    /// ```
    pub fn new(path: &str, bytes: Vec<u8>) -> Result<FileWatch, Error> {
        let path = PathBuf::from(path);
        let name = path
            .file_name()
            .map(OsString::from)
            .ok_or_else(|| Error::Usage(format!("--watch: `{}` is not a file", path.display())))?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let (tx, events) = channel();
        let mut watcher = notify::recommended_watcher(tx).map_err(|e| Error::Host(format!("--watch: {e}")))?;
        watcher
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(|e| Error::Host(format!("--watch: cannot watch `{}`: {e}", dir.display())))?;
        Ok(FileWatch { path, name, events, _watcher: watcher, last: bytes, refusal: None })
    }

    /// What the file holds now, if it changed since the last call (or
    /// since it was watched): `Ok` with its bytes, or `Err` with why it
    /// cannot be used (it cannot be read, it is over the size limit, it is
    /// empty), each reason once until the file changes again. Never blocks.
    pub fn changed(&mut self) -> Option<Result<Vec<u8>, Error>> {
        let mut touched = false;
        while let Ok(event) = self.events.try_recv() {
            if let Ok(event) = event {
                touched |= event.paths.iter().any(|p| p.file_name() == Some(&self.name));
            }
        }
        if !touched {
            return None;
        }
        let read = match crate::load::read_input(&self.path.to_string_lossy()) {
            Ok(bytes) if bytes.is_empty() => Err(Error::Host(format!(
                "`{}` is empty (a save still being written?): waiting for the next save",
                self.path.display()
            ))),
            // The loader's own wording (`error: ...`), shown as it is.
            read => read.map_err(Error::Load),
        };
        match read {
            Ok(bytes) if bytes == self.last => {
                self.refusal = None;
                None
            }
            Ok(bytes) => {
                self.refusal = None;
                self.last = bytes.clone();
                Some(Ok(bytes))
            }
            Err(message) if self.refusal.as_ref() == Some(&message) => None,
            Err(message) => {
                self.refusal = Some(message.clone());
                Some(Err(message))
            }
        }
    }

    /// The watched path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A watched file that `animvm` is running: each save, built.
pub struct ProgramWatch {
    watch: FileWatch,
    file: String,
    options: animkit_compiler::Options,
    /// When [`poll_due`](ProgramWatch::poll_due) looks next.
    next_poll: Instant,
}

impl ProgramWatch {
    /// Watches `file`, which is running now (its bytes are read again to
    /// know what a change is); a file that cannot be read is an error.
    ///
    /// ```
    /// use animkit_runtime::host::watch::ProgramWatch;
    /// let dir = tempfile::tempdir().unwrap();
    /// let p = dir.path().join("story.slap");
    /// std::fs::write(&p, "time 3\n").unwrap();
    /// let w = ProgramWatch::new(p.to_str().unwrap()).unwrap();
    /// assert!(w.file().ends_with("story.slap"));
    /// let gone = ProgramWatch::new(dir.path().join("gone.slap").to_str().unwrap());
    /// assert!(gone.err().unwrap().report().starts_with("animvm: --watch: cannot read"));
    /// ```
    pub fn new(file: &str) -> Result<ProgramWatch, Error> {
        let bytes = crate::load::read_input(file)
            .map_err(|e| Error::Usage(format!("--watch: {}", e.trim_start_matches("error: ").trim_end())))?;
        Ok(ProgramWatch {
            watch: FileWatch::new(file, bytes)?,
            file: file.to_string(),
            options: animkit_compiler::Options::default(),
            next_poll: Instant::now(),
        })
    }

    /// Builds each save in spec-only mode (`animvm --strict --watch`): a
    /// SLAP source that uses an extension does not build.
    pub fn strict(mut self, strict: bool) -> ProgramWatch {
        self.options.strict = strict;
        self
    }

    /// The new build, if the file was saved since the last call and
    /// builds. Its warnings go to `stderr`; so do a failed build's
    /// diagnostics, followed by a line saying the previous program keeps
    /// running. Never blocks.
    ///
    /// ```
    /// use animkit_runtime::host::watch::ProgramWatch;
    /// let dir = tempfile::tempdir().unwrap();
    /// let p = dir.path().join("menu.draw");
    /// std::fs::write(&p, "echo one\n").unwrap();
    /// let mut w = ProgramWatch::new(p.to_str().unwrap()).unwrap();
    /// std::fs::write(&p, "echo \"two\n").unwrap();
    /// let mut err = Vec::new();
    /// for _ in 0..500 {
    ///     assert!(w.poll(&mut err).is_none());
    ///     if !err.is_empty() { break }
    ///     std::thread::sleep(std::time::Duration::from_millis(10));
    /// }
    /// assert!(String::from_utf8(err).unwrap().ends_with("did not build: the previous program keeps running\n"));
    /// ```
    pub fn poll(&mut self, stderr: &mut dyn Write) -> Option<Verified<Program>> {
        let bytes = match self.watch.changed()? {
            Ok(bytes) => bytes,
            Err(e) => {
                let _ = write!(stderr, "{}", e.report());
                let _ = writeln!(stderr, "animvm: the previous program keeps running");
                return None;
            }
        };
        match program_from_bytes_with(&self.file, bytes, stderr, &self.options) {
            Ok(program) => Some(program),
            Err(text) => {
                self.refused(&Error::Load(text), stderr);
                None
            }
        }
    }

    /// [`poll`](Self::poll), if [`POLL`] has passed since it last looked
    /// this way (at once the first time): a window host calls it at each
    /// wake-up, [`next_poll`](Self::next_poll) among its deadlines.
    pub fn poll_due(&mut self, stderr: &mut dyn Write) -> Option<Verified<Program>> {
        let now = Instant::now();
        if now < self.next_poll {
            return None;
        }
        self.next_poll = now + POLL;
        self.poll(stderr)
    }

    /// When [`poll_due`](Self::poll_due) looks next.
    pub fn next_poll(&self) -> Instant {
        self.next_poll
    }

    /// Reports a build the host cannot use: why (as `animvm` reports an
    /// [`Error`]), then that the previous program keeps running.
    ///
    /// ```
    /// use animkit_runtime::host::watch::ProgramWatch;
    /// let dir = tempfile::tempdir().unwrap();
    /// let p = dir.path().join("s.slap");
    /// std::fs::write(&p, "time 3\n").unwrap();
    /// let w = ProgramWatch::new(p.to_str().unwrap()).unwrap();
    /// let mut err = Vec::new();
    /// w.refused(&animkit_runtime::Error::Module("the new build has no SLAP scene".into()), &mut err);
    /// let text = String::from_utf8(err).unwrap();
    /// assert!(text.starts_with("animvm: the new build has no SLAP scene\nanimvm: `"));
    /// assert!(text.ends_with("s.slap` did not build: the previous program keeps running\n"));
    /// ```
    pub fn refused(&self, error: &Error, stderr: &mut dyn Write) {
        let _ = write!(stderr, "{}", error.report());
        let _ = writeln!(stderr, "animvm: `{}` did not build: the previous program keeps running", self.file);
    }

    /// The watched file, as given to [`ProgramWatch::new`] (see its
    /// example).
    pub fn file(&self) -> &str {
        &self.file
    }
}
