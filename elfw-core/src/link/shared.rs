//! Shared-memory layout: where each `__shared__` variable lives in its kernels' windows, and
//! how large each kernel's `.nv.shared.<k>` is.
//!
//! Observed (nvlink 13.5, sm_75–sm_90):
//! - ptxas keeps a kernel's own shared variables in `.nv.shared.<k>` and those of device
//!   functions in `.nv_debug.shared`; a shared variable's `st_value` is its alignment, not an
//!   offset. None of them reaches the output's symbol or string tables.
//! - A function variable reached by several kernels gets one offset for all of them, in a
//!   common area laid out first: largest first, each at the lowest start that overlaps no
//!   variable of one of its kernels, so variables of disjoint sets of kernels share bytes;
//!   variables of dead functions sit at 0 and push the area's end (see the code). A kernel's
//!   window starts after the last common variable it reaches; then come its private variables — its own and those of
//!   functions only it reaches — sorted by alignment, largest first, then by size, smallest
//!   first, with nvlink's list merge sort (`list_merge_sort`), which is not stable: ties
//!   come out in an order fixed by the list the sort starts from. That list is the kernel's
//!   own variables in declaration order, then its private function variables in the reverse
//!   of their place in one link-wide list: every function variable and every `extern
//!   __shared__` name (input by input, function variables in symbol order, then that input's
//!   new `extern __shared__` names), sorted once by size alone with the same merge sort.
//!   Fitted on nvlink 13.5 (sm_80) links of 2–16 equal arrays in one kernel and on 390
//!   kernel windows of about 180 randomized links: kernels, device functions (live and dead,
//!   some shared by several kernels), `extern __shared__` names, alignments 4–16, sizes
//!   1–256 bytes, one or two translation units; every one matched.
//! - Once there is a common area (a dead function's variable is enough), every window is
//!   aligned at least like `.nv_debug.shared` (the area, 16 for dynamic memory whatever its
//!   names ask, the function variables); with dynamic memory in the link every kernel then
//!   keeps a window, empty ones included (below sm_90 only those aligned 16). Otherwise a
//!   window is aligned for what it holds only, not like the input section ptxas aligned for
//!   its whole translation unit.
//! - From sm_90 every window starts with 0x400 bytes nvlink reserves; relocations get offsets
//!   that leave those out. A kernel that uses no shared memory at all has no `.nv.shared.<k>`.
//! - Dynamic (`extern __shared__`) memory starts at the end of the static part, at its
//!   alignment, and the window reaches that start.
//! - A relocatable link only sizes the windows for dynamic memory and names it per kernel
//!   (`size_relocatable_windows`); linking its image, a window with bytes but no variables
//!   keeps them.
//! - `.nv_debug.shared` stays, empty, in links with dynamic shared memory.

use super::state::*;
use super::LinkOptions;
use crate::arena::SymIdx;
use crate::elf::consts::SHT_CUDA_SHARED;
use rustc_hash::{FxHashMap, FxHashSet};

/// Bytes nvlink reserves at the start of every shared window from sm_90 on.
pub fn reserved_bytes(opts: &LinkOptions) -> u64 {
    if opts.target.sm >= 90 {
        0x400
    } else {
        0
    }
}

/// `v` rounded up to a multiple of `a` (saturating: damaged sizes must not wrap around).
fn align_up(v: u64, a: u64) -> u64 {
    let a = a.max(1);
    v.div_ceil(a).saturating_mul(a)
}

/// Places `var` at the next offset its alignment allows after `end` in the window of code
/// section `text` (a function's variable records the window), then moves `end` past it and
/// raises the window's alignment `align` to the variable's.
fn place_in_window(var: &mut SharedVar, text: SecId, end: &mut u64, align: &mut u64) {
    let off = align_up(*end, var.align);
    var.offset = Some(off);
    if var.kind == SharedKind::Function {
        var.window = Some(text);
    }
    *end = off.saturating_add(var.size);
    *align = (*align).max(var.align);
}

/// The bytes a final sm_100+ link reserves at the start of the reserved shared window, ahead
/// of its variables: `.nv.reservedSmem.offset0`'s value (observed: 0x40); none in a
/// relocatable link, which lays nothing out.
pub fn reserved_base(st: &State<'_>, opts: &LinkOptions) -> u64 {
    if opts.relocatable || !opts.target.is_mercury() {
        return 0;
    }
    st.global_by_name(".nv.reservedSmem.offset0")
        .map_or(0, |g| st.sym(g).value())
}

/// sm_100+ reserved shared memory (`.nv.shared.reserved.0`): the merge keeps one window, and
/// every variable of that name space once (sm_110's 128-byte workaround variable is in every
/// input, the 32-byte `tcgen05` partition only in those allocating tensor memory). Their
/// symbols hold their alignment; the window places them most aligned first, then largest, then
/// in the order met (observed on sm_110a: the workaround variable first whatever the input
/// order), and is as large as the last one's end, or as the input window when that is larger.
/// With `base` (a final link: the bytes `.nv.reservedSmem.offset0` reserves) the window grows by
/// it and the symbols take their places after it; a relocatable link keeps the alignments.
fn layout_reserved(st: &mut State<'_>, base: Option<u64>) {
    for i in 1..st.sections.len() {
        if st.sections.sh_type[i] != crate::elf::consts::SHT_CUDA_SHARED_RESERVED {
            continue;
        }
        let id = SecId(i as u32);
        // (alignment, size, global?, slot) of each variable.
        let mut vars: Vec<(u64, u64, bool, usize)> = Vec::new();
        for (global, array) in [(false, &st.locals), (true, &st.globals)] {
            for j in 1..array.len() {
                let s = array.at(j);
                if s.section() == SymSection::Section(id)
                    && s.sym_type() != crate::elf::consts::STT_SECTION
                {
                    vars.push((array.value[j].max(1), array.size[j], global, j));
                }
            }
        }
        vars.sort_by_key(|&(align, size, ..)| (std::cmp::Reverse(align), std::cmp::Reverse(size)));
        let mut end = 0u64;
        for &(align, size, global, j) in &vars {
            let off = align_up(end, align);
            end = off.saturating_add(size);
            if let Some(base) = base {
                let array = if global {
                    &mut st.globals
                } else {
                    &mut st.locals
                };
                array.value[j] = base.saturating_add(off);
            }
        }
        let size = st.sections.size[i].max(end);
        st.sections.size[i] = size.saturating_add(base.unwrap_or(0));
    }
}

/// Lays out shared memory for the live kernels.
pub fn layout_shared(st: &mut State<'_>, opts: &LinkOptions) {
    // A relocatable link lays out nothing: it sizes the windows for dynamic memory only.
    if opts.relocatable {
        size_relocatable_windows(st, opts);
        if opts.target.is_mercury() {
            layout_reserved(st, None);
        }
        return;
    }
    let reserve = reserved_bytes(opts);
    // Which function and dynamic variables each function's code refers to (each once, in
    // order). A kernel's own variables are laid out from its section alone, so the
    // relocations matter only when the link has the other kinds.
    let shared_across = st
        .shared_vars
        .iter()
        .any(|v| v.kind == SharedKind::Function || v.kind == SharedKind::Dynamic);
    let relocs: &[Reloc] = if shared_across { &st.relocs } else { &[] };
    // Text section → function (only the relocations read it).
    let mut func_of_text: FxHashMap<SecId, FuncId> = FxHashMap::default();
    if !relocs.is_empty() {
        for (i, f) in st.functions.iter().enumerate().skip(1) {
            if let (Some(sym), false) = (f.sym, f.dead) {
                if let SymSection::Section(t) = st.sym(sym).section() {
                    func_of_text.insert(t, FuncId(i as u32));
                }
            }
        }
    }
    let mut uses: FxHashMap<FuncId, Vec<usize>> = FxHashMap::default();
    let mut pairs: FxHashSet<(FuncId, usize)> = FxHashSet::default();
    for r in relocs {
        let Some(sym) = r.sym else { continue };
        let Some(v) = st.sym(sym).shared() else {
            continue;
        };
        if matches!(st.shared_vars[v].kind, SharedKind::Kernel(_)) {
            continue;
        }
        if let Some(&f) = func_of_text.get(&r.target) {
            if pairs.insert((f, v)) {
                uses.entry(f).or_default().push(v);
            }
        }
    }
    // `--preserve-relocs` lays out only the kernels it keeps as kernels: those the host
    // objects or `--kernels-used` leave out keep their own variables in their windows and
    // serve nothing else (observed, sm_90: no common area for a function they share with
    // the selected kernel, their windows aligned for their variables only). So are those
    // kept as kernels for their address (observed, sm_75/90/100 `--kernels-used=nomatch`: a
    // table's kernel without variables gets no `.nv.shared.<k>`). So does `-g
    // -suppress-debug-info` (observed, sm_80 `--kernels-used`: a left-out kernel's window holds
    // none of the common area).
    let as_function: Vec<bool> = st
        .functions
        .iter()
        .map(|f| {
            (opts.preserve_relocs || opts.suppress_debug_info)
                && !opts.debug
                && (f.demoted
                    || (f.is_entry
                        && f.sym
                            .is_some_and(|s| !super::dce::kernel_selected(st.sym(s).name(), opts))))
        })
        .collect();
    let as_function = |f: FuncId| as_function[f.0 as usize];
    let kernels: Vec<FuncId> = (1..st.functions.len())
        .map(|i| FuncId(i as u32))
        .filter(|&f| st.func(f).is_entry && !st.func(f).dead && st.func(f).sym.is_some())
        .filter(|&f| !as_function(f))
        .collect();
    // Variables each kernel reaches, and the kernels each function variable serves.
    let mut reach: FxHashMap<FuncId, Vec<FuncId>> = FxHashMap::default();
    let mut users: Vec<FxHashSet<FuncId>> = vec![FxHashSet::default(); st.shared_vars.len()];
    let mut seen = vec![false; st.functions.len()];
    for &k in kernels.iter().filter(|_| !uses.is_empty()) {
        let r = reachable_through_pointers(st, k, &mut seen);
        for f in &r {
            for &v in uses.get(f).map(Vec::as_slice).unwrap_or(&[]) {
                users[v].insert(k);
            }
        }
        reach.insert(k, r);
    }
    // A left-out kernel's own code (where template functions were inlined) names function
    // variables as a kernel would: they serve it too (observed, sm_90 `--preserve-relocs
    // --kernels-used`: a template's array the selected kernel's and a left-out kernel's code
    // name is in the common area; one only the left-out kernel's code names is in its window).
    for f in (1..st.functions.len()).map(|i| FuncId(i as u32)) {
        if !as_function(f) || st.func(f).dead || !st.func(f).is_entry {
            continue;
        }
        for &v in uses.get(&f).map(Vec::as_slice).unwrap_or(&[]) {
            if st.shared_vars[v].kind == SharedKind::Function {
                users[v].insert(f);
            }
        }
    }
    // Code no laid-out kernel reaches resolves dynamic memory to -1 (observed, sm_90
    // `--preserve-relocs --kernels-used`: a function only a left-out kernel calls; sm_100
    // `-g -suppress-debug-info`: a device function no kernel calls).
    if (opts.preserve_relocs || opts.suppress_debug_info) && !opts.debug {
        // (A left-out kernel's own code is placed: its window holds its dynamic memory.)
        let mut reached: FxHashSet<FuncId> = (1..st.functions.len())
            .map(|i| FuncId(i as u32))
            .filter(|&f| st.func(f).is_entry)
            .collect();
        for r in reach.values() {
            reached.extend(r.iter().copied());
        }
        st.unplaced_dynamic_code = uses
            .iter()
            .filter(|(f, vars)| {
                !reached.contains(f)
                    && vars
                        .iter()
                        .any(|&v| st.shared_vars[v].kind == SharedKind::Dynamic)
            })
            .filter_map(
                |(&f, _)| match st.func(f).sym.map(|s| st.sym(s).section()) {
                    Some(SymSection::Section(t)) => Some(t),
                    _ => None,
                },
            )
            .collect();
    }
    // Alignment (observed on sm_80/sm_90 with and without dynamic shared memory): a window
    // is aligned for the variables it holds and the dynamic memory it uses; once the link
    // has a common area, every window, and `.nv_debug.shared`, also for the area, dynamic
    // memory and the function variables (see below).
    let has_dynamic = st.shared_vars.iter().any(|v| v.kind == SharedKind::Dynamic);
    // Names an earlier `-r -g` defined at 0 align only the windows of the kernels naming them
    // (16) and keep `.nv_debug.shared` (aligned 16): no window of another kernel is aligned
    // or made for them (observed, sm_80 and sm_90, final links of `-r -g` images: a kernel
    // reaching only a common area of 4-aligned variables gets a window aligned 4, a kernel
    // reaching no shared memory none).
    let has_dynamic_asking = st
        .shared_vars
        .iter()
        .any(|v| v.kind == SharedKind::Dynamic && !v.at_zero);
    // Every function variable and `extern __shared__` name of the link (each name once, at
    // its first input), sorted by size alone: a function variable's place in this order
    // decides where it enters a kernel's list (observed; see the module notes).
    let size_rank = {
        // (Globals too: links that list the `extern __shared__` names — `-g`, sm_90
        // `--preserve-relocs` — hold them as globals; read from the locals alone, every such
        // name after the first counted as a repeat and left the list, which moved the ties of
        // sm80_shared_tie_functions under `-g`.)
        // (Only function variables and dynamic memory are ranked: without them, no name is
        // read.)
        let mut names: Vec<&str> = vec![""; st.shared_vars.len()];
        let symbols = st.locals.iter().skip(1).chain(st.globals.iter().skip(1));
        for sym in symbols.filter(|_| shared_across) {
            if let Some(v) = sym.shared() {
                if let Some(n) = names.get_mut(v) {
                    *n = sym.name();
                }
            }
        }
        let mut seen_dynamic: FxHashSet<&str> = FxHashSet::default();
        let listed: Vec<usize> = (0..st.shared_vars.len())
            .filter(|&v| match st.shared_vars[v].kind {
                SharedKind::Function => true,
                SharedKind::Dynamic => seen_dynamic.insert(names[v]),
                SharedKind::Kernel(_) => false,
            })
            .collect();
        let mut rank = vec![0usize; st.shared_vars.len()];
        for (i, v) in list_merge_sort(&listed, |&v| st.shared_vars[v].size)
            .into_iter()
            .enumerate()
        {
            rank[v] = i;
        }
        rank
    };
    // The common area: function variables serving several kernels, taken largest first (the
    // link-wide size order, last to first), each at the lowest place that overlaps nothing
    // already placed for one of its kernels. The places tried are the starts of the
    // variables already there (0 first), in increasing order, then the end of the area (each
    // rounded up to the variable's alignment). Variables of functions no kernel reaches
    // belong to the area too: they sit at 0 for no kernel, so they only push its end out. Observed on
    // nvlink 13.5 (sm_80): a dead function's 256-byte array puts the second common variable
    // at 256; variables of functions shared by disjoint sets of kernels overlap; fitted on
    // 235 of 236 randomized links with common functions (2-5 kernels, functions shared by
    // 2-3 of them, dead functions, one or two inputs, alignments 4-16, sizes 1-800 bytes).
    // Variables of kernels dead-code elimination removed (a template kernel's arrays sit in
    // `.nv_debug.shared`, like a function's) are gone with them: they make no common area
    // (observed: CUB's kernels the host code does not launch leave every window aligned for
    // what it holds).
    // A variable no kernel reaches joins the area only when a dead function's code names it:
    // one no code names (ptxas keeps some a kernel no longer uses) or only a removed kernel's
    // code names is not there (observed: CUB's histogram kernel's unused 12-byte array, and
    // the kernels the host code does not launch, leave every window aligned for what it holds).
    let named_by_code = {
        // Kernels `--kernels-used` leaves out still count: what their code names joins the
        // area (observed, sm_90: an `__align__(32)` array of a device function inlined into
        // left-out kernels keeps the selected kernel's window aligned 32 and drops
        // `.nv_debug.shared`, as in the link without the option).
        let by_option = !opts.kernels_used.is_empty();
        let mut text_of_dead_kernel: FxHashSet<SecId> = FxHashSet::default();
        for f in st.functions.iter().skip(1) {
            if let (true, true, Some(sym)) = (f.is_entry, f.dead, f.sym) {
                if let SymSection::Section(t) = st.sym(sym).section() {
                    text_of_dead_kernel.insert(t);
                }
            }
        }
        // (Named by other code too, it is there: observed, sm_90, a function only a removed
        // kernel calls, inlined there and kept as a function as well.)
        let mut named = vec![false; st.shared_vars.len()];
        for r in relocs {
            let Some(v) = r.sym.and_then(|s| st.sym(s).shared()) else {
                continue;
            };
            if by_option || !text_of_dead_kernel.contains(&r.target) {
                if let Some(x) = named.get_mut(v) {
                    *x = true;
                }
            }
        }
        named
    };
    let mut by_size: Vec<usize> = (0..st.shared_vars.len())
        .filter(|&v| st.shared_vars[v].kind == SharedKind::Function && users[v].len() != 1)
        .filter(|&v| !users[v].is_empty() || named_by_code[v])
        .collect();
    by_size.sort_by_key(|&v| std::cmp::Reverse(size_rank[v]));
    let in_common_area = !by_size.is_empty();
    let area_align = by_size
        .iter()
        .map(|&v| st.shared_vars[v].align)
        .max()
        .unwrap_or(0);
    // (start, end, variable) of the common variables placed so far.
    let mut placed: Vec<(u64, u64, usize)> = Vec::new();
    let mut end = 0u64;
    for &v in &by_size {
        let (align, size) = (st.shared_vars[v].align, st.shared_vars[v].size);
        if users[v].is_empty() {
            end = end.max(size);
            // (`--preserve-relocs` and `-g` list it at the area's start: observed, sm_90.)
            if opts.shows_shared_layout() {
                st.shared_vars[v].offset = Some(0);
            }
            continue;
        }
        let mut starts: Vec<u64> = placed.iter().map(|p| p.0).chain([0]).collect();
        starts.sort_unstable();
        starts.dedup();
        let fits = |off: u64| {
            let last = off.saturating_add(size);
            placed
                .iter()
                .all(|&(s, e, w)| off >= e || last <= s || users[w].is_disjoint(&users[v]))
        };
        let off = starts
            .into_iter()
            .map(|c| align_up(c, align))
            .find(|&o| fits(o))
            .unwrap_or_else(|| align_up(end, align));
        placed.push((off, off.saturating_add(size), v));
        end = end.max(off.saturating_add(size));
        st.shared_vars[v].offset = Some(off);
    }
    let area_end = end;
    st.shared_common_area = in_common_area;
    // With a common area (dead functions' variables are enough), every window is aligned
    // at least like `.nv_debug.shared`: for the area, all dynamic memory and what the inputs
    // asked of `.nv_debug.shared` (observed: a kernel with 4-byte variables only gets 0x10
    // for a dead function's `__align__(16)` array in another input, or for an `extern
    // __shared__` array of a function another kernel calls).
    // (Those variables' alignments, not the section's: a relocatable link aligns it for the
    // dynamic memory. Dynamic memory itself asks 16 whatever its names' alignment: observed,
    // `__align__(32)` to `__align__(128)` names leave `.nv_debug.shared` aligned 16.)
    let debug_in = st
        .shared_vars
        .iter()
        .filter(|v| v.kind == SharedKind::Function)
        .map(|v| v.align)
        .max()
        .unwrap_or(0);
    // With a common area, the dynamic memory asks its names' alignment, at least 16 (observed,
    // sm_80 and sm_90, final and `-g`: an `__align__(32)` name beside a common area of
    // 4-aligned arrays aligns every window and `.nv_debug.shared` 32, which then goes
    // without `-g`, as does an empty window on sm_80).
    let dynamic_align = st
        .shared_vars
        .iter()
        .filter(|v| v.kind == SharedKind::Dynamic && !v.at_zero)
        .map(|v| v.align)
        .max()
        .unwrap_or(0);
    let debug_align = if has_dynamic_asking {
        if in_common_area {
            dynamic_align.max(0x10)
        } else {
            0x10
        }
    } else {
        0
    }
    .max(area_align)
    .max(debug_in);
    // Each kernel's own variables, in declaration order.
    let mut own_vars: FxHashMap<SecId, Vec<usize>> = FxHashMap::default();
    for (v, var) in st.shared_vars.iter().enumerate() {
        if let SharedKind::Kernel(text) = var.kind {
            own_vars.entry(text).or_default().push(v);
        }
    }
    // Each kernel's window: its static part now, its dynamic part below.
    let mut windows: Vec<Window> = Vec::new();
    // Whether a window with bytes but no variables was laid out yet (see below).
    let mut blank_seen = false;
    for &k in &kernels {
        let text = match st.func(k).sym.map(|s| st.sym(s).section()) {
            Some(SymSection::Section(t)) => t,
            _ => continue,
        };
        let funcs = reach.get(&k).map(Vec::as_slice).unwrap_or(&[]);
        let mut used: Vec<usize> = Vec::new();
        let mut seen: FxHashSet<usize> = FxHashSet::default();
        for f in funcs {
            for &v in uses.get(f).map(Vec::as_slice).unwrap_or(&[]) {
                if seen.insert(v) {
                    used.push(v);
                }
            }
        }
        let mut start = 0u64;
        let mut private: Vec<usize> = own_vars.get(&text).cloned().unwrap_or_default();
        let own = private.len();
        let mut dynamic = Vec::new();
        let dynamic_code = dynamic_code_of(st, funcs, &uses);
        for &v in &used {
            let var = &st.shared_vars[v];
            match var.kind {
                SharedKind::Function if users[v].len() > 1 => {
                    start = start.max(var.offset.unwrap_or(0).saturating_add(var.size));
                }
                SharedKind::Function => private.push(v),
                SharedKind::Dynamic => dynamic.push(v),
                SharedKind::Kernel(_) => {}
            }
        }
        // The list nvlink sorts: own variables in declaration order, then the function
        // variables last to first in the link-wide size order (see the module notes).
        private[own..].sort_by_key(|&v| std::cmp::Reverse(size_rank[v]));
        // A window with bytes but no variables of its kernel's own (what a relocatable link
        // wrote for dynamic memory) keeps those bytes (observed: a `-r` image's 0x10-byte
        // window of a kernel with no shared memory stays 0x10, or 0x410 on sm_90; one with a
        // 4-byte variable and 0x14 bytes becomes 4). nvlink lays them out as one more
        // variable, first in the list, aligned like the input section (observed, sm_75 and
        // sm_90: after a 12-byte common area at 0x10; before a 16-byte-aligned 32-byte array
        // and after an 8-byte one; second of three or four 16-byte ties).
        // A `-g` link lays the window out afresh (observed, sm_80 and sm_90: a `-G -r` image's
        // 0x10-byte windows for dynamic memory give 0x400 and no window on sm_90).
        let (blank, blank_align) = if own == 0 && !opts.debug {
            input_size_align(st, text)
        } else {
            (0, 0)
        };
        let mut entries: Vec<Option<usize>> = Vec::with_capacity(private.len() + 1);
        if blank > 0 {
            entries.push(None);
        }
        entries.extend(private.iter().map(|&v| Some(v)));
        // Largest alignment first, then smallest size, with nvlink's (unstable) merge sort.
        let entries = list_merge_sort(&entries, |e| match *e {
            Some(v) => {
                let var = &st.shared_vars[v];
                (std::cmp::Reverse(var.align), var.size)
            }
            None => (std::cmp::Reverse(blank_align), blank),
        });
        let mut end = start;
        let mut align = if in_common_area { debug_align } else { 0 };
        for e in entries {
            let Some(v) = e else {
                let off = align_up(end, blank_align);
                // Those bytes have no symbol, so their place lands in the null symbol: the
                // first such window's, once (observed on every target: 0x80 after a 128-byte
                // common area in the first window, 0 when the first such window has no common
                // variable, whatever the later ones have).
                if !blank_seen {
                    blank_seen = true;
                    st.null_symbol_value = off;
                }
                end = off.saturating_add(blank);
                align = align.max(blank_align);
                continue;
            };
            place_in_window(&mut st.shared_vars[v], text, &mut end, &mut align);
        }
        for &v in &dynamic {
            align = align.max(st.shared_vars[v].align);
        }
        // With a common area and dynamic memory in the link, every kernel has a window, empty
        // ones included (observed; without dynamic memory an empty kernel has none; sm_90
        // `--preserve-relocs --kernels-used`: also when only left-out kernels' code names the
        // dynamic memory — other targets stop there, see `relocate::check_deleted_references`).
        // (Not a kernel `--kernels-used` or `--variables-used` leaves out, kept for its
        // address: observed on sm_75 to sm_120, no window for one reaching no shared memory.)
        let held = super::dce::unselected_kernels_held(opts)
            && !st
                .func(k)
                .sym
                .is_some_and(|s| super::dce::kernel_selected(st.sym(s).name(), opts));
        let uses_shared = !private.is_empty()
            || blank > 0
            || !dynamic.is_empty()
            || start > 0
            || (in_common_area && has_dynamic_asking && !held);
        // The empty 16-aligned window ptxas writes for each kernel of an `nvcc -ewp` object
        // whose code used dynamic memory stays, as the reserved bytes alone from sm_100 and
        // empty below (observed, final links: 0x400 on sm_100 and sm_120, 0 on sm_90; a `-g`
        // link drops it).
        let empty_input = !uses_shared
            && own == 0
            && !opts.debug
            && opts.whole_program_inputs
            && blank == 0
            && blank_align == 16;
        let uses_shared = uses_shared || empty_input;
        let only_dynamic = private.is_empty() && start == 0 && blank == 0;
        // sm_90: nvlink moves a window's variables past the reserved bytes; one with bytes
        // but no variables moves the null symbol instead (observed: 0x400 per such window of
        // a `-r` image, 0x800 for two; not on sm_100+).
        if blank > 0 && !opts.target.is_mercury() {
            st.null_symbol_value = st.null_symbol_value.wrapping_add(reserve);
        }
        windows.push(Window {
            text,
            end,
            align,
            dynamic,
            dynamic_code,
            uses_shared,
            only_dynamic,
            empty_input,
            size_order: None,
        });
    }
    // Dynamic shared memory starts where the static part ends, at one place for every kernel
    // that reaches the same code naming it (a function's code names one address): the
    // furthest end among them, which becomes each one's window (observed: a kernel with no
    // variables of its own calling a function that reads dynamic memory another kernel
    // reaches after 0x280 static bytes gets a 0x280-byte window). Kernels naming the same
    // `extern __shared__` name from different code keep their own places (observed, sm_90:
    // `SharedMemory<T>`'s name read by a kernel's own code at 0, by a function only a kernel
    // with a 4-byte variable calls at 0x10, by one a kernel with 0x558 bytes calls at 0x560).
    // A `-g` link gives each name one place, the debugger's (observed, sm_80 and sm_90: the
    // same objects linked with `-g` put all three at 0x560, and every kernel reaching the name
    // gets a window that long).
    let group_key = |code: SecId, v: usize| {
        if opts.debug {
            (None, Some(v))
        } else {
            (Some(code), None)
        }
    };
    let mut group_end: Vec<u64> = windows.iter().map(|w| w.end).collect();
    loop {
        let mut changed = false;
        let mut furthest: FxHashMap<(Option<SecId>, Option<usize>), u64> = FxHashMap::default();
        for (w, window) in windows.iter().enumerate() {
            for &(code, v) in &window.dynamic_code {
                let e = furthest.entry(group_key(code, v)).or_insert(0);
                *e = (*e).max(group_end[w]);
            }
        }
        for (w, window) in windows.iter().enumerate() {
            for &(code, v) in &window.dynamic_code {
                let e = furthest[&group_key(code, v)];
                if e > group_end[w] {
                    group_end[w] = e;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Kernels laid out as functions: their own variables only, in their own windows.
    for f in (1..st.functions.len()).map(|i| FuncId(i as u32)) {
        if !as_function(f) || st.func(f).dead || !st.func(f).is_entry {
            continue;
        }
        let Some(SymSection::Section(text)) = st.func(f).sym.map(|s| st.sym(s).section()) else {
            continue;
        };
        // Its own variables, then the function variables only its own code names (see
        // above), after the common ones it names.
        let mut own = own_vars.get(&text).cloned().unwrap_or_default();
        let own_count = own.len();
        let mut start = 0u64;
        for &v in uses.get(&f).map(Vec::as_slice).unwrap_or(&[]) {
            let var = &st.shared_vars[v];
            if var.kind != SharedKind::Function {
                continue;
            }
            if users[v].len() > 1 {
                start = start.max(var.offset.unwrap_or(0).saturating_add(var.size));
            } else {
                own.push(v);
            }
        }
        own[own_count..].sort_by_key(|&v| std::cmp::Reverse(size_rank[v]));
        let own = list_merge_sort(&own, |&v| {
            let var = &st.shared_vars[v];
            (std::cmp::Reverse(var.align), var.size)
        });
        // Aligned like the others once there is a common area (observed: 0x10 for an
        // 8-byte-aligned array).
        let (mut end, mut align) = (start, if in_common_area { debug_align } else { 0 });
        for &v in &own {
            place_in_window(&mut st.shared_vars[v], text, &mut end, &mut align);
        }
        // The dynamic memory its own code names follows (observed: at 0 in the window of
        // a left-out kernel with no static bytes).
        let dynamic: Vec<usize> = uses
            .get(&f)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .copied()
            .filter(|&v| st.shared_vars[v].kind == SharedKind::Dynamic)
            .collect();
        for &v in &dynamic {
            align = align.max(st.shared_vars[v].align);
        }
        let dynamic_code = dynamic_code_of(st, &[f], &uses);
        windows.push(Window {
            text,
            end,
            align,
            dynamic_code,
            uses_shared: !own.is_empty() || !dynamic.is_empty() || start > 0,
            only_dynamic: own.is_empty() && start == 0,
            empty_input: false,
            dynamic,
            size_order: own
                .iter()
                .filter(|&&v| st.shared_vars[v].kind == SharedKind::Function)
                .map(|&v| size_rank[v])
                .max(),
        });
    }
    let laid_out = group_end.len();
    group_end.extend(windows[laid_out..].iter().map(|w| w.end));
    let mut late: Vec<(Option<usize>, SecId, u64, u64, bool)> = Vec::new();
    for (w, window) in windows.into_iter().enumerate() {
        let Window {
            text,
            end: own_end,
            align,
            dynamic,
            dynamic_code,
            uses_shared,
            only_dynamic,
            empty_input,
            size_order,
        } = window;
        let mut end = group_end[w];
        // A window another kernel's static bytes lengthened holds more than dynamic memory
        // (observed, sm_100 `-g`: a kernel without variables whose name's place is 0x560
        // keeps its window's section symbol).
        let only_dynamic = only_dynamic && end == own_end;
        // The window reaches the start of its dynamic memory (observed: 5 static bytes and an
        // `extern __shared__` aligned 0x10 give a 0x10-byte window, 0x410 from sm_90; 0x44
        // before 32-aligned dynamic memory give 0x60 on sm_80).
        let mut dynamic_start = end;
        for &v in &dynamic {
            let var = &mut st.shared_vars[v];
            let start = align_up(end, var.align);
            // (The names' listed value: the furthest place any kernel gives them.)
            var.offset = Some(var.offset.map_or(start, |o| o.max(start)));
            dynamic_start = dynamic_start.max(start);
        }
        for &(code, v) in dynamic_code.iter().filter(|_| !opts.debug) {
            let start = align_up(end, st.shared_vars[v].align);
            st.dynamic_shared_at.insert((code, v), start);
        }
        end = dynamic_start;
        // An empty window aligned more than 16 goes (observed, sm_80: a kernel with only
        // `__align__(32)` dynamic memory has none; with 16-aligned it has an empty one).
        // From sm_100 too, whatever the reserve (observed: a kernel reaching dynamic memory
        // only, its window aligned 32 for a common area); sm_90 keeps it.
        let kept_for_reserve = reserve > 0 && !opts.target.is_mercury();
        let uses_shared = uses_shared && (kept_for_reserve || end > 0 || align <= 0x10);
        let name = format!(
            ".nv.shared.{}",
            st.sec(text).name().strip_prefix(".text.").unwrap_or("")
        );
        if let Some(sec) = st.section_by_name(&name) {
            let mut s = st.sec_mut(sec);
            *s.nodes() = NodeList::EMPTY;
            if empty_input && end == 0 && !opts.target.is_mercury() {
                *s.size() = 0;
            } else if uses_shared {
                *s.size() = reserve.saturating_add(end);
                // What the variables ask, not what ptxas gave the input section (observed: a
                // kernel with 4-byte arrays only, whose input section is aligned 0x10 for the
                // other variables of its translation unit, gets 0x4).
                if align > 0 {
                    *s.addralign() = align;
                }
            } else {
                *s.size() = 0;
                *s.removed() = true;
            }
            // sm_100+: a window holding only dynamic memory is the finalizer's, and has no
            // section symbol (observed).
            if opts.target.is_mercury() && only_dynamic {
                if let Some(sym) = st.sec(sec).symbol() {
                    st.locals.removed[sym.pos()] = true;
                }
            }
        } else if uses_shared {
            // A left-out kernel's window for the dynamic memory its code names is made after
            // the callgraph and prototype sections (observed, `--preserve-relocs`, sm_90).
            // (sm_100+: without a section symbol when it holds only dynamic memory.)
            let symbol = !opts.target.is_mercury() || !only_dynamic;
            late.push((size_order, text, reserve.saturating_add(end), align, symbol));
        }
    }
    // The link makes them largest variable first, those holding no function variable last
    // (observed, sm_90: windows of left-out kernels holding a template's 256-, 128-, 64- and
    // 16-byte arrays made in that order whatever the kernels' order).
    late.sort_by_key(|&(order, ..)| std::cmp::Reverse(order));
    st.late_windows.extend(
        late.into_iter()
            .map(|(_, text, size, align, symbol)| (text, size, align, symbol)),
    );
    // sm_100+ reserved shared memory: its variables start after the bytes
    // `.nv.reservedSmem.offset0` reserves (observed: 0x40).
    if opts.target.is_mercury() {
        let base = reserved_base(st, opts);
        layout_reserved(st, Some(base));
    }
    // Every other shared section (`.nv_debug.shared`, shared sections of removed kernels).
    for i in 1..st.sections.len() {
        let mut s = st.sections.at_mut(i);
        if *s.sh_type() == SHT_CUDA_SHARED && !s.name().starts_with(".nv.shared.") {
            *s.nodes() = NodeList::EMPTY;
            // It stays only in links with dynamic shared memory (observed: gone with function
            // variables alone, there even when no input had it), or when the link shows a
            // common area (observed, `-g` and `--preserve-relocs`, sm_90: an uncalled
            // function's barriers).
            let shown_area = opts.shows_shared_layout() && in_common_area;
            if !(has_dynamic || shown_area) {
                *s.removed() = true;
            }
            // sm_100+ writes the reserved window there too (observed on `.nv_debug.shared`),
            // and so does a `-g` link on sm_90 (0x400 bytes); a `-g` link also gives it the
            // common area of function variables (observed on sm_80: 0x80 for one 128-byte
            // array two kernels reach).
            *s.size() = if opts.shows_shared_layout() {
                reserve.saturating_add(area_end)
            } else if opts.target.is_mercury() {
                reserve
            } else {
                0
            };
            // (Not what the inputs gave it: a relocatable link's is aligned for the dynamic
            // memory, and comes back 16, observed.) Without a common area the function
            // variables do not count (observed: 16 beside an `__align__(32)` array only one
            // kernel reaches). Aligned more than 16 it goes, unless the link shows the layout
            // (observed on sm_80, sm_90 and sm_100: a common area with an `__align__(32)`
            // variable, or such a variable private to a kernel beside a common area).
            let section_align = if in_common_area {
                debug_align.max(if has_dynamic { 0x10 } else { 0 })
            } else if has_dynamic {
                0x10
            } else {
                0
            };
            if section_align > 0 {
                *s.addralign() = section_align;
            }
            if section_align > 0x10 && !opts.shows_shared_layout() {
                *s.removed() = true;
            }
            // Without a section symbol, as when it is empty (sm_100+; a `-g` link keeps it,
            // and so does `--preserve-relocs` when there is a common area: observed).
            if let Some(sym) = s.symbol() {
                let shown = opts.shows_shared_layout() && in_common_area;
                if opts.target.is_mercury() && !shown {
                    st.locals.removed[sym.pos()] = true;
                }
            }
        }
    }
}

/// The size the inputs gave the `.nv.shared.<k>` window of the kernel whose code is `text`.
fn input_size_align(st: &State<'_>, text: SecId) -> (u64, u64) {
    let name = format!(
        ".nv.shared.{}",
        st.sec(text).name().strip_prefix(".text.").unwrap_or("")
    );
    st.section_by_name(&name).map_or((0, 0), |sec| {
        let s = st.sec(sec);
        (s.size(), s.addralign())
    })
}

/// The name nvlink gives the dynamic shared memory a kernel's own code names in a relocatable
/// link.
pub const EXTERN_SHARED_INSTANCE: &str = "externsharedinstance";

/// Whether `s` is an `extern __shared__` name a relocatable link has not settled yet (an
/// undefined object marked shared, or one an earlier `-r` defined in `.nv_debug.shared`).
fn is_dynamic_name(st: &State<'_>, s: SymbolRef<'_, '_>) -> bool {
    use crate::elf::consts::{STT_FUNC, STT_SECTION};
    // (An earlier `-r`'s `externsharedinstance` is one too: observed, a `-r` of a `-r` image
    // defines it in `.nv_debug.shared` and gives the kernel a new one.)
    if s.other() & 0x40 == 0 || s.sym_type() == STT_FUNC || s.sym_type() == STT_SECTION {
        return false;
    }
    match s.section() {
        SymSection::Undef => true,
        SymSection::Section(sec) => st.sec(sec).name() == ".nv_debug.shared" && s.size() == 0,
        _ => false,
    }
}

/// The alignment an `extern __shared__` name asks of the windows of the kernels naming it:
/// its value (an alignment while undefined, however an earlier `-r` defined it); under `-g`,
/// at least 16 for one an earlier `-r -g` defined at 0 (observed, sm_80 and sm_90, `-r -g` of
/// `-r -g` images: a kernel naming such a name keeps a 0x10 window aligned 16, whatever the
/// name's first alignment; `.nv_debug.shared` 0x10; a kernel naming nothing gets none. A name
/// at 0x40 asks 64.)
///
/// Without `-g`, a name an earlier `-r -g` defined at 0 asks nothing: its value is taken
/// (see [`names_at_zero`] for the windows of the kernels naming it).
fn dynamic_alignment(st: &State<'_>, d: SymIdx, opts: &LinkOptions) -> u64 {
    let s = st.sym(d);
    match s.section() {
        SymSection::Section(_) if opts.debug => s.value().max(16),
        SymSection::Section(_) if s.value() == 0 => 0,
        _ => s.value().max(1),
    }
}

/// Whether `d` is an `extern __shared__` name an earlier `-r -g` defined at 0, in a `-r`
/// without `-g` (observed, sm_80 and sm_90, `-r` of `-r -g` images: each kernel naming such
/// names gets a 0x10 window aligned 16 with no section symbol and an `externsharedinstance`
/// of value 0, the value the names have; `.nv_debug.shared` is aligned 16 whatever its
/// input's alignment was).
fn names_at_zero(st: &State<'_>, d: SymIdx, opts: &LinkOptions) -> bool {
    let s = st.sym(d);
    !opts.debug && matches!(s.section(), SymSection::Section(_)) && s.value() == 0
}

/// The size a relocatable link gives a shared section holding `own` bytes of variables, in a
/// link whose dynamic memory and variables ask alignment `align`: the alignment's worth more
/// when they fit in it, nothing more when they do not (observed on sm_75–sm_120, `-r` of a
/// kernel with 1–256 static bytes and `extern __shared__` arrays aligned 16–128 elsewhere:
/// 4 bytes give 0x14 with 16, 0x24 with 32; 0x10 give 0x20; 0x11 give 0x11 with 16, 0x31 with
/// 32; a function's 8 bytes of `.nv_debug.shared` give 0x18).
fn relocatable_size(own: u64, align: u64) -> u64 {
    if own <= align {
        own.saturating_add(align)
    } else {
        own
    }
}

/// A relocatable link without `extern __shared__` names: a kernel's empty `.nv.shared.<k>`
/// from the input is kept, sized by [`relocatable_size`] for its own alignment (observed,
/// sm_90 to sm_120: ptxas writes an empty 16-aligned window for every kernel of an `nvcc
/// -ewp` object whose code uses dynamic shared memory, the names resolved; nvlink's `-r`
/// gives each 0x10 bytes, no section symbol).
///
/// A window with bytes but no variables (an `nvcc -ewp` object's: ptxas resolved the names)
/// sets the null symbol's value to its alignment, the first such window's in section order
/// (observed, sm_100 `-r`: 8 for windows aligned 8 then 4, 4 for 4 then 8, 8 for 8 then 1).
fn size_empty_windows(st: &mut State<'_>) {
    let mut blank_seen = false;
    let mut named: Option<Vec<bool>> = None;
    for i in 1..st.sections.len() {
        let id = SecId(i as u32);
        let s = st.sec(id);
        if s.removed() || s.sh_type() != SHT_CUDA_SHARED || !s.name().starts_with(".nv.shared.") {
            continue;
        }
        if s.size() != 0 {
            let align = s.addralign().max(1);
            // (No symbol in it but its own: `-dc` objects name their variables.) The sections
            // holding a named symbol are found once, not per window.
            let named = named.get_or_insert_with(|| {
                let mut named = vec![false; st.sections.len()];
                for v in st.locals.iter().skip(1).chain(st.globals.iter().skip(1)) {
                    if let (true, SymSection::Section(t)) =
                        (v.sym_type() != crate::elf::consts::STT_SECTION, v.section())
                    {
                        if let Some(slot) = named.get_mut(t.0 as usize) {
                            *slot = true;
                        }
                    }
                }
                named
            });
            if !blank_seen && !named[i] {
                blank_seen = true;
                st.null_symbol_value = align;
            }
            continue;
        }
        if s.addralign() != 16 {
            continue;
        }
        blank_seen = true;
        *st.sec_mut(id).size() = relocatable_size(0, 16);
        // Bytes without variables: the null symbol's value is the window's alignment, as
        // below (observed: 0x10).
        st.null_symbol_value = 16;
        // (Without a section symbol, observed.)
        if let Some(sym) = st.sec(id).symbol() {
            st.locals.removed[sym.pos()] = true;
        }
    }
}

/// A relocatable link with `extern __shared__` names (observed, nvlink 13.5, sm_75 to sm_120;
/// a link without them keeps the inputs' shared sections as they are):
/// - the names are defined in `.nv_debug.shared` (made if no input has it), their values
///   still their alignments;
/// - a kernel whose own code names dynamic memory gets a weak, internal, undefined
///   `externsharedinstance` (its value the largest alignment of the names it uses), after
///   every other symbol, one per kernel in code order, and its code's relocations against
///   the names refer to that instead (a function's keep the names);
/// - every window and `.nv_debug.shared` is aligned for the link's dynamic memory (and for
///   what it holds), and sized by [`relocatable_size`]; the window of a kernel naming dynamic
///   memory is at least twice that alignment, a whole number of it; one holding nothing of
///   its own is kept only when that alignment is 16 (and without a section symbol, unless
///   its kernel names dynamic memory).
fn size_relocatable_windows(st: &mut State<'_>, opts: &LinkOptions) {
    use crate::elf::consts::{STB_WEAK, STT_CUDA_OBJECT};
    let mut dynamic: FxHashSet<SymIdx> = FxHashSet::default();
    let mut align = 0u64;
    for g in 1..st.globals.len() {
        let Some(idx) = crate::arena::GlobalIdx::from_slot(g as u32).map(SymIdx::from) else {
            continue;
        };
        let s = st.sym(idx);
        if !s.removed() && is_dynamic_name(st, s) {
            dynamic.insert(idx);
            align = align.max(s.value().max(1));
        }
    }
    // (Only a shared section holds no bytes: one of another type under the name is damage.)
    let debug = match st.section_by_name(".nv_debug.shared") {
        Some(sec) if st.sec(sec).sh_type() == SHT_CUDA_SHARED => sec,
        _ => {
            size_empty_windows(st);
            return;
        }
    };
    if dynamic.is_empty() {
        align_windows_for_common_area(st, debug);
        return;
    }
    // The names' alignments (their values before `-g` sets them).
    let dynamic_align: FxHashMap<SymIdx, u64> = dynamic
        .iter()
        .map(|&d| (d, dynamic_alignment(st, d, opts)))
        .collect();
    for &d in &dynamic {
        let mut s = st.sym_mut(d);
        *s.section() = SymSection::Section(debug);
        // `-g` writes them at 0 (observed, sm_80 to sm_100).
        if opts.debug {
            *s.value() = 0;
        }
    }
    // Kernels (in code order) and what their own code names.
    let mut text_kernel: FxHashMap<SecId, usize> = FxHashMap::default();
    let mut kernels: Vec<(SecId, u64)> = Vec::new();
    let mut text_input: FxHashMap<SecId, usize> = FxHashMap::default();
    for f in st.functions.iter().skip(1) {
        if let (true, false, Some(sym)) = (f.is_entry, f.dead, f.sym) {
            if let SymSection::Section(t) = st.sym(sym).section() {
                text_input.insert(t, st.sym(sym).input());
                text_kernel.entry(t).or_insert_with(|| {
                    kernels.push((t, 0));
                    kernels.len() - 1
                });
            }
        }
    }
    // `-g` makes no `externsharedinstance` (observed, sm_80 to sm_100); the names a kernel's
    // code uses are kept for sizing its window (below).
    let mut names_of: FxHashMap<SecId, Vec<SymIdx>> = FxHashMap::default();
    // Kernels naming names at 0 (see [`names_at_zero`]).
    let mut at_zero: FxHashSet<SecId> = FxHashSet::default();
    for r in st.relocs.iter().filter(|r| !r.dropped) {
        let (Some(sym), Some(&k)) = (r.sym, text_kernel.get(&r.target)) else {
            continue;
        };
        if dynamic.contains(&sym) && names_at_zero(st, sym, opts) {
            at_zero.insert(kernels[k].0);
        }
        if dynamic.contains(&sym) {
            let a = dynamic_align.get(&sym).copied().unwrap_or(1);
            kernels[k].1 = kernels[k].1.max(a);
            let names = names_of.entry(kernels[k].0).or_default();
            if !names.contains(&sym) {
                names.push(sym);
            }
        }
    }
    let mut instance: FxHashMap<SecId, SymIdx> = FxHashMap::default();
    for &(text, used) in &kernels {
        if (used == 0 && !at_zero.contains(&text)) || opts.debug {
            continue;
        }
        let input = text_input.get(&text).copied().unwrap_or(0);
        let sym = Symbol::new(
            EXTERN_SHARED_INSTANCE,
            (STB_WEAK << 4) | STT_CUDA_OBJECT,
            0x41,
            used,
            0,
            input,
        );
        instance.insert(text, st.add_global(sym));
    }
    for r in st.relocs.iter_mut().filter(|r| !r.dropped) {
        if let (Some(sym), Some(&inst)) = (r.sym, instance.get(&r.target)) {
            if dynamic.contains(&sym) {
                r.sym = Some(inst);
            }
        }
    }
    st.shared_instances = instance;
    let any_at_zero = dynamic.iter().any(|&d| names_at_zero(st, d, opts));
    st.dynamic_names = dynamic;
    let held = shared_holdings(st);
    // Every window is aligned for `.nv_debug.shared`'s variables too (observed: a template's
    // `__align__(32)` array there leaves kernels without variables with no window, as any
    // alignment but 16 does).
    // (Not other kernels' own variables: observed, a 128-aligned one leaves the other
    // windows aligned 16.)
    let link_align = held_alignment(&held, debug);
    // `-g`: windows of kernels naming dynamic memory, sized once every name has its value.
    let mut named: Vec<(SecId, SecId, u64, u64)> = Vec::new();
    for &(text, used) in &kernels {
        let name = format!(
            ".nv.shared.{}",
            st.sec(text).name().strip_prefix(".text.").unwrap_or("")
        );
        let Some(sec) = st
            .section_by_name(&name)
            .filter(|&s| st.sec(s).sh_type() == SHT_CUDA_SHARED)
        else {
            // A kernel `--kernels-used` leaves out got no window from the merge; one whose
            // own code names dynamic memory gets one holding only that, with its section
            // symbol, made after `.nv.prototype` (observed, sm_80 to sm_100 `-r
            // --kernels-used`, with and without `--preserve-relocs`: its section and section
            // symbol come last). It is aligned for its own names only, not for the link's
            // dynamic memory or the common area (observed: 16 beside 64-aligned names and a
            // 32-aligned common area).
            if used > 0 && !opts.debug && st.section_by_name(&name).is_none() {
                let w = used;
                if let Some(&inst) = st.shared_instances.get(&text) {
                    *st.sym_mut(inst).value() = used;
                }
                st.late_windows.push((text, 2 * w, w, true));
            }
            continue;
        };
        let vars = held.get(&sec).map(Vec::as_slice).unwrap_or(&[]);
        let (mut own, own_align) = own_layout(vars);
        let own_align = own_align.max(link_align);
        // A window with bytes and no variables (an earlier `-r`'s) holds those bytes
        // (observed: 0x10 become 0x20 in a `-r` of a `-r` image). `-g` lays such a window
        // out afresh, as if it had none (observed, sm_80 and sm_90: 0x10 stays 0x10, 0x20
        // of a kernel naming dynamic memory become 0x10, no section symbol, the null symbol
        // left at 0).
        let bytes = st.sec(sec).size();
        let blank = if vars.is_empty() && !opts.debug {
            bytes
        } else {
            0
        };
        if vars.is_empty() {
            own = blank;
        }
        let w = align
            .max(own_align)
            .max(used)
            .max(if at_zero.contains(&text) { 0x10 } else { 0 });
        if used > 0 && opts.debug && own == 0 {
            // Sized below too, when another kernel's static bytes put the names further.
            named.push((sec, text, 0, w));
        }
        let size = if own == 0 && (used == 0 || opts.debug) {
            // (`-g`: also a kernel naming dynamic memory, observed: sm_90, a 32-aligned
            // `extern __shared__` array alone gives no window.)
            if w == 0x10 {
                w
            } else {
                0
            }
        } else if used > 0 && opts.debug {
            // `-g`: the names its code uses are written where its dynamic memory starts,
            // after its own variables (the latest such start of every kernel naming them),
            // and the window is sized by [`relocatable_size`] from the names' values (below).
            // That start is aligned for the window, not just for the names (observed, sm_80:
            // 0x24 static bytes and a 16-aligned name in a link aligned 64 give 0x40 and 0x80).
            let start = align_up(own, w);
            for &n in names_of.get(&text).map(Vec::as_slice).unwrap_or(&[]) {
                let mut s = st.sym_mut(n);
                *s.value() = (*s.value()).max(start);
            }
            named.push((sec, text, start, w));
            0
        } else if used > 0 {
            // Its dynamic memory starts after its own variables, at the alignment its
            // names ask, not before that alignment's worth (observed: 0x10 for nothing or 4
            // static bytes, 0x20 for 0x14 or 0x20, 0x30 for 0x24; names aligned 16).
            let start = used.max(align_up(own, used));
            if let Some(&inst) = st.shared_instances.get(&text) {
                *st.sym_mut(inst).value() = start;
            }
            (2 * w).max(align_up(own, w))
        } else {
            relocatable_size(own, w)
        };
        // A window with bytes but no variables sets the null symbol's value to the window's
        // alignment (observed, `-r` of `-r` images: 0x10, 0x20, 0x40; once, however many):
        // the one it came with (observed, sm_80 and sm_90, a `-r` of a `-r -g` image whose
        // names ask 0x30: 0x10 for a 0x10-byte window aligned 16, become 0x40 aligned 0x30).
        // (Not one of a kernel the merge holds, made afresh with a section symbol: observed.)
        if vars.is_empty() && blank > 0 && !st.held_windows.contains(&sec) {
            st.null_symbol_value = st.sec(sec).addralign().max(1);
        }
        let symbol = st.sec(sec).symbol();
        let mut s = st.sec_mut(sec);
        *s.size() = size;
        *s.addralign() = w;
        // (`-g`: also one whose kernel names dynamic memory, observed.)
        if (bytes == 0 || (vars.is_empty() && opts.debug)) && (used == 0 || opts.debug) {
            if let Some(sym) = symbol {
                st.locals.removed[sym.pos()] = true;
            }
        }
    }
    // `-g`: one alignment past the furthest value of the names the kernel's code uses when
    // that is at most one alignment, that value otherwise (observed, sm_90: an 8-byte
    // mbarrier and a 16-aligned name give 0x10 and 0x20; no variables give 0 and 0x10; 0x14,
    // 0x20, 0x24, 0x40, 0x44 static bytes give 0x20, 0x20, 0x30, 0x40, 0x50, alone; the
    // same three kernels linked together all get 0x50, the name's value; sm_100: 0x100 static
    // bytes give 0x100).
    // A window with no static bytes of its own whose names stay at 0 keeps the size given
    // above; when another kernel's put them further, it is sized the same way and keeps its
    // section symbol (observed, sm_90: beside 0x44 static bytes, 0x50).
    for (sec, text, start, w) in named {
        let end = names_of
            .get(&text)
            .into_iter()
            .flatten()
            .map(|&n| st.sym(n).value())
            .fold(start, u64::max);
        if end == 0 && start == 0 {
            continue;
        }
        *st.sec_mut(sec).size() = relocatable_size(end, w);
        if let Some(sym) = st.sec(sec).symbol() {
            st.locals.removed[sym.pos()] = false;
        }
    }
    // (What its variables take, not its bytes: an earlier `-r`'s 0x10 bytes with only
    // `extern __shared__` names in them stay 0x10, observed.)
    let (own, debug_align) = own_layout(held.get(&debug).map(Vec::as_slice).unwrap_or(&[]));
    let names_align = dynamic_align.values().copied().max().unwrap_or(0);
    let w = align
        .max(debug_align)
        .max(names_align)
        .max(if any_at_zero { 0x10 } else { 0 });
    let mut s = st.sec_mut(debug);
    *s.size() = relocatable_size(own, w);
    // (`-g` of a `-r -g` image: the alignment it had goes, observed: 32 becomes 16 when the
    // name it held sits at 0; so in a `-r` of one.)
    *s.addralign() = if opts.debug || any_at_zero {
        w
    } else {
        w.max(*s.addralign())
    };
}

/// What each shared section holds: (alignment, size) of its variables, in symbol order.
fn shared_holdings(st: &State<'_>) -> FxHashMap<SecId, Vec<(u64, u64)>> {
    use crate::elf::consts::STT_SECTION;
    let mut held: FxHashMap<SecId, Vec<(u64, u64)>> = FxHashMap::default();
    for array in [&st.locals, &st.globals] {
        for i in 1..array.len() {
            let s = array.at(i);
            if s.removed() || s.other() & 0x40 == 0 || s.sym_type() == STT_SECTION {
                continue;
            }
            if let SymSection::Section(sec) = s.section() {
                if st.sec(sec).sh_type() == SHT_CUDA_SHARED && s.size() > 0 {
                    held.entry(sec)
                        .or_default()
                        .push((s.value().max(1), s.size()));
                }
            }
        }
    }
    held
}

/// The largest alignment among the variables `sec` holds (0 for none).
fn held_alignment(held: &FxHashMap<SecId, Vec<(u64, u64)>>, sec: SecId) -> u64 {
    held.get(&sec)
        .into_iter()
        .flatten()
        .map(|v| v.0)
        .max()
        .unwrap_or(0)
}

/// The end of `vars` laid out largest alignment first, and their largest alignment.
fn own_layout(vars: &[(u64, u64)]) -> (u64, u64) {
    let sorted = list_merge_sort(vars, |&(a, size)| (std::cmp::Reverse(a), size));
    let end = sorted.iter().fold(0u64, |end, &(a, size)| {
        align_up(end, a).saturating_add(size)
    });
    let max_align = vars.iter().map(|v| v.0).max().unwrap_or(0);
    (end, max_align)
}

/// A relocatable link with a common area (`.nv_debug.shared`) but no `extern __shared__`
/// names: a kernel's window whose own variables are aligned less strictly than the common
/// area's is aligned like the common area and sized by [`relocatable_size`] (observed, sm_80
/// to sm_100: 0x14 bytes aligned 4 stay 0x14 under a 16-aligned area, become 0x34 under a
/// 32-aligned one); other windows stay as the inputs have them.
fn align_windows_for_common_area(st: &mut State<'_>, debug: SecId) {
    let held = shared_holdings(st);
    let link_align = held_alignment(&held, debug);
    for (&sec, vars) in &held {
        if sec == debug {
            continue;
        }
        let (own, own_align) = own_layout(vars);
        if own_align >= link_align {
            continue;
        }
        let mut s = st.sec_mut(sec);
        *s.size() = relocatable_size(own, link_align);
        *s.addralign() = link_align;
    }
}

/// A kernel's shared window between its static layout and its dynamic part.
struct Window {
    /// The kernel's text section.
    text: SecId,
    /// End of its static variables.
    end: u64,
    /// Alignment of the window.
    align: u64,
    /// Dynamic variables it reaches.
    dynamic: Vec<usize>,
    /// The code sections it reaches that name dynamic memory, with the variable each names.
    dynamic_code: Vec<(SecId, usize)>,
    /// Whether it has a window at all.
    uses_shared: bool,
    /// Whether it holds only dynamic memory.
    only_dynamic: bool,
    /// Whether it is kept only as the empty window of an `nvcc -ewp` object.
    empty_input: bool,
    /// A left-out kernel's: the largest place in the link-wide size order of the function
    /// variables it holds (orders the windows the link makes for such kernels).
    size_order: Option<usize>,
}

/// The code sections among `funcs` that name dynamic shared memory, with the variables named.
fn dynamic_code_of(
    st: &State<'_>,
    funcs: &[FuncId],
    uses: &FxHashMap<FuncId, Vec<usize>>,
) -> Vec<(SecId, usize)> {
    let mut out = Vec::new();
    for &f in funcs {
        let Some(SymSection::Section(code)) = st.func(f).sym.map(|s| st.sym(s).section()) else {
            continue;
        };
        for &v in uses.get(&f).map(Vec::as_slice).unwrap_or(&[]) {
            if st.shared_vars[v].kind == SharedKind::Dynamic {
                out.push((code, v));
            }
        }
    }
    out
}

/// nvlink's sort of a linked list (observed through layouts, not read from its code): deal
/// the nodes alternately onto two lists, each built by prepending (the first, third, ...
/// node onto one, the second, fourth, ... onto the other), sort both the same way, then
/// merge them, taking from the second list only when its head is strictly smaller. Not
/// stable: with all keys equal, `0..8` comes out as `[2, 6, 0, 4, 3, 7, 1, 5]`.
pub(super) fn list_merge_sort<T: Copy, K: Ord>(
    items: &[T],
    key: impl Fn(&T) -> K + Copy,
) -> Vec<T> {
    if items.len() <= 1 {
        return items.to_vec();
    }
    let first: Vec<T> = items.iter().step_by(2).rev().copied().collect();
    let second: Vec<T> = items.iter().skip(1).step_by(2).rev().copied().collect();
    let first = list_merge_sort(&first, key);
    let second = list_merge_sort(&second, key);
    let mut out = Vec::with_capacity(items.len());
    let (mut i, mut j) = (0, 0);
    while i < first.len() && j < second.len() {
        if key(&second[j]) < key(&first[i]) {
            out.push(second[j]);
            j += 1;
        } else {
            out.push(first[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&first[i..]);
    out.extend_from_slice(&second[j..]);
    out
}

/// The functions `root` reaches (itself included). `seen` is all false on entry and on exit,
/// so one buffer serves every kernel without clearing the whole of it.
/// [`reachable`], where code making an indirect call reaches every address-taken function
/// too (observed, sm_80/sm_90: two kernels calling through a `__device__` table of functions
/// reading dynamic shared memory share one start for it, the furthest static end of the two,
/// in the table's functions and in the kernels' own code).
fn reachable_through_pointers(st: &State<'_>, root: FuncId, seen: &mut [bool]) -> Vec<FuncId> {
    let mut order = Vec::new();
    let mut stack = vec![root];
    let mut pointers_followed = false;
    while let Some(f) = stack.pop() {
        if std::mem::replace(&mut seen[f.0 as usize], true) {
            continue;
        }
        order.push(f);
        stack.extend(st.func(f).callees.iter().copied());
        if !pointers_followed && st.indirect_calls.iter().any(|&(g, _)| g == f) {
            pointers_followed = true;
            stack.extend(
                (1..st.functions.len())
                    .rev()
                    .map(|i| FuncId(i as u32))
                    .filter(|&g| st.func(g).address_taken && !st.func(g).is_entry),
            );
        }
    }
    for f in &order {
        seen[f.0 as usize] = false;
    }
    order
}

pub(super) fn reachable(st: &State<'_>, root: FuncId, seen: &mut [bool]) -> Vec<FuncId> {
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(f) = stack.pop() {
        if std::mem::replace(&mut seen[f.0 as usize], true) {
            continue;
        }
        order.push(f);
        stack.extend(st.func(f).callees.iter().copied());
    }
    for f in &order {
        seen[f.0 as usize] = false;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::list_merge_sort;

    /// nvlink 13.5's layout of n equal `__shared__ int[32]` arrays of one kernel, as indices
    /// into the kernel's symbol order (sm_80, observed with nvdisasm).
    #[test]
    fn equal_keys_follow_nvlink() {
        let seen: &[&[usize]] = &[
            &[0, 1],
            &[2, 0, 1],
            &[2, 0, 3, 1],
            &[0, 4, 2, 3, 1],
            &[0, 4, 2, 1, 5, 3],
            &[2, 6, 0, 4, 1, 5, 3],
            &[2, 6, 0, 4, 3, 7, 1, 5],
            &[8, 0, 4, 2, 6, 3, 7, 1, 5],
            &[8, 0, 4, 2, 6, 9, 1, 5, 3, 7],
            &[10, 2, 6, 8, 0, 4, 9, 1, 5, 3, 7],
            &[10, 2, 6, 8, 0, 4, 11, 3, 7, 9, 1, 5],
            &[8, 0, 12, 4, 10, 2, 6, 11, 3, 7, 9, 1, 5],
            &[8, 0, 12, 4, 10, 2, 6, 9, 1, 13, 5, 11, 3, 7],
            &[10, 2, 14, 6, 8, 0, 12, 4, 9, 1, 13, 5, 11, 3, 7],
            &[10, 2, 14, 6, 8, 0, 12, 4, 11, 3, 15, 7, 9, 1, 13, 5],
        ];
        for want in seen {
            let items: Vec<usize> = (0..want.len()).collect();
            assert_eq!(list_merge_sort(&items, |_| 0), *want);
        }
    }

    #[test]
    fn sorts() {
        let items = [5u32, 3, 9, 1, 3, 7, 0, 2];
        let mut want = items.to_vec();
        want.sort();
        assert_eq!(list_merge_sort(&items, |&x| x), want);
    }
}
