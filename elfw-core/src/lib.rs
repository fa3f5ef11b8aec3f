//! elfw-core: the CUDA device linker as a library.
//!
//! Contract: inputs in (paths or bytes), one executable (or relocatable) device image out, with
//! diagnostics returned as values. The library never prints and never exits.

#![warn(missing_docs)]

pub mod arena;
pub mod cmp;
pub mod diag;
pub mod dump;
pub mod elf;
pub mod input;
pub mod link;
pub mod nvinfo;
pub mod target;
