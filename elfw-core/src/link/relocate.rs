//! Relocation: which relocations nvlink resolves at link time (their bytes patched, the entry
//! dropped) and which it leaves in the image for the driver.
//!
//! Observed on sm_75–sm_90 final links: instruction relocations all stay (the driver places
//! the code); `R_CUDA_64` against a section symbol in a debug section is applied and dropped
//! (e.g. a `.debug_frame` FDE's CIE pointer); `R_CUDA_UNUSED_CLEAR64` is dropped; relocations
//! against removed functions are dropped.

use super::state::*;
use super::LinkOptions;
use crate::elf::consts::STT_SECTION;

/// `R_CUDA_64`.
pub const R_CUDA_64: u32 = 0x02;
/// `R_CUDA_UNUSED_CLEAR64`.
pub const R_CUDA_UNUSED_CLEAR64: u32 = 0x49;

/// Applies what is resolved at link time and marks it dropped.
pub fn relocate(st: &mut State<'_>, opts: &LinkOptions) {
    let _ = opts;
    for i in 0..st.relocs.len() {
        let r = st.relocs[i];
        if r.dropped {
            continue;
        }
        let Some(sym) = r.sym else { continue };
        let s = st.sym(sym);
        if s.removed {
            st.relocs[i].dropped = true;
            continue;
        }
        if r.r_type == R_CUDA_UNUSED_CLEAR64 {
            st.relocs[i].dropped = true;
            continue;
        }
        let target_alloc = st.sec(r.target).flags & crate::elf::consts::SHF_ALLOC != 0;
        if r.r_type == R_CUDA_64 && s.sym_type() == STT_SECTION && !target_alloc {
            let value = (s.value as i64).wrapping_add(r.addend) as u64;
            st.patches.push(Patch {
                section: r.target,
                offset: r.offset,
                bytes: value.to_le_bytes().to_vec(),
            });
            st.relocs[i].dropped = true;
        }
    }
}
