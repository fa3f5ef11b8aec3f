//! sm_100+: nvlink's finalizer allocates the scoreboards of some functions again in a final
//! link (see [`super::sass::scoreboard`]); this puts the pass's control words into the image.
//!
//! Gate (observed, notes `m1/m11` section 2): only when the link is not in the exit-fence debug
//! mode (no `-g`, no input compiled with `-G`): with either, every triggered function keeps
//! ptxas's words. The function-level trigger is the pass's own: in final links
//! [`scoreboard::reallocate`] (the stack-pointer load's scoreboard goes), in `-r` links
//! [`scoreboard::reallocate_relocatable`] (an `-ewp` kernel's load without one gets one;
//! notes `s19-weak100r.md`).

use super::fence_pads::{exit_fence_mode, ExitFence};
use super::finalize::Finalized;
use super::relocate::Patched;
use super::sass::scoreboard;
use super::state::{Function, SecId, State, SymSection};
use super::{InputObject, LinkOptions};

/// A scoreboard pass over one function's code (`None`: its words stay).
type Pass = fn(&[u8]) -> Option<Vec<u8>>;

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
    match exit_fence_mode(inputs, opts) {
        ExitFence::Off => {}
        // `-g` (or `-r -g`): the kernels of `nvcc -ewp` objects get relocatable code's
        // scoreboards too (notes `s19-sweepfix.md`); everything else keeps ptxas's words.
        ExitFence::Full => return whole_program_kernels(st, fin, patched, inputs),
        _ => return,
    }
    let (opens, pass): (fn(&[u8]) -> bool, Pass) = if opts.relocatable {
        (
            scoreboard::opens_without_scoreboard,
            scoreboard::reallocate_relocatable,
        )
    } else {
        (scoreboard::opens_with_trigger, scoreboard::reallocate)
    };
    for f in st.functions.iter().filter(|f| !f.dead) {
        let Some(text) = untouched_code(st, fin, f) else {
            continue;
        };
        // Most functions do not open with the stack-pointer load: their first instruction,
        // as merged, says so before the whole section is assembled and relocated (unless a
        // field is written into that instruction).
        let first = st
            .nodes_of(text)
            .find(|n| n.offset() == 0)
            .and_then(|n| n.data());
        if let Some(first) = first.filter(|d| d.len() >= 16) {
            if !patched.touches_before(text, 16) && !opens(first) {
                continue;
            }
        }
        let code = patched.section(st, text);
        if let Some(new) = pass(&code) {
            fin.contents.insert(text, new);
        }
    }
}

/// In a `-g` link, the kernels of `nvcc -ewp` objects (whole-program compiles) whose
/// stack-pointer load has no scoreboard are given relocatable code's scoreboards, as in `-r`
/// (observed, sm_100 and sm_120: nvlink re-allocates them; notes `s19-sweepfix.md`).
fn whole_program_kernels(
    st: &State<'_>,
    fin: &mut Finalized,
    patched: &Patched,
    inputs: &[InputObject<'_>],
) {
    for f in st.functions.iter().filter(|f| !f.dead && f.is_entry) {
        let Some(text) = untouched_code(st, fin, f) else {
            continue;
        };
        let whole_program = st.nodes_of(text).next().is_some_and(|n| {
            inputs
                .get(n.input())
                .is_some_and(|o| o.elf.header().e_type == super::merge::ET_WHOLE_PROGRAM)
        });
        if !whole_program {
            continue;
        }
        let code = patched.section(st, text);
        if let Some(new) = scoreboard::reallocate_relocatable(&code) {
            fin.contents.insert(text, new);
        }
    }
}

/// The code section (`.text.<f>`) of function `f`, unless an earlier step rewrote it.
fn untouched_code(st: &State<'_>, fin: &Finalized, f: &Function) -> Option<SecId> {
    let SymSection::Section(text) = st.sym(f.sym?).section() else {
        return None;
    };
    (fin.contents.get(&text).is_none() && st.sec(text).name().starts_with(".text.")).then_some(text)
}
