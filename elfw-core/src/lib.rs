//! elfw-core: the CUDA device linker as a library.
//!
//! Contract: inputs in (paths or bytes), one executable (or relocatable) device image out, with
//! diagnostics returned as values. The library never prints and never exits.
//!
//! The entry point is [`Linker`]: give it a target, options and inputs (paths or bytes:
//! cubins, host objects, fatbins, archives), call [`Linker::link`], and read the image and the
//! diagnostics from the [`Linked`] result.
//!
//! ```
//! use elfw_core::{Linker, target::Target};
//!
//! // A cubin compiled by `nvcc -dc -cubin -arch=sm_90` (shipped with elfw's test corpus).
//! let cubin = include_bytes!(concat!(
//!     env!("CARGO_MANIFEST_DIR"),
//!     "/../tests/corpus/sm90_single_kernel/k.cubin"
//! ));
//! let linked = Linker::new(Target::parse("sm_90").unwrap())
//!     .input_bytes("k.cubin", cubin.to_vec())
//!     .link();
//! assert_eq!(linked.status(), 0, "{:?}", linked.diagnostics);
//! let image = linked.image.expect("an image");
//! assert_eq!(&image[..4], b"\x7fELF");
//!
//! // Errors come back as values, with nvlink's wording and the file they are about.
//! let failed = Linker::new(Target::parse("sm_80").unwrap())
//!     .input_bytes("k.cubin", cubin.to_vec())
//!     .link();
//! assert_eq!(failed.status(), 1);
//! assert!(failed.image.is_none());
//! let fatal = &failed.diagnostics[0];
//! assert_eq!(fatal.message, "Input file 'k.cubin' arch does not match target 'sm_80'");
//! assert_eq!(fatal.file.as_deref(), Some("k.cubin"));
//! ```

#![warn(missing_docs)]

pub mod arena;
pub mod cmp;
pub mod diag;
pub mod dump;
pub mod elf;
pub mod input;
pub mod link;
pub mod linker;
pub mod lto;
pub mod mercury;
pub mod nvinfo;
pub mod target;

/// A file of a recorded corpus case (`tests/corpus/<case>/<file>`), for unit tests that check
/// a pass against nvlink's images.
#[cfg(test)]
pub(crate) fn corpus_file(case: &str, file: &str) -> Vec<u8> {
    let p = format!(
        "{}/../tests/corpus/{case}/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

pub use linker::{Linked, Linker, LinkerInput};
