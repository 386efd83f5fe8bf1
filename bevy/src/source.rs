//! (Feature `source`.) The asset loader of animkit sources: `.anim`,
//! `.slap` and `.draw` files compiled on load with `animkit-compiler`
//! into the [`AnimkitBundle`] asset that a `.animb` file loads into, so
//! that sprites, hot reload and [`AnimkitFailed`](crate::AnimkitFailed)
//! work the same for both.

use crate::AnimkitBundle;
use animkit_compiler::files::ReadError;
use animkit_compiler::{CompileError, Options, Source, compile_with_warnings};
use animkit_vm::engine::limits::MAX_SOURCE_BYTES;
use animkit_vm::engine::program::Language;
use animkit_vm::game::{Bundle as VmBundle, OpenError};
use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, AsyncReadExt, LoadContext};
use bevy::reflect::TypePath;
use std::fmt;

/// Every language's source extension (`anim`, `draw`, `slap`), from the
/// vm's language table.
const EXTENSIONS: [&str; Language::ALL.len()] = {
    let mut out = [""; Language::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = Language::ALL[i].extension();
        i += 1;
    }
    out
};

/// The asset loader of animkit sources (files ending in `.anim`, `.draw`
/// or `.slap`; feature `source`): compiles the text as `animc` does (its
/// default options; the module is named after the file stem) into an
/// [`AnimkitBundle`]. A source that does not compile fails to load with
/// `animc`'s diagnostics ([`AnimkitSourceError`]); its warnings are logged
/// (`warn!`) and it loads.
///
/// Its type path (Bevy's name of the loader in a load error) is its public
/// one, `animkit_bevy::AnimkitSourceLoader`.
#[derive(Clone, Copy, Debug, Default, TypePath)]
#[type_path = "animkit_bevy"]
pub struct AnimkitSourceLoader;

/// Why an animkit source asset did not load: each message is the one
/// `animc` prints for that file (without its last line end).
#[derive(Debug)]
pub enum AnimkitSourceError {
    /// The file could not be read, is larger than
    /// [`MAX_SOURCE_BYTES`](animkit_vm::engine::limits::MAX_SOURCE_BYTES), or is
    /// not UTF-8 text.
    Read(String),
    /// The source does not compile: every diagnostic as `animc` renders
    /// it (at most 100 errors, then how many were left out), and its
    /// closing `could not compile` line.
    Compile {
        /// Number of errors.
        errors: usize,
        /// `animc`'s standard error.
        message: String,
    },
    /// The compiled program did not open as a bundle (a compiler bug).
    Open {
        /// The asset path.
        path: String,
        /// Why.
        error: OpenError,
    },
}

impl fmt::Display for AnimkitSourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnimkitSourceError::Read(m) | AnimkitSourceError::Compile { message: m, .. } => {
                f.write_str(m.strip_suffix('\n').unwrap_or(m))
            }
            AnimkitSourceError::Open { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

impl std::error::Error for AnimkitSourceError {}

/// A failed compilation as `animc` prints it: the diagnostics and the
/// closing line.
fn compile_error(e: &CompileError) -> AnimkitSourceError {
    let errors = e.count();
    let message =
        format!("{e}error: could not compile due to {errors} previous error{}\n", if errors == 1 { "" } else { "s" });
    AnimkitSourceError::Compile { errors, message }
}

impl AssetLoader for AnimkitSourceLoader {
    type Asset = AnimkitBundle;
    type Settings = ();
    type Error = AnimkitSourceError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<AnimkitBundle, AnimkitSourceError> {
        // The path as `animc` would be given it from the asset folder (no
        // source name, no label): diagnostics and the module name use it.
        let path = load_context.path().path().to_string_lossy().into_owned();
        let what = format!("`{path}`");
        // At most one byte past the limit is read, whatever the reader holds.
        let mut bytes = Vec::new();
        (&mut *reader)
            .take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut bytes)
            .await
            .map_err(|e| AnimkitSourceError::Read(ReadError::Io(e).message(&what)))?;
        if bytes.len() as u64 > MAX_SOURCE_BYTES {
            let e = ReadError::TooBig { size: None, limit: MAX_SOURCE_BYTES };
            return Err(AnimkitSourceError::Read(e.message(&what)));
        }
        let text = String::from_utf8(bytes)
            .map_err(|e| AnimkitSourceError::Read(format!("error: {what} is not UTF-8 text: {e}\n")))?;
        let source = Source::new(path.clone(), text);
        let compiled =
            compile_with_warnings(std::slice::from_ref(&source), &Options::default()).map_err(|e| compile_error(&e))?;
        drop(source);
        let warnings = compiled.render_warnings();
        if !warnings.is_empty() {
            tracing::warn!("{}", warnings.strip_suffix('\n').unwrap_or(&warnings));
        }
        // Through the bundle format, as `animc` writes it and the `.animb`
        // loader reads it: the same asset either way.
        let bytes = animkit_vm::engine::codec::encode(&compiled.program);
        let bundle = VmBundle::from_bytes(&bytes).map_err(|error| AnimkitSourceError::Open { path, error })?;
        Ok(AnimkitBundle::new(bundle))
    }

    fn extensions(&self) -> &[&str] {
        &EXTENSIONS
    }
}
