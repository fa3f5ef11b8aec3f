//! elfw-reloc: the CUDA relocation types nvlink 13.5 knows, and the engine that applies them.
//!
//! # Contract
//!
//! - [`table`] holds every `R_CUDA_*` (0..=116) and `R_MERCURY_*` (0x10000..=0x10040) type as
//!   data: number, name, resolver class, value kind and the bit fields it writes. [`name`] and
//!   [`lookup`] map an ELF `r_type` to it.
//! - [`apply`] writes a finished relocation value (`S + A`, or `S + A - P` for PC-relative
//!   types) into the fields of one relocation at an offset of a section's bytes; bits outside
//!   the fields are never touched. [`implicit_addend`] reads back what the fields hold, which is
//!   the addend of an `SHT_REL` relocation. [`bits`] is the underlying bit-field engine for 64-
//!   and 128-bit little-endian instruction words (a fast version and a bit-by-bit reference).
//! - [`disposition`] says what nvlink does with a relocation in a final link: apply it now,
//!   keep it for the driver (bytes untouched, type [`driver_type`]), or drop it.
//! - Nothing here reads ELF files, prints, or panics: bad input gives a [`RelocError`], and a
//!   failed call writes nothing.
//!
//! The field geometry of every type the tests could make nvcc/ptxas emit was checked byte for
//! byte against nvlink 13.5.37 output, or through nvdisasm for the types nvlink always leaves to
//! the driver; the rest comes from the nvopen-tools wiki's descriptor tables (`EVIDENCE.md`
//! lists which is which).

#![warn(missing_docs)]

pub mod bits;
pub mod table;

mod apply;
mod policy;

pub use apply::{apply, apply_with_bank, bank, field_mask, implicit_addend};
pub use policy::{disposition, driver_type, Disposition, Target};
pub use table::{
    lookup, name, number, types, Family, Field, ImplicitAddend, RelocType, Resolver, Source,
    ValueKind,
};

use std::fmt;

/// Why a relocation could not be applied or read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelocError {
    /// The type number is not one nvlink 13.5 applies (unknown, or a `*_NONE_LAST` bound).
    /// nvlink: `Internal error: sass rtype out of range`.
    UnknownType {
        /// The offending `r_type`.
        r_type: u32,
    },
    /// The offset is at or past the end of the section.
    /// nvlink: `Internal error: reloc address not found` (`Internal error: relocation is past
    /// end of offset` for `R_CUDA_NONE`).
    OffsetPastEnd {
        /// The relocation type.
        r_type: u32,
        /// The relocation offset.
        offset: u64,
        /// The section size.
        len: u64,
    },
    /// The offset is inside the section but the fields run past its end. (nvlink accepts this
    /// and writes outside the section's data, which never reaches the output; elfw refuses.)
    WordPastEnd {
        /// The relocation type.
        r_type: u32,
        /// The relocation offset.
        offset: u64,
        /// Bytes the type's fields need from the offset.
        span: usize,
        /// The section size.
        len: u64,
    },
    /// A bit field of width 0 or more than 64 bits was asked for ([`bits`] only).
    BadField {
        /// First bit.
        bit: u32,
        /// Width in bits.
        width: u32,
    },
    /// A bit field does not lie inside the given bytes ([`bits`] only).
    FieldPastEnd {
        /// First bit.
        bit: u32,
        /// Width in bits.
        width: u32,
        /// Length of the byte slice.
        len: u64,
    },
    /// A relocation type of the wrong family for its section: a `R_MERCURY_*` type in a SASS
    /// relocation section or the reverse ([`check_family`]).
    /// nvlink: `Internal error: sass rtype out of range` (SASS) / `unexpected reloc` (Mercury).
    WrongFamily {
        /// The offending `r_type`.
        r_type: u32,
    },
}

impl RelocError {
    /// The text nvlink 13.5 prints for the same condition (after `nvlink fatal   : `), when
    /// there is one.
    pub fn nvlink_message(&self) -> Option<&'static str> {
        match self {
            RelocError::UnknownType { r_type } if *r_type >= table::MERCURY_BASE => {
                Some("Internal error: unexpected reloc")
            }
            RelocError::UnknownType { .. } => Some("Internal error: sass rtype out of range"),
            RelocError::WrongFamily { r_type } if *r_type >= table::MERCURY_BASE => {
                Some("Internal error: sass rtype out of range")
            }
            RelocError::WrongFamily { .. } => Some("Internal error: unexpected reloc"),
            RelocError::OffsetPastEnd { r_type, .. }
                if *r_type == 0 || *r_type == table::MERCURY_BASE =>
            {
                Some("Internal error: relocation is past end of offset")
            }
            RelocError::OffsetPastEnd { .. } => Some("Internal error: reloc address not found"),
            _ => None,
        }
    }
}

impl fmt::Display for RelocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RelocError::UnknownType { r_type } => write!(f, "unknown relocation type {r_type:#x}"),
            RelocError::OffsetPastEnd { offset, len, .. } => write!(
                f,
                "relocation offset {offset:#x} is past the end of the section ({len:#x} bytes)"
            ),
            RelocError::WordPastEnd {
                offset, span, len, ..
            } => write!(
                f,
                "relocation at {offset:#x} patches {span} bytes, past the end of the section ({len:#x} bytes)"
            ),
            RelocError::BadField { bit, width } => {
                write!(f, "bad bit field: {width} bits at bit {bit}")
            }
            RelocError::FieldPastEnd { bit, width, len } => write!(
                f,
                "bit field of {width} bits at bit {bit} does not fit in {len} bytes"
            ),
            RelocError::WrongFamily { r_type } => write!(
                f,
                "relocation type {r_type:#x} does not belong in this kind of relocation section"
            ),
        }
    }
}

impl std::error::Error for RelocError {}

/// Checks that `r_type` belongs in a relocation section of `family` the way nvlink checks it:
/// SASS relocation sections (`.rel*`/`.rela*`) take `R_CUDA_NONE ..= R_CUDA_CONST_FIELD22_37`,
/// Mercury ones (`.nv.merc.rela*`) take `R_MERCURY_G64 ..= R_MERCURY_UNIFIED32_HI` or 0.
pub fn check_family(r_type: u32, family: Family) -> Result<&'static RelocType, RelocError> {
    match (family, lookup(r_type)) {
        (Family::Mercury, _) if r_type == 0 => Ok(&table::MERCURY[0]),
        (_, Some(t)) if t.family == family && !t.is_bound() => Ok(t),
        (_, Some(t)) if t.family != family && !t.is_bound() => {
            Err(RelocError::WrongFamily { r_type })
        }
        _ => Err(RelocError::UnknownType { r_type }),
    }
}
