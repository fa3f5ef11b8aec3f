//! elfw-reloc: the CUDA relocation types nvlink 13.5 knows, and the engine that applies them.
//!
//! Contract:
//! - [`table`] holds every `R_CUDA_*` (0..=116) and `R_MERCURY_*` (0x10000..=0x10040) type as
//!   data: number, name, resolver class, value kind and the bit fields it writes.
//!   [`name`] and [`lookup`] map an ELF `r_type` to it.
//! - Nothing here reads ELF files, prints or panics; bad input gives a typed error.

#![warn(missing_docs)]

pub mod table;

pub use table::{
    lookup, name, number, types, Family, Field, ImplicitAddend, RelocType, Resolver, Source,
    ValueKind,
};
