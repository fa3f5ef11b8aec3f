//! sm_100+: `EIATTR_PREEXIT_USED`, which nvlink's finalizer writes itself.
//!
//! `griddepcontrol.launch_dependents` becomes a `PREEXIT` instruction (opcode `0x82d` on sm_100,
//! sm_103, sm_110, sm_120 and sm_121), and ptxas 13.5 ends every function's SASS `.nv.info.<f>`
//! with `EIATTR_PREEXIT_USED` (`EIFMT_BVAL`): 1 when the function's own code has one. nvlink
//! (observed, 13.5) does not keep the input's record: it drops it and appends its own, last,
//! whatever the input said (a record set to 1 on a function without `PREEXIT` comes out 0, one
//! moved before `EIATTR_SW_WAR` comes out last), and writes one for functions whose input has
//! none (CUDA 13.0's ptxas wrote no such record: NVSHMEM's device library). In a final link a
//! kernel's value is 1 when it or any function it calls, directly or not, has a `PREEXIT`;
//! device functions keep their own. A relocatable link writes each function's own.

use super::state::{FuncId, InfoRecord, SecId, State, SymSection};
use super::LinkOptions;
use crate::elf::consts::SHT_PROGBITS;
use rustc_hash::FxHashMap;

/// `EIATTR_PREEXIT_USED`.
const EIATTR_PREEXIT_USED: u8 = 0x6d;
/// `PREEXIT`'s opcode (`lo & 0xfff`).
const OP_PREEXIT: u64 = 0x82d;

/// Rewrites the `EIATTR_PREEXIT_USED` record at the end of every function's finalizer records.
pub fn rewrite(st: &mut State<'_>, opts: &LinkOptions) {
    if !opts.target.is_mercury() || st.sass_info_tail.is_empty() {
        return;
    }
    // Each live function's code section, and whether its own code has a `PREEXIT`.
    let mut own: Vec<bool> = vec![false; st.functions.len()];
    let mut func_of_text: FxHashMap<SecId, FuncId> = FxHashMap::default();
    for (i, f) in st.functions.iter().enumerate().skip(1) {
        let (Some(sym), false) = (f.sym, f.dead) else {
            continue;
        };
        let SymSection::Section(text) = st.sym(sym).section() else {
            continue;
        };
        if st.sec(text).sh_type() != SHT_PROGBITS {
            continue;
        }
        func_of_text.insert(text, FuncId(i as u32));
        own[i] = st.nodes_of(text).filter_map(|n| n.data()).any(has_preexit);
    }
    let used = |st: &State<'_>, f: FuncId, seen: &mut [bool]| -> bool {
        if opts.relocatable || !st.func(f).is_entry {
            return own[f.0 as usize];
        }
        super::shared::reachable(st, f, seen)
            .into_iter()
            .any(|g| own[g.0 as usize])
    };
    let mut seen = vec![false; st.functions.len()];
    let mut sections: Vec<SecId> = st.sass_info_tail.keys().copied().collect();
    sections.sort_unstable();
    for info in sections {
        let super::state::Link::Section(text) = st.sec(info).info() else {
            continue;
        };
        let Some(&f) = func_of_text.get(&text) else {
            continue;
        };
        let v = u8::from(used(st, f, &mut seen));
        let payload: &[u8] = st.bump.alloc_slice_copy(&[v, 0]);
        if let Some(tail) = st.sass_info_tail.get_mut(&info) {
            tail.retain(|r| r.attr != EIATTR_PREEXIT_USED);
            tail.push(InfoRecord {
                format: crate::nvinfo::EIFMT_BVAL,
                attr: EIATTR_PREEXIT_USED,
                payload,
                sym: None,
                externs: &[],
                dropped: false,
            });
        }
    }
}

/// Whether SASS code holds a `PREEXIT` (under any guard).
fn has_preexit(code: &[u8]) -> bool {
    code.chunks_exact(16).any(|i| {
        let lo = u64::from_le_bytes(i[..8].try_into().unwrap_or([0; 8]));
        lo & 0xfff == OP_PREEXIT
    })
}
