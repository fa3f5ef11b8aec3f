//! sm_100+: nvlink's finalizer allocates the scoreboards of some functions again in a final
//! link (see [`super::sass::scoreboard`]); this puts the pass's control words into the image.
//!
//! Gate (observed, notes `m1/m11` section 2): final links only (not `-r`), and only when the
//! link is not in the exit-fence debug mode (no `-g`, no input compiled with `-G`): with either,
//! every triggered function keeps ptxas's words. The function-level trigger is the pass's own.
//! In `-r` and `-g` links the kernels of `nvcc -ewp` objects get relocatable code's scoreboards
//! instead (notes `s19-sweepfix.md`).

use super::fence_pads::{exit_fence_mode, ExitFence};
use super::finalize::Finalized;
use super::relocate::Patched;
use super::sass::scoreboard;
use super::state::{State, SymSection};
use super::{InputObject, LinkOptions};

/// Rewrites the control words of every live function nvlink re-allocates, as finalized section
/// contents (the relocated bytes with the new words).
pub fn rescore(
    st: &State<'_>,
    fin: &mut Finalized,
    patched: &Patched,
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
) {
    if !opts.target.is_mercury() {
        return;
    }
    let mode = exit_fence_mode(inputs, opts);
    if opts.relocatable || mode == ExitFence::Full {
        whole_program_kernels(st, fin, patched, inputs);
        return;
    }
    if mode != ExitFence::Off {
        return;
    }
    for f in st.functions.iter().filter(|f| !f.dead) {
        let Some(sym) = f.sym else {
            continue;
        };
        let SymSection::Section(text) = st.sym(sym).section() else {
            continue;
        };
        if fin.contents.get(&text).is_some() || !st.sec(text).name().starts_with(".text.") {
            continue;
        }
        // Most functions do not open with the stack-pointer load: their first instruction,
        // as merged, says so before the whole section is assembled and relocated (unless a
        // field is written into that instruction).
        let first = st
            .nodes_of(text)
            .find(|n| n.offset() == 0)
            .and_then(|n| n.data());
        if let Some(first) = first.filter(|d| d.len() >= 16) {
            if !patched.touches_before(text, 16) && !scoreboard::opens_with_trigger(first) {
                continue;
            }
        }
        let code = patched.section(st, text);
        if let Some(new) = scoreboard::reallocate(&code) {
            fin.contents.insert(text, new);
        }
    }
}

/// `-r` and `-g` links: the kernels of `nvcc -ewp` objects get the scoreboards of relocatable
/// code ([`scoreboard::restore_entry_scoreboard`]; not seen in links made `-G` only by an
/// input).
fn whole_program_kernels(
    st: &State<'_>,
    fin: &mut Finalized,
    patched: &Patched,
    inputs: &[InputObject<'_>],
) {
    for f in st.functions.iter().filter(|f| !f.dead && f.is_entry) {
        let Some(sym) = f.sym else {
            continue;
        };
        let SymSection::Section(text) = st.sym(sym).section() else {
            continue;
        };
        if fin.contents.get(&text).is_some() || !st.sec(text).name().starts_with(".text.") {
            continue;
        }
        let whole_program = st.nodes_of(text).next().is_some_and(|n| {
            inputs
                .get(n.input())
                .is_some_and(|o| o.elf.header().e_type == super::merge::ET_WHOLE_PROGRAM)
        });
        if !whole_program {
            continue;
        }
        let code = patched.section(st, text);
        if let Some(new) = scoreboard::restore_entry_scoreboard(&code) {
            fin.contents.insert(text, new);
        }
    }
}
