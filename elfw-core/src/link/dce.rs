//! Dead-code elimination over the merged callgraph.
//!
//! Roots: kernels (all of them; those `--kernels-used` matches; or those the host code
//! references, when the inputs list that) and functions whose address is taken. Everything a root reaches through call edges stays; every other defined function
//! goes, with its `.text`, its `.nv.info.<f>`, its per-function data sections, its relocation
//! sections and its names (nvlink's string tables never mention a removed function).
//! `-r`, `--preserve-relocs` and `-g` switch elimination off (observed).

use super::state::*;
use super::LinkOptions;
use crate::arena::SymIdx;
use crate::diag::{Diagnostic, Severity};
use crate::elf::consts::SHT_CUDA_INFO;
use rustc_hash::{FxHashMap, FxHashSet};

/// Marks unreachable functions and everything that belongs only to them as removed.
/// Returns the `--extra-warnings` warnings it found (nvlink prints them after the stack-size
/// warnings).
pub fn eliminate_dead_code(st: &mut State<'_>, opts: &LinkOptions) -> Vec<Diagnostic> {
    // `-g` keeps every function too (observed: a never-called function survives a -g link),
    // also with `-suppress-debug-info`.
    let n = st.functions.len();
    if opts.relocatable
        || opts.preserve_relocs
        || opts.debug
        || opts.suppress_debug_info
        || opts.tools_patch
    {
        st.keep_reasons = vec![KeepReason::NoElimination; n];
        // `--preserve-relocs` keeps the kernels the host objects (or `--kernels-used`) leave
        // out, as functions: no stack-size record, nothing propagated from their callees
        // (observed, sm_80: `-G` kernels calling `__assert_fail` get no EXTERNS; with `-g` they
        // stay kernels). So does `-g -suppress-debug-info` (observed, sm_90 and sm_100: no
        // stack-size record for kernels the host objects or `--kernels-used` leave out).
        // A left-out kernel whose address some code takes (launched from device code, held
        // in a `__device__` table) stays a kernel, as without the option: always when the host
        // objects select, and when `--kernels-used`/`--variables-used` select other than a
        // single kernel (observed, sm_90: a kernel a device function in another TU launches,
        // libcudadevrt's memcpy/memset kernels; `--kernels-used=nomatch` and a kernel table).
        if (opts.preserve_relocs || opts.suppress_debug_info) && !opts.debug && !opts.relocatable {
            let by_option = !opts.kernels_used.is_empty() || !opts.variables_used.is_empty();
            let mut selected_kernels = 0usize;
            let mut left_out = Vec::new();
            for i in 1..n {
                let f = &st.functions[i];
                let Some(sym) = f.sym else { continue };
                if !f.is_entry {
                    continue;
                }
                if kernel_selected(st.sym(sym).name(), opts) {
                    selected_kernels += 1;
                } else {
                    left_out.push(i);
                }
            }
            for i in left_out {
                let kept = st.functions[i].address_taken && !(by_option && selected_kernels == 1);
                if !kept {
                    st.functions[i].demoted = true;
                }
            }
        }
        return Vec::new();
    }
    let mut live = vec![false; n];
    // Who first reached each function (for the link map's call chains).
    let mut parent = vec![usize::MAX; n];
    let mut reasons = vec![KeepReason::Unreachable; n];
    let mut queue = std::collections::VecDeque::new();
    let mut demoted = Vec::new();
    let mut selected_kernels = 0usize;
    // Whether the kernels left out but kept for their address are demoted (see below).
    let demoting = unselected_kernels_held(opts)
        && st
            .functions
            .iter()
            .skip(1)
            .filter(|f| {
                f.is_entry
                    && f.sym
                        .is_some_and(|s| kernel_selected(st.sym(s).name(), opts))
            })
            .count()
            == 1;
    for (i, f) in st.functions.iter().enumerate().skip(1) {
        let Some(sym) = f.sym else { continue };
        let name = st.sym(sym).name();
        // In a partial LTO libnvvm chose, libnvvm's kernels the host code does not reference
        // are no roots (observed, sm_90: an unlaunched kernel beside one launching another,
        // and in the image of a link refused for undefined references; a partial LTO forced
        // by an object not built for LTO keeps them).
        let lto_left_out = matches!(st.sym(sym).section(), SymSection::Section(text)
            if st.lto_left_out.contains(&text));
        let selected = f.is_entry && kernel_selected(name, opts) && !lto_left_out;
        if selected || f.address_taken {
            live[i] = true;
            // An address-taken function stays; what it calls stays only when live code makes
            // an indirect call (observed: a function whose address only a dead kernel's data
            // holds survives a host-info link, its callee does not).
            // A kernel whose address is taken (launched from device code) runs: what it calls
            // stays (observed: a -G kernel that launches itself keeps its internal
            // cudaGetParameterBufferV2/cudaLaunchDeviceV2 wrappers).
            // A demoted one does not run: its callees go (observed, sm_80 -G: a kernel that
            // launches itself, left out by `--kernels-used`, loses its internal
            // cudaGetParameterBufferV2/cudaLaunchDeviceV2 wrappers).
            if selected || (f.is_entry && !demoting) {
                queue.push_back(i);
            }
            reasons[i] = if selected {
                KeepReason::Kernel
            } else {
                KeepReason::AddressTaken
            };
            if selected {
                selected_kernels += 1;
            } else if f.is_entry && unselected_kernels_held(opts) {
                demoted.push(i);
            }
        } else if f.is_entry {
            let by_option = !opts.kernels_used.is_empty() || !opts.variables_used.is_empty();
            reasons[i] = if by_option {
                KeepReason::NotSelected
            } else {
                KeepReason::NotReferencedFromHost
            };
        }
    }
    // Breadth first, so each chain is a shortest one from the first root that reaches it.
    // What runs: the roots walked and every function they call (not a function kept only for
    // its address).
    let mut runs = vec![false; n];
    let mut walk = |queue: &mut std::collections::VecDeque<usize>,
                    live: &mut Vec<bool>,
                    runs: &mut Vec<bool>| {
        while let Some(i) = queue.pop_front() {
            runs[i] = true;
            for &c in st.functions[i].callees.iter().rev() {
                let c = c.0 as usize;
                runs[c] = true;
                if !live[c] {
                    live[c] = true;
                    parent[c] = i;
                    queue.push_back(c);
                }
            }
        }
    };
    walk(&mut queue, &mut live, &mut runs);
    let uncalled = if opts.extra_warnings {
        uncalled_address_taken(st, &runs)
    } else {
        Vec::new()
    };
    // Once live code makes an indirect call, every address-taken function may be called, and
    // what those call stays too.
    // (Indirect calls of a function kept only for its address do not count: observed, sm_80,
    // `--kernels-used` naming an address-taken virtual `eval` that makes indirect calls keeps
    // it but drops its direct callee `__cuda_sm20_div_rn_f64_full`.)
    let indirect = st.indirect_calls.iter().any(|&(f, _)| runs[f.0 as usize]);
    if indirect {
        for (i, f) in st.functions.iter().enumerate().skip(1) {
            if f.address_taken && f.sym.is_some() {
                queue.push_back(i);
            }
        }
        walk(&mut queue, &mut live, &mut runs);
    }
    // An undefined function a kept function calls stays, even when the caller is kept only
    // for its address and nothing makes an indirect call (observed, sm_80: `free`, called by
    // virtual destructors only a vtable holds, keeps its name, `.nv.prototype` and the
    // callers' EXTERNS under `--kernels-used` selecting no kernel); only a defined callee
    // goes then.
    for i in 1..n {
        if !live[i] {
            continue;
        }
        for &c in st.functions[i].callees.iter().rev() {
            let c = c.0 as usize;
            let undefined = st.functions[c]
                .sym
                .is_some_and(|s| matches!(st.sym(s).section(), SymSection::Undef));
            if !live[c] && undefined {
                live[c] = true;
                parent[c] = i;
            }
        }
    }
    // A function whose code lies inside another function's section (an `nvcc -ewp` object's
    // internal functions share their kernel's `.text.<k>`, no relocation calls them) lives
    // with that section's function (observed: the kernel and `[clone k] helper` both stay).
    for i in 1..n {
        if live[i] {
            continue;
        }
        let Some(sym) = st.functions[i].sym else {
            continue;
        };
        let SymSection::Section(text) = st.sym(sym).section() else {
            continue;
        };
        if let Link::Symbol { sym: owner, .. } = st.sec(text).info() {
            let owner_live = st.sym(owner).func().is_some_and(|f| live[f.0 as usize]);
            if owner != sym && owner_live {
                live[i] = true;
                parent[i] = st.sym(owner).func().map_or(usize::MAX, |f| f.0 as usize);
            }
        }
    }
    for i in 1..n {
        if opts.want_map && live[i] && parent[i] != usize::MAX {
            let mut path = vec![i];
            let mut at = i;
            while parent[at] != usize::MAX && path.len() <= n {
                at = parent[at];
                path.push(at);
            }
            path.reverse();
            reasons[i] = KeepReason::Reachable { root: at, path };
        }
    }
    // Only when the option selects a single kernel (observed on sm_80: with two selected,
    // the unselected kernels kept for their address stay kernels, `^` and
    // `EIATTR_MIN_STACK_SIZE` and all).
    if selected_kernels == 1 {
        for i in demoted {
            st.functions[i].demoted = true;
        }
    }
    st.keep_reasons = reasons;
    // Everything that goes, marked first and cleaned up in single passes (a link can drop
    // tens of thousands of functions).
    let mut gone_names: FxHashSet<SymIdx> = FxHashSet::default();
    let by_host = opts.kernels_used.is_empty() && opts.host_kernels.is_some();
    // Each code section's `.nv.info.<f>` (by its sh_info: local functions of the same name
    // in several inputs each have their own, under one name).
    let mut info_of: FxHashMap<SecId, SecId> = FxHashMap::default();
    for i in 1..st.sections.len() {
        if st.sections.sh_type[i] == SHT_CUDA_INFO {
            if let Link::Section(text) = st.sections.info[i] {
                info_of.entry(text).or_insert(SecId(i as u32));
            }
        }
    }
    for (i, alive) in live.iter().enumerate().skip(1) {
        if *alive {
            continue;
        }
        let Some(sym) = st.functions[i].sym else {
            continue;
        };
        st.functions[i].dead = true;
        *st.sym_mut(sym).removed() = true;
        gone_names.insert(sym);
        // An undefined function only dead code calls goes too, name and all (so it is never
        // reported undefined); a defined one takes its code and per-function sections along.
        if let SymSection::Section(text) = st.sym(sym).section() {
            remove_section(st, text);
            if let Some(&info) = info_of.get(&text) {
                remove_section(st, info);
            }
            if let Some(fname) = st.sec(text).name().strip_prefix(".text.") {
                for prefix in [
                    ".nv.shared.",
                    ".nv.local.",
                    ".nv.constant0.",
                    ".nv.constant2.",
                ] {
                    let name = [prefix, fname].concat();
                    let mut found = st.section_by_name(&name);
                    // sm_100+: a local kernel given twice has a bank per copy (see
                    // `other_kernels_bank` in the merge); the dead copy's is the one tied
                    // to its code.
                    if let Some(id) = found
                        .filter(|&id| matches!(st.sec(id).info(), Link::Section(t) if t != text))
                    {
                        let own = (1..st.sections.len()).map(|j| SecId(j as u32)).find(|&j| {
                            j != id
                                && st.sec(j).name() == name
                                && matches!(st.sec(j).info(), Link::Section(t) if t == text)
                        });
                        found = own.or(found);
                    }
                    if let Some(id) = found {
                        remove_section(st, id);
                        // A kernel the host code does not reference leaves its shared
                        // window's name in the string tables; one `--kernels-used` does not
                        // select does when an input brought the window (observed).
                        let from_input = st.nodes_of(id).next().is_some();
                        if prefix == ".nv.shared."
                            && st.functions[i].is_entry
                            && (by_host || from_input)
                        {
                            st.sections.name_removed[id.index()] = false;
                        }
                    }
                }
            }
        }
    }
    if gone_names.is_empty() {
        return uncalled;
    }
    // Relocation sections of removed sections go too, and their relocations.
    let sections = &mut st.sections;
    for i in 0..sections.len() {
        if let Some(t) = sections.reloc_target[i] {
            if sections.removed[t.index()] {
                sections.removed[i] = true;
                sections.name_removed[i] = true;
            }
        }
    }
    for r in st.relocs.iter_mut() {
        if st.sections.removed[r.target.index()] {
            r.dropped = true;
        }
    }
    // Their names leave the string tables.
    let name_removed = &st.sections.name_removed;
    let gone = |o: &NameOwner| match *o {
        NameOwner::Symbol(s) => gone_names.contains(&s),
        NameOwner::Section(id) => name_removed[id.index()],
    };
    let mut locals = std::mem::take(&mut st.local_name_order);
    locals.retain(|(_, o)| !gone(o));
    let mut globals = std::mem::take(&mut st.global_name_order);
    globals.retain(|(_, o)| !gone(o));
    st.local_name_order = locals;
    st.global_name_order = globals;
    uncalled
}

/// Whether kernel `name` is a root: it matches `--kernels-used`; or, without that option, no
/// `--variables-used` was given (which alone selects no kernel, observed) and the host code
/// references it (when the inputs say what it references).
pub(crate) fn kernel_selected(name: &str, opts: &LinkOptions) -> bool {
    if !opts.kernels_used.is_empty() {
        return opts.kernels_used.iter().any(|p| matches_pattern(name, p));
    }
    if !opts.variables_used.is_empty() {
        return false;
    }
    match &opts.host_kernels {
        Some(patterns) => patterns
            .iter()
            .any(|p| crate::input::host::host_pattern_matches(p.as_bytes(), name.as_bytes())),
        None => true,
    }
}

/// Whether the link treats the kernels `--kernels-used` leaves out apart: the merge makes no
/// `.nv.info.<k>` or `.nv.shared.<k>` of its own for them (their inputs' are made in input
/// order, the window right before the kernel's constant bank), and when the option selects
/// a single kernel, those kept for their address are demoted ([`Function::demoted`]).
/// `-g` and `--preserve-relocs` keep every kernel a kernel (the latter has rules of its own).
/// So does `-r`, which removes nothing, but its merge holds the left-out kernels as well
/// (observed, sm_80 to sm_100: no window names of theirs in the string tables; those whose
/// own code names dynamic memory get a window later, see `shared`).
/// `-g -suppress-debug-info` holds them as without `-g` (observed, sm_80 to sm_120: no
/// `.nv.info.<k>` made for a left-out kernel; and it demotes them, see above).
pub(crate) fn unselected_kernels_held(opts: &LinkOptions) -> bool {
    (!opts.kernels_used.is_empty() || !opts.variables_used.is_empty())
        && !opts.debug
        && !opts.preserve_relocs
}

/// nvlink's `--kernels-used` matching: the pattern is wrapped in `*...*` (substring match).
fn matches_pattern(name: &str, pattern: &str) -> bool {
    let p = pattern.trim_matches('*');
    name.contains(p)
}

fn remove_section(st: &mut State<'_>, id: SecId) {
    let mut s = st.sec_mut(id);
    *s.removed() = true;
    *s.name_removed() = true;
    if let Some(sym) = *s.symbol() {
        st.locals.removed[sym.pos()] = true;
    }
}

/// `--extra-warnings`: each address-taken function that does not run (neither a root walked
/// nor called by code that runs) and that no indirect call of its prototype in code that runs
/// may reach, in function order (observed, sm_80: virtual destructors nothing deletes; with
/// `--kernels-used`, the unselected kernels libcudadevrt launches and the functions only an
/// unselected kernel's callee calls indirectly).
fn uncalled_address_taken(st: &State<'_>, runs: &[bool]) -> Vec<Diagnostic> {
    let indirect: FxHashSet<u32> = st
        .indirect_calls
        .iter()
        .filter(|(f, _)| runs[f.0 as usize])
        .map(|&(_, proto)| proto)
        .collect();
    let mut out = Vec::new();
    let mut may_run = runs.to_vec();
    for &(f, proto) in &st.address_taken {
        if indirect.contains(&proto) {
            may_run[f.0 as usize] = true;
        }
    }
    for (i, f) in st.functions.iter().enumerate().skip(1) {
        let Some(sym) = f.sym else { continue };
        if f.address_taken && !may_run[i] {
            let name = st.sym(sym).name();
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!("Function '{name}' has address taken but no calls to it found"),
                )
                .about_symbol(name),
            );
        }
    }
    out
}
