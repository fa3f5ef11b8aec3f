//! Which relocations nvlink resolves while linking an executable, and which it leaves for the
//! CUDA driver.
//!
//! Observed on nvlink 13.5.37 final links (sm_75 … sm_120; see `tests/nvlink_goldens.rs`):
//! - In an executable every section has address 0 and every function its own section, so no
//!   code or global-data address is known at link time: relocations against functions, global,
//!   managed and `$str` data stay in the image for the driver, and their fields are left exactly
//!   as in the input (not pre-filled with the symbol's offset).
//! - Relocations whose value is known at link time are applied and vanish: offsets into shared
//!   memory and constant banks, texture/surface slots of `.nv.constant0.<k>`, offsets into
//!   non-allocated (debug) sections, `__UFT_OFFSET`.
//! - `R_CUDA_UNUSED_CLEAR*` is applied (the field zeroed) only when its symbol was removed by
//!   dead-code elimination; otherwise it is dropped and the bytes stay. Relocations of any other
//!   kind against a removed symbol are dropped without touching the bytes.
//! - `R_CUDA_YIELD_*` (turning a `YIELD` into a `NOP`) are dropped without touching the bytes.
//! - Shared-memory values are offsets from the start of the user's shared memory: on sm_90+,
//!   where the output symbol table places shared variables after the 0x400 bytes nvlink
//!   reserves (`.nv.reservedSmem`), the value written is the symbol's `st_value - 0x400`.
//! - The CIE pointers of `.debug_frame` (`R_CUDA_64` against the `.debug_frame` section) are
//!   not taken at face value: nvlink writes the offset of the CIE record that contains
//!   `S + A` (sm_100 objects carry addends that point into the middle of a CIE).
//! - Unified-table types kept for the driver are renamed ([`driver_type`]).
//!
//! Relocatable links (`-r`) and `--preserve-relocs` keep more and are not described here.

use crate::apply::applicable;
use crate::table::{types::*, Resolver, ValueKind};
use crate::RelocError;

/// What is known about a relocation's target when the linker decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The value is fixed at link time: an offset into shared memory, a constant bank or a
    /// non-allocated section, a texture/surface slot, or a link-time symbol (`__UFT_OFFSET`).
    LinkTime,
    /// The address is assigned at load time: a function, or data in global memory.
    LoadTime,
    /// The symbol was removed by dead-code elimination.
    Removed,
}

/// What nvlink does with one relocation of a final link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Disposition {
    /// Write the value into the fields now; the relocation is not emitted.
    Apply,
    /// Leave the bytes as in the input and emit the relocation, with type [`driver_type`], for
    /// the driver.
    Keep,
    /// Leave the bytes as in the input and emit nothing.
    Drop,
    /// Write the value now and also emit the relocation: the Mercury finalizer's
    /// `R_MERCURY_PROG_REL*` types against link-time targets (seen on `-G` debug sections of
    /// sm_100 objects, where nvlink also rebases the kept relocation's addend onto the
    /// `.nv.merc.*` copy of the target section).
    ApplyAndKeep,
}

/// nvlink's disposition of a relocation of type `r_type` against `target` in a final link.
///
/// Fails only for unknown types (see [`crate::apply`]).
pub fn disposition(r_type: u32, target: Target) -> Result<Disposition, RelocError> {
    let t = applicable(r_type)?;
    if t.fields.is_empty() {
        return Ok(Disposition::Drop);
    }
    if matches!(r_type, R_CUDA_YIELD_OPCODE9_0 | R_CUDA_YIELD_CLEAR_PRED4_87) {
        return Ok(Disposition::Drop);
    }
    Ok(match (t.value, target) {
        (ValueKind::Clear, Target::Removed) => Disposition::Apply,
        (ValueKind::Clear, _) => Disposition::Drop,
        (_, Target::Removed) => Disposition::Drop,
        // Filled in by the driver whatever the target.
        (
            ValueKind::HeaderIndex
            | ValueKind::SurfaceDescriptor
            | ValueKind::GenericAddress
            | ValueKind::FunctionDescriptor
            | ValueKind::Instruction,
            _,
        ) => Disposition::Keep,
        (_, Target::LinkTime) if t.resolver == Resolver::Finalizer => Disposition::ApplyAndKeep,
        (_, Target::LinkTime) => Disposition::Apply,
        (_, Target::LoadTime) => Disposition::Keep,
    })
}

/// The type a kept relocation has in the output: the unified-table address types become plain
/// absolute ones (`R_CUDA_UNIFIED32_LO_32` → `R_CUDA_ABS32_LO_32`, `R_CUDA_UNIFIED` →
/// `R_CUDA_64`, and the same for `R_MERCURY_*`); every other type is unchanged.
pub fn driver_type(r_type: u32) -> u32 {
    match r_type {
        R_CUDA_UNIFIED => R_CUDA_64,
        R_CUDA_UNIFIED32_LO_32 => R_CUDA_ABS32_LO_32,
        R_CUDA_UNIFIED32_HI_32 => R_CUDA_ABS32_HI_32,
        R_MERCURY_UNIFIED => R_MERCURY_ABS64,
        R_MERCURY_UNIFIED32_LO => R_MERCURY_ABS32_LO,
        R_MERCURY_UNIFIED32_HI => R_MERCURY_ABS32_HI,
        other => other,
    }
}
