//! A SLAP scene drawn in 3D: Polly birds on a lit, checkered stage seen
//! through the scene's camera. The simulation is the vm crate's
//! ([`animkit_vm::engine::slap::SceneSim`]); these modules only observe and draw it.
//!
//! | module | what |
//! | --- | --- |
//! | [`polly`] | Polly's meshes, generated in code, one per moving part at each level of detail |
//! | [`pose`] | an actor's state and pose at a frame to one instance per part |
//! | [`camera`] | the scene camera as a projection; projecting points to pixels; letterboxing |
//! | [`view`] | [`SceneView`](view::SceneView): a frame as one 3D pass, one draw call per part and level of detail in use, actors out of view culled |
//! | [`log`] | [`ErrorLog`]: a scene's runtime errors as one line each, [`MAX_FRAME`], [`DEFAULT_FPS`] |

pub mod camera;
pub mod log;
pub mod polly;
pub mod pose;
pub mod view;

pub use log::{DEFAULT_FPS, ErrorLog, MAX_FRAME};
