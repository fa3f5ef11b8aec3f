//! Finalize: everything between the merged state and the bytes — symbol clean-up, entry
//! properties, the linker-made sections, section and symbol numbering, string tables.

use super::merge::{
    EIATTR_CRS_STACK_SIZE, EIATTR_FRAME_SIZE, EIATTR_MAX_STACK_SIZE, EIATTR_MIN_STACK_SIZE,
    EIATTR_REGCOUNT, EIFMT_SVAL,
};
use super::state::*;
use super::{InputObject, LinkOptions};
use crate::arena::{SymIdx, SymKind};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::elf::consts::*;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// `STT_CUDA_OBJECT`.
const STT_CUDA_OBJECT: u8 = 13;

/// The bytes of `.nv.rel.action` in every sm_75–sm_90 final link seen.
const REL_ACTION: [u8; 16] = [
    0x73, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36,
];

/// Creates the sections every image starts with, in nvlink's creation order.
pub fn create_standard_sections(st: &mut State<'_>, opts: &LinkOptions) {
    let _ = opts;
    for (name, t, align, entsize) in [
        (".shstrtab", SHT_STRTAB, 1, 0),
        (".strtab", SHT_STRTAB, 1, 0),
        (".symtab", SHT_SYMTAB, 8, 24),
        (".symtab_shndx", SHT_SYMTAB_SHNDX, 4, 4),
    ] {
        let mut s = new_section(name, t, 0, align, entsize);
        s.role = SecRole::Synthetic;
        if t == SHT_SYMTAB_SHNDX {
            s.link = Link::Symtab;
        }
        st.create_section(s, false);
    }
    for (name, flags) in [
        (".note.nv.tkinfo", 0x0200_0000u64),
        (".note.nv.cuinfo", 0x0100_0000),
    ] {
        let mut s = new_section(name, SHT_NOTE, flags, 4, 0);
        s.role = SecRole::Synthetic;
        let id = st.create_section(s, false);
        add_section_symbol(st, id);
    }
    let mut info = new_section(".nv.info", SHT_CUDA_INFO, 0, 4, 0);
    info.role = SecRole::Synthetic;
    info.link = Link::Symtab;
    st.create_section(info, false);
}

/// Adds `.nv.compat` (created right after `.nv.info` when the inputs carry one).
pub fn create_compat_section(st: &mut State<'_>) {
    // `.note.nv.cuinfo` then points at it through sh_info.
    if let Some(cu) = st.section_by_name(".note.nv.cuinfo") {
        *st.sec_mut(cu).flags() |= SHF_INFO_LINK;
    }
    let mut compat = new_section(".nv.compat", SHT_CUDA_COMPAT, 0, 4, 0);
    compat.role = SecRole::Synthetic;
    st.create_section(compat, false);
}

fn add_section_symbol(st: &mut State<'_>, id: SecId) {
    let name = st.sec(id).name();
    let sym = st.add_local(Symbol::for_section(name, id, usize::MAX), false);
    *st.sec_mut(id).symbol() = sym.as_local();
}

/// Names the driver or device runtime provides, so nvlink does not report them undefined.
/// The driver-provided size of an independent-mode sampler descriptor (`texmode_independent`
/// PTX; ptxas declares it weak and undefined).
pub(super) const SAMPLERREF_DESC_SIZE: &str = ".nv.independent.samplerrefDescSize";

pub(super) fn provided_externally(name: &str) -> bool {
    name.starts_with("__cuda_syscall")
        || name == SAMPLERREF_DESC_SIZE
        || matches!(
            name,
            "vprintf" | "malloc" | "free" | "__assertfail" | "__nv_reservedSMEM_offset_0_alias"
        )
        || DRIVER_SERVICES.contains(&name)
        || name.starts_with(".nv.reservedSmem")
        || is_unified_table_symbol(name)
}

/// Device-runtime services ptxas calls through their own prototypes and the driver binds at
/// load time: nvlink leaves them undefined without a complaint (observed, exact names only:
/// `cudaGraphLaunch` from a kernel links without libcudadevrt, `cudaGraphLaunchX`,
/// `cnpFoo` or `calloc` are undefined references).
const DRIVER_SERVICES: &[&str] = &[
    "vfprintf",
    "__profile",
    "cnpGetParameterBuffer",
    "cnpLaunchDevice",
    "cnpCtxSynchronize",
    "cnpFuncGetAttribute",
    "cnpStreamCreate",
    "cnpStreamDestroy",
    "cnpStreamWaitEvent",
    "cnpEventCreate",
    "cnpEventRecord",
    "cnpEventDestroy",
    "cnpDeviceGetName",
    "cnpDeviceGetAttribute",
    "cnpGetDeviceCount",
    "cnpGetDevice",
    "cnpGetLastError",
    "cnpSetLastError",
    "cnpGetCacheConfig",
    "cnpGetSharedMemConfig",
    "cnpGetLimit",
    "cnpDeviceGetTotalMem",
    "cnpGetParameterBufferV2",
    "cnpLaunchDeviceV2",
    "cudaGraphLaunch",
    "cudaGraphSetConditional",
    "cudaGraphKernelNodeSetParam",
    "cudaGraphKernelNodeSetGridDim",
    "cudaGraphKernelNodeSetEnabled",
    "cudaGraphKernelNodeUpdatesApply",
    "cudaFabricOpErrorStatusCount",
    "cudaFabricOpErrorStatusGet",
    "cudaResizeSharedMemory",
    "cudaDeviceMemcpyAsync",
    "cudaDeviceMemcpyBatchAsync",
    "cudaSubgridSynchronousWorkspaceInitialize",
    "cudaSubgridSynchronousWorkspaceCompleteAndFetchWorkItem",
    "cudaSubgridSynchronousWorkspaceAdvanceWorkset",
];

/// The unified function/descriptor table symbols every `-dc` object declares (weak, undefined);
/// a `-r` image declares them global.
pub(crate) fn is_unified_table_symbol(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix("__UFT")
        .or_else(|| name.strip_prefix("__UDT"))
    else {
        return false;
    };
    matches!(rest, "" | "_OFFSET" | "_CANONICAL" | "_END")
}

/// A kernel compiled under a register limit (`EIATTR_MAXREG_COUNT`, from `-maxrregcount`) may
/// not call a function that uses more registers (observed: an error per such direct callee,
/// with the callee's own count; kernels newest first, callees in the order their calls were
/// recorded).
pub fn check_register_limits(st: &State<'_>, opts: &LinkOptions, diags: &mut Diagnostics) {
    if opts.relocatable {
        return;
    }
    let info = info_sections(st);
    // One visit mark per function, numbered by walk (each capped kernel walks its reach once:
    // no per-kernel table as long as the function list).
    let mut visited = Vec::new();
    // (The walk's stack and its list of callees are reused from kernel to kernel.)
    let mut stack = Vec::new();
    let mut callees: Vec<FuncId> = Vec::new();
    let mut walk = 0u32;
    for (k, f) in st.functions.iter().enumerate().skip(1).rev() {
        let (true, false, Some(ksym)) = (f.is_entry, f.dead, f.sym) else {
            continue;
        };
        let limit = info[k]
            .and_then(|sec| st.section_info.get(&sec))
            .and_then(|rs| {
                rs.iter()
                    .find(|r| r.attr == EIATTR_MAXREG_COUNT && !r.dropped)
            })
            .and_then(|r| r.payload.get(..2))
            .map(|b| u32::from(u16::from_le_bytes([b[0], b[1]])));
        let Some(limit) = limit else { continue };
        // Callees in the order they were defined; each error raises the bar, so a callee
        // using fewer registers than one already reported passes (observed: with `h` (76
        // registers) defined before `mid` (70), only `h` is reported; defined after, both).
        // Every function the kernel can reach, not only its direct callees (observed: a
        // `-maxrregcount=24` kernel calling `mid` (24) which calls another TU's `leaf` (61) is
        // refused naming `leaf`; nvlink pushes counts up the call graph to the kernels).
        walk += 1;
        reachable_callees(
            st,
            FuncId(k as u32),
            (&mut visited, walk),
            &mut stack,
            &mut callees,
        );
        callees.sort_by_key(|&c| definition_order(st, c.0 as usize));
        let mut bar = limit;
        for &c in &callees {
            let Some(csym) = st.func(c).sym else { continue };
            let Some(&regs) = st.regcounts.get(&csym) else {
                continue;
            };
            if regs > bar {
                bar = regs;
                diags.push(
                    Diagnostic::new(
                        Severity::Error,
                        format!(
                            "entry function '{}' with max regcount of {limit} calls function '{}' with regcount of {regs}",
                            st.sym(ksym).name(),
                            st.sym(csym).name()
                        ),
                    )
                    .about_symbol(st.sym(ksym).name()),
                );
            }
        }
    }
}

/// Puts in `out` (cleared first) the functions `from` can reach through the call graph
/// (itself only when a call leads back to it), each once, in the order a depth-first walk
/// meets them. `visited` holds, per function, the number of the last walk that met it; `walk`
/// is this walk's (nonzero, new); `stack` is the walk's scratch.
fn reachable_callees(
    st: &State<'_>,
    from: FuncId,
    (visited, walk): (&mut Vec<u32>, u32),
    stack: &mut Vec<FuncId>,
    out: &mut Vec<FuncId>,
) {
    visited.resize(st.functions.len(), 0);
    out.clear();
    stack.clear();
    stack.extend(st.func(from).callees.iter().rev().copied());
    while let Some(c) = stack.pop() {
        let Some(slot) = visited.get_mut(c.0 as usize) else {
            continue;
        };
        if std::mem::replace(slot, walk) == walk {
            continue;
        }
        out.push(c);
        stack.extend(st.func(c).callees.iter().rev().copied());
    }
}

/// `EIATTR_MAXREG_COUNT`: the register limit a kernel was compiled under.
const EIATTR_MAXREG_COUNT: u8 = 0x1b;

/// `EIATTR_TOOLS_PATCH_FUNC`: ptxas compiled the function as patch code for CUDA tools.
const EIATTR_TOOLS_PATCH_FUNC: u8 = 0x4b;

/// `-astoolspatch`: every function must be patch code (its `.nv.info.<f>` holds
/// `EIATTR_TOOLS_PATCH_FUNC`). The first one that is not, in the order the link met them,
/// is fatal (observed: checked after all inputs are merged, before undefined references;
/// a plain kernel or device function alike).
pub fn check_tools_patch(st: &State<'_>, opts: &LinkOptions) -> Result<(), super::LinkError> {
    if !opts.tools_patch {
        return Ok(());
    }
    let info = info_sections(st);
    for (f, sec) in st.functions.iter().zip(&info).skip(1) {
        let Some(sym) = f.sym else { continue };
        let patch = sec
            .and_then(|s| st.section_info.get(&s))
            .is_some_and(|rs| rs.iter().any(|r| r.attr == EIATTR_TOOLS_PATCH_FUNC));
        let s = st.sym(sym);
        // (A function only called, never defined, is the undefined references' business.)
        if patch || f.dead || !s.is_defined() {
            continue;
        }
        let file = opts.input_names.get(s.input()).cloned().unwrap_or_default();
        return Err(super::LinkError::Fatal(
            Diagnostic::new(
                Severity::Fatal,
                format!(
                    "Function '{}' in '{}' is missing EIATTR_TOOLS_PATCH_FUNC attribute \
                     required by -astoolspatch option",
                    s.name(),
                    file
                ),
            )
            .in_file(file)
            .about_symbol(s.name()),
        ));
    }
    Ok(())
}

/// Most static shared memory a kernel may use (48 KiB on every target).
const SHARED_DATA_MAX: u64 = 0xc000;

/// Reports kernels whose shared window, past the bytes nvlink reserves, is longer than
/// 48 KiB (nvlink: `Entry function '%s' uses too much shared data (0x%x bytes, 0x%x max)`, an
/// error, in kernel order; observed on sm_75 to sm_120: 0xc000 bytes link, 0xc004 do not,
/// whether the kernel's own variables or its callees' make them up). Only live kernels count:
/// one dead-code elimination removed is not checked (a plain link of a kernel the host code
/// does not launch passes, the same objects linked with `-g` do not).
pub fn check_shared_limits(st: &State<'_>, opts: &LinkOptions, diags: &mut Diagnostics) {
    if opts.relocatable {
        return;
    }
    let reserve = super::shared::reserved_bytes(opts);
    for (_, sym) in kernel_entries(st, opts) {
        let name = st.sym(sym).name();
        let Some(window) = st.section_by_name(&format!(".nv.shared.{name}")) else {
            continue;
        };
        let window = st.sec(window);
        if window.removed() {
            continue;
        }
        let used = window.size().saturating_sub(reserve);
        if used > SHARED_DATA_MAX {
            diags.push(
                Diagnostic::new(
                    Severity::Error,
                    format!(
                        "Entry function '{name}' uses too much shared data ({used:#x} bytes, \
                         {SHARED_DATA_MAX:#x} max)"
                    ),
                )
                .about_symbol(name),
            );
        }
    }
}

/// Reports undefined references (nvlink: `Undefined reference to '%s' in '%s'`, an error).
pub fn check_undefined(st: &State<'_>, opts: &LinkOptions, diags: &mut Diagnostics) {
    if opts.relocatable {
        return;
    }
    for g in st.globals.iter().skip(1) {
        // Texture, sampler and surface references (types 10..=12) and dynamic shared memory
        // (`extern __shared__`, st_other 0x40) are bound by the driver or the shared-memory
        // layout, not by a definition.
        let bound_elsewhere = (10..=12).contains(&g.sym_type()) || g.other() & 0x40 != 0;
        // What only a system library (libcudadevrt) refers to may stay undefined (observed:
        // under `-g` its CDP1 functions keep their `cnp*` references, and nvlink links; a
        // user object's undefined function is an error with or without `-g`).
        let from_system = opts.system_library.get(g.input()).copied().unwrap_or(false);
        if from_system
            || g.removed()
            || g.is_defined()
            || g.binding() == STB_WEAK
            || provided_externally(g.name())
            || bound_elsewhere
        {
            continue;
        }
        let file = opts.input_names.get(g.input()).cloned().unwrap_or_default();
        diags.push(
            Diagnostic::new(
                Severity::Error,
                format!("Undefined reference to '{}' in '{}'", g.name(), file),
            )
            .in_file(file)
            .about_symbol(g.name()),
        );
    }
}

/// The bytes of the sections the linker builds itself, by creation id (a section is looked up
/// by its id, not hashed: a large link has tens of thousands of them).
#[derive(Clone, Debug, Default)]
pub struct Contents {
    bytes: Vec<Option<Vec<u8>>>,
}

impl Contents {
    /// Room for sections of creation ids below `sections`.
    pub fn new(sections: usize) -> Contents {
        Contents {
            bytes: std::iter::repeat_with(|| None).take(sections).collect(),
        }
    }

    /// Section `id`'s bytes, when the linker builds them.
    pub fn get(&self, id: &SecId) -> Option<&Vec<u8>> {
        self.bytes.get(id.index())?.as_ref()
    }

    /// Sets section `id`'s bytes.
    pub fn insert(&mut self, id: SecId, bytes: Vec<u8>) {
        if id.index() >= self.bytes.len() {
            self.bytes.resize_with(id.index() + 1, || None);
        }
        self.bytes[id.index()] = Some(bytes);
    }

    /// Every section with bytes, in creation order.
    pub fn iter(&self) -> impl Iterator<Item = (SecId, &Vec<u8>)> + '_ {
        self.bytes
            .iter()
            .enumerate()
            .filter_map(|(i, b)| Some((SecId(i as u32), b.as_ref()?)))
    }
}

/// What the emitter needs: the final order and numbering, and the bytes of every section the
/// linker builds itself.
pub struct Finalized {
    /// Sections in output order (the null section excluded).
    pub order: Vec<SecId>,
    /// Output index of each section (by creation id); 0 when it is not in the image.
    pub out_index: Vec<u32>,
    /// Bytes of synthetic sections, by creation id.
    pub contents: Contents,
    /// `sh_name` of each output section, by creation id.
    pub name_offset: Vec<u32>,
    /// Final `sh_link`/`sh_info` values, by creation id.
    pub link_info: Vec<(u32, u32)>,
    /// Final section types, by creation id.
    pub out_type: Vec<u32>,
    /// The output symbol numbering.
    pub symbols: SymbolNumbers,
    /// sm_100+: `st_name` of each `.nv.merc.symtab` entry (after the null one).
    pub merc_names: Vec<u32>,
}

/// Runs the finalization steps.
pub fn finalize(
    st: &mut State<'_>,
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
    diags: &mut Diagnostics,
) -> Finalized {
    let _ = diags;
    clean_symbols(st, opts);
    let callgraph = create_trailing_section(st, ".nv.callgraph", SHT_CUDA_CALLGRAPH, 4, 8);
    let prototype = create_trailing_section(st, ".nv.prototype", SHT_CUDA_PROTOTYPE, 4, 8);
    for (text, size, align, symbol) in std::mem::take(&mut st.late_windows) {
        let kernel = st.sec(text).name().strip_prefix(".text.").unwrap_or("");
        let name = st.make_name(&[".nv.shared.", kernel]);
        let mut sec = new_section(
            name,
            SHT_CUDA_SHARED,
            SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK,
            align,
            0,
        );
        sec.info = Link::Section(text);
        sec.size = size;
        let id = st.create_section(sec, false);
        // (sm_100+: as any window holding only dynamic memory, without a section symbol.)
        if symbol {
            add_section_symbol(st, id);
        }
    }
    // (After the windows made late: a left-out kernel's own arrays go there.)
    if opts.debug || opts.preserve_relocs {
        place_shared_symbols(st, opts);
    }
    super::const_bank2::create_new_banks(st, opts);
    let rel_action = (!opts.target.is_mercury() && !opts.relocatable)
        .then(|| create_trailing_section(st, ".nv.rel.action", SHT_CUDA_RELOCINFO, 8, 8));
    let merc = opts.target.is_mercury();

    // `.shstrtab` (the name of every section ever made), below sm_100 `.strtab` (the interned
    // strings and the names in the order they were made), the notes, and which sections have
    // relocations left depend on nothing entry properties change: another core builds the two
    // string tables meanwhile, from copies of the columns they read (the name orders are lent
    // to it and come back); this one then counts the relocations (kept out of the state
    // meanwhile) and writes the notes.
    let names = st.sections.name.clone();
    let name_removed = st.sections.name_removed.clone();
    let first_named = st.first_named.clone();
    let interned = std::mem::take(&mut st.interned);
    let local_order = std::mem::take(&mut st.local_name_order);
    let global_order = std::mem::take(&mut st.global_name_order);
    let relocs = std::mem::take(&mut st.relocs);
    let merged: Vec<&InputObject<'_>> = st.merged_inputs.iter().map(|&i| &inputs[i]).collect();
    let from_ptx: Vec<bool> = st
        .merged_inputs
        .iter()
        .map(|&i| opts.compiled_ptx.get(i).copied().unwrap_or(false))
        .collect();
    let has_compat = st.section_by_name(".nv.compat").is_some();
    let has_kernel = st
        .functions
        .iter()
        .any(|f| f.is_entry && !f.dead && !f.demoted && f.sym.is_some());
    let sections_before = names.len();
    let (fin, sym_out, early) = std::thread::scope(|scope| {
        // (The string tables are the larger half: the relocation counts and the notes are made
        // here once entry properties are done.)
        let early = scope.spawn(move || {
            let named_sections = name_removed.iter().skip(1).filter(|&&r| !r).count();
            let (shstrtab, name_offset) = build_shstrtab(&names, &name_removed, &first_named);
            let strtab = (!merc)
                .then(|| build_strtab(&interned, &local_order, &global_order, &name_removed));
            (
                named_sections,
                (shstrtab, name_offset, strtab),
                (interned, local_order, global_order),
            )
        });
        entry_properties(st, opts);
        let reloc_counts = relocation_counts(&relocs, sections_before);
        let notes = (
            tkinfo(&merged, &from_ptx, opts),
            cuinfo(inputs, opts),
            has_compat.then(|| compat(&merged, has_kernel, opts)),
        );
        st.relocs = relocs;
        let (named_sections, tables, lent) = early
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (st.interned, st.local_name_order, st.global_name_order) = lent;
        let used = (reloc_counts, named_sections);

        // Sizes of synthetic sections decide which survive; compute what does not depend on
        // numbering first.
        let mut fin = Finalized {
            order: Vec::new(),
            out_index: vec![0; st.sections.len()],
            contents: Contents::default(),
            name_offset: Vec::new(),
            link_info: vec![(0, 0); st.sections.len()],
            out_type: vec![0; st.sections.len()],
            symbols: SymbolNumbers::default(),
            merc_names: Vec::new(),
        };
        let (reloc_counts, named_sections) = used;
        mark_empty_sections(
            st,
            (callgraph, prototype),
            (&reloc_counts, named_sections),
            opts,
        );
        order_sections(st, &mut fin, opts);
        let sym_out = number_symbols(st, opts);
        // sm_100+: the SASS `.debug_frame` loses the entries of functions not in the image.
        if merc {
            prune_debug_frame(st, inputs);
        }
        // sm_100+: pruning `.debug_frame` drops relocations: they are counted again.
        let reloc_counts = (!merc).then_some(reloc_counts);
        (fin, sym_out, (notes, tables, reloc_counts))
    });
    let ((tkinfo, cuinfo, compat), (shstrtab, name_offset, strtab), counts) = early;
    let mut fin = fin;
    fin.name_offset = name_offset;
    let (strtab, owners, strings, merc_names) = match strtab {
        Some((t, o, owners)) => ((t, o), owners, FxHashMap::default(), Vec::new()),
        None => {
            let (t, o, strings, names) = build_merc_strtab(st, &sym_out);
            ((t, o), NameOffsets::default(), strings, names)
        }
    };
    let (relocs, sections, nums) = (&st.relocs, &st.sections, &sym_out);
    let view: &State<'_> = st;
    let mut contents = Contents::new(st.sections.len());
    let relocation_bytes = std::thread::scope(|scope| {
        let st = view;
        // The relocation sections need only the numbering: another core builds them while
        // this one builds the symbol table and the `.nv.info` sections.
        let other = scope.spawn(move || relocation_sections(relocs, sections, nums, opts, counts));
        // Synthetic contents.
        contents.insert(SecId(1), shstrtab);
        let (symtab, shndx) = build_symtab(
            st,
            &fin.out_index,
            &sym_out,
            (&strtab.0, &strtab.1, &owners),
        );
        contents.insert(SecId(2), strtab.0);
        contents.insert(SecId(3), symtab);
        if let Some(x) = st
            .section_by_name(".symtab_shndx")
            .filter(|&x| !st.sec(x).removed())
        {
            contents.insert(x, shndx);
        }
        contents.insert(st.section_by_name(".note.nv.tkinfo").unwrap(), tkinfo);
        contents.insert(st.section_by_name(".note.nv.cuinfo").unwrap(), cuinfo);
        if let (Some(c), Some(compat)) = (st.section_by_name(".nv.compat"), compat) {
            contents.insert(c, compat);
        }
        let syms = st.symbol_view();
        contents.insert(
            st.section_by_name(".nv.info").unwrap(),
            info_bytes(
                syms,
                st.info.iter().rev().chain(st.info_tail.iter()),
                &sym_out,
            ),
        );
        // Every `.nv.info.<f>`, on all cores (each section's bytes depend only on its records).
        let empty = Vec::new();
        let mut per_function: Vec<(SecId, &Vec<InfoRecord<'_>>)> = st.section_info.iter().collect();
        // In creation order: the records, their symbols and their input bytes then come roughly
        // in the order merge made them, not scattered by the hash map's order (a large link's
        // records are far bigger than the caches).
        per_function.sort_unstable_by_key(|&(sec, _)| sec);
        let (section_info_tail, sass_info_tail) = (&st.section_info_tail, &st.sass_info_tail);
        let built: Vec<(SecId, Vec<u8>)> = per_function
            .into_par_iter()
            .map(|(sec, records)| {
                let tail = section_info_tail.get(&sec).unwrap_or(&empty);
                // sm_100+: the finalizer's own records follow in their input order.
                let finalizer = sass_info_tail.get(&sec).unwrap_or(&empty);
                let records = records
                    .iter()
                    .rev()
                    .chain(tail.iter())
                    .chain(finalizer.iter());
                (sec, info_bytes(syms, records, &sym_out))
            })
            .collect();
        for (sec, bytes) in built {
            contents.insert(sec, bytes);
        }
        contents.insert(callgraph, callgraph_bytes(st, &sym_out, &strings));
        contents.insert(prototype, prototype_bytes(st, &sym_out, &strings));
        other
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    if let Some(&d) = st.section_by_name(".debug_frame").as_ref() {
        if let Some(bytes) = st.pruned_debug_frame.take() {
            contents.insert(d, bytes);
        }
    }
    if let Some(ra) = rel_action {
        contents.insert(ra, REL_ACTION.to_vec());
    }
    for (id, bytes) in relocation_bytes {
        contents.insert(id, bytes);
    }
    for (i, s) in st.sections.iter().enumerate() {
        if s.keep_empty() && !s.removed() {
            let id = SecId(i as u32);
            if contents.get(&id).is_none() {
                contents.insert(id, Vec::new());
            }
        }
    }
    for (id, bytes) in contents.iter() {
        st.sections.size[id.index()] = bytes.len() as u64;
    }
    // Header fields that refer to other sections or symbols.
    for i in 1..st.sections.len() {
        let s = st.sections.at(i);
        let resolve = |l: Link| -> u32 {
            match l {
                Link::None => 0,
                Link::Value(v) => v,
                Link::Section(id) => fin.out_index[id.index()],
                Link::Symtab => fin.out_index[3],
                Link::Symbol { sym, high } => sym_out.get(sym) | ((high as u32) << 24),
            }
        };
        let mut link = resolve(s.link());
        let mut info = resolve(s.info());
        if i == 3 {
            link = fin.out_index[2];
            info = sym_out.symtab_info;
        }
        if s.name() == ".note.nv.cuinfo" {
            link = fin.out_index[st.section_by_name(".note.nv.tkinfo").unwrap().index()];
            if let Some(c) = st.section_by_name(".nv.compat") {
                info = fin.out_index[c.index()];
            }
        }
        fin.link_info[i] = (link, info);
        fin.out_type[i] = output_type(s.sh_type(), opts);
    }
    fin.contents = contents;
    fin.symbols = sym_out;
    fin.merc_names = merc_names;
    fin
}

fn output_type(t: u32, opts: &LinkOptions) -> u32 {
    if opts.relocatable {
        return t;
    }
    match t {
        SHT_CUDA_GLOBAL | SHT_CUDA_SHARED | SHT_CUDA_LOCAL | SHT_CUDA_SHARED_RESERVED => SHT_NOBITS,
        SHT_CUDA_GLOBAL_INIT => SHT_PROGBITS,
        t if super::merge::is_constant_bank(t) => SHT_PROGBITS,
        t => t,
    }
}

/// In `-g` and `--preserve-relocs` links shared variables stay in the symbol table, in their
/// shared section, at their place in the window (reserved bytes included).
fn place_shared_symbols(st: &mut State<'_>, opts: &LinkOptions) {
    let reserve = super::shared::reserved_bytes(opts);
    // `--preserve-relocs` lists `extern __shared__` names only when the layout has a
    // common area (observed, sm_90: `--kernels-used` of the one kernel reaching a function's
    // array leaves them out; of a kernel reaching nothing, with that function's array then
    // in the common area, lists them).
    let lists = opts.lists_dynamic_shared() && (opts.debug || st.shared_common_area);
    let debug_shared = lists
        .then(|| st.section_by_name(".nv_debug.shared"))
        .flatten();
    // `-g` does not list a `-r` image's `externsharedinstance` (observed, sm_80 to sm_100:
    // its names are listed, the instance is not; `--preserve-relocs` on sm_90 lists it).
    let unlisted_instance = |st: &State<'_>, i: usize| {
        opts.debug
            && !opts.relocatable
            && st.globals.name[i] == super::shared::EXTERN_SHARED_INSTANCE
    };
    if opts.lists_dynamic_shared() {
        let unlisted: rustc_hash::FxHashSet<SymIdx> = (1..st.globals.len())
            .filter(|&i| {
                st.globals.shared[i].is_some_and(|v| st.shared_vars[v].kind == SharedKind::Dynamic)
                    && (!lists || unlisted_instance(st, i))
            })
            .filter_map(|i| crate::arena::GlobalIdx::from_slot(i as u32).map(SymIdx::from))
            .collect();
        st.global_name_order
            .retain(|(_, o)| !matches!(o, NameOwner::Symbol(s) if unlisted.contains(s)));
    }
    let shared_vars = &st.shared_vars;
    let sections = &st.sections;
    let common_area = st.shared_common_area;
    for array in [&mut st.locals, &mut st.globals] {
        for i in 1..array.len() {
            let Some(v) = array.shared[i] else {
                continue;
            };
            let var = &shared_vars[v];
            if var.kind == SharedKind::Dynamic {
                if opts.debug
                    && !opts.relocatable
                    && array.name[i] == super::shared::EXTERN_SHARED_INSTANCE
                {
                    continue;
                }
                // `-g`: an `extern __shared__` name is an object in `.nv_debug.shared`, at
                // where the dynamic memory of the kernels that reach it starts (reserved bytes
                // included), or at 0 when that is the window's start or no kernel reaches it
                // (observed: 0x280 after a kernel's 0x280 static bytes on sm_80, 0x680 on
                // sm_90; libcudadevrt's `sm` at 0 on sm_90).
                if let Some(sec) = debug_shared {
                    let mut sym = array.at_mut(i);
                    *sym.section() = SymSection::Section(sec);
                    if opts.debug {
                        // The reserved bytes count from sm_100 and, on sm_90, with a common
                        // area; otherwise the offset past them (observed: 0x400 for a kernel
                        // with only dynamic memory on sm_100, and on sm_90 beside a template
                        // array two kernels share; 0 on sm_90 without one; after 0x280 static
                        // bytes 0x680 on sm_100 and on sm_90 with a common area, 0x280 on
                        // sm_90 without; after an 8-byte mbarrier 0x10 on sm_90).
                        let reserve_counts = opts.target.is_mercury() || common_area;
                        // A name no kernel reaches sits at the window's start (observed: a
                        // `-r` image's name its kernel now reaches through the instance, 0x400
                        // on sm_90 with a common area and on sm_100).
                        let offset = var.offset.unwrap_or(0);
                        *sym.value() = if reserve_counts {
                            reserve + offset
                        } else {
                            offset
                        };
                        *sym.other() = 0;
                    } else {
                        // `--preserve-relocs` (sm_90): the reserved bytes less one, internal
                        // (observed: 0x3ff for every name, whatever the kernels' layout).
                        *sym.value() = reserve.wrapping_sub(1);
                        *sym.other() = 1;
                    }
                }
                continue;
            }
            // A variable declared in `.nv_debug.shared` (a template kernel's weak arrays) is
            // written in the window of the kernel that holds it when that section is gone
            // (observed, `-g`).
            // `--preserve-relocs` writes one there whenever one kernel holds it (observed,
            // sm_90 `--kernels-used`: a function's array only the selected kernel reaches).
            let section = match (var.section, var.window) {
                (Some(sec), Some(text)) => window_section(sections, text).or(Some(sec)),
                (section, _) => section,
            };
            if let (Some(sec), Some(off)) = (section, var.offset) {
                let mut sym = array.at_mut(i);
                *sym.section() = SymSection::Section(sec);
                *sym.value() = reserve + off;
                // Weak ones (listed with the non-local symbols) are written as locals, but
                // not those of the common area, in `.nv_debug.shared` (observed: sm_90
                // `--preserve-relocs` and sm_80 `-g`, a template function's array two kernels
                // reach stays weak while one only a kernel reaches, in its window, is local).
                let in_common_area = var.kind == SharedKind::Function && var.window.is_none();
                if !in_common_area {
                    let info = *sym.info();
                    *sym.info() = info & 0x0f;
                }
                // `--preserve-relocs` without `-g` marks them STV_INTERNAL (observed, sm_80
                // and sm_90, with and without -G inputs).
                if !opts.debug {
                    *sym.other() = 1;
                }
            }
        }
    }
    // A variable no window holds (no code names it: CUB's histogram kernel's unused 12-byte
    // `temp_storage` in `.nv_debug.shared`) whose section went is not written, nor is its
    // name in `.strtab` (observed, sm_90 `-g` and `--preserve-relocs`).
    let unplaced = |st: &State<'_>, sym: SymIdx| {
        let s = st.sym(sym);
        let gone = match s.section() {
            SymSection::Undef => true,
            SymSection::Section(sec) => st.sec(sec).removed(),
            _ => false,
        };
        gone && s.shared().is_some_and(|v| {
            let var = &st.shared_vars[v];
            var.kind != SharedKind::Dynamic && var.offset.is_none()
        })
    };
    let gone: rustc_hash::FxHashSet<SymIdx> = st
        .local_name_order
        .iter()
        .chain(&st.global_name_order)
        .filter_map(|(_, o)| match *o {
            NameOwner::Symbol(sym) if unplaced(st, sym) => Some(sym),
            _ => None,
        })
        .collect();
    if !gone.is_empty() {
        for &sym in &gone {
            *st.sym_mut(sym).removed() = true;
        }
        let kept = |o: &NameOwner| !matches!(o, NameOwner::Symbol(s) if gone.contains(s));
        st.local_name_order.retain(|(_, o)| kept(o));
        st.global_name_order.retain(|(_, o)| kept(o));
    }
}

/// The `.nv.shared.<k>` window of the kernel whose code is `text`.
fn window_section(sections: &SectionColumns<'_>, text: SecId) -> Option<SecId> {
    let kernel = sections.name[text.index()].strip_prefix(".text.")?;
    (1..sections.len())
        .find(|&i| {
            !sections.removed[i]
                && sections.name[i]
                    .strip_prefix(".nv.shared.")
                    .is_some_and(|k| k == kernel)
        })
        .map(|i| SecId(i as u32))
}

fn create_trailing_section(
    st: &mut State<'_>,
    name: &'static str,
    t: u32,
    align: u64,
    entsize: u64,
) -> SecId {
    let mut s = new_section(name, t, 0, align, entsize);
    s.role = SecRole::Synthetic;
    if t != SHT_CUDA_RELOCINFO {
        s.link = Link::Symtab;
    }
    let id = st.create_section(s, false);
    add_section_symbol(st, id);
    id
}

fn clean_symbols(st: &mut State<'_>, opts: &LinkOptions) {
    for i in 1..st.globals.len() {
        let mut g = st.globals.at_mut(i);
        let s = g.view();
        // Undefined table symbols go from a final link whatever their binding (observed: the
        // global ones a `-r` image carries).
        if !opts.relocatable && !s.is_defined() && is_unified_table_symbol(s.name()) {
            *g.removed() = true;
            continue;
        }
        // (Not the `externsharedinstance` a relocatable link makes: it stays weak.)
        if s.binding() == STB_WEAK
            && !s.is_defined()
            && s.shared().is_none()
            && !(opts.relocatable && s.name() == super::shared::EXTERN_SHARED_INSTANCE)
        {
            // `-r` makes every weak undefined symbol global (observed: the `__UDT*`/`__UFT*`
            // table symbols and `.nv.reservedSmem.*`); a final link keeps only the reserved
            // shared-memory ones, global, and drops the rest.
            // (Also the size of an independent-mode sampler descriptor, which `txq` on a
            // `.samplerref` reads: observed, sm_90.)
            if opts.relocatable
                || s.name().starts_with(".nv.reservedSmem")
                || s.name() == SAMPLERREF_DESC_SIZE
            {
                *g.info() = (STB_GLOBAL << 4) | s.sym_type();
            } else {
                *g.removed() = true;
            }
        }
    }
    if opts.target.is_mercury() {
        // sm_100+: undefined objects are CUDA objects in both symbol tables (observed:
        // `.nv.reservedSmem.*`, and under `-r` the table symbols).
        for i in 1..st.globals.len() {
            let mut g = st.globals.at_mut(i);
            let s = g.view();
            if !s.removed() && !s.is_defined() && s.sym_type() == STT_OBJECT {
                *g.info() = (s.info() & 0xf0) | STT_CUDA_OBJECT;
            }
        }
    }
    if opts.relocatable {
        return;
    }
    for array in [&mut st.locals, &mut st.globals] {
        for i in 1..array.len() {
            let mut m = array.at_mut(i);
            let s = m.view();
            let converted = s.is_defined() || s.shared().is_some() || !opts.target.is_mercury();
            if s.sym_type() == STT_CUDA_OBJECT && converted {
                *m.info() = (s.info() & 0xf0) | STT_OBJECT;
                *m.other() &= !0xe0;
            }
        }
    }
}

/// Register counts propagated along the callgraph, minimum stack sizes per kernel, and the
/// global `.nv.info` records rewritten accordingly (observed: `MAX_STACK_SIZE` dropped in a
/// final link; a kernel's `REGCOUNT` raised to the maximum over what it calls).
/// Values by symbol, in one dense column per symbol array (indexed by slot): for passes over
/// every record that would otherwise hash a symbol index per record.
struct BySym<T> {
    local: Vec<T>,
    global: Vec<T>,
    /// Where writes to a symbol outside both arrays go (never read).
    spare: T,
}

impl<T: Copy> BySym<T> {
    /// `empty` for every symbol of `st`.
    fn new(st: &State<'_>, empty: T) -> BySym<T> {
        BySym {
            local: vec![empty; st.locals.len()],
            global: vec![empty; st.globals.len()],
            spare: empty,
        }
    }

    /// The value of `sym` (`None` for an index outside the arrays).
    fn get(&self, sym: SymIdx) -> Option<T> {
        match sym.kind() {
            SymKind::Local(l) => self.local.get(l.pos()).copied(),
            SymKind::Global(g) => self.global.get(g.pos()).copied(),
        }
    }

    /// The value of `sym`, to write.
    fn at(&mut self, sym: SymIdx) -> &mut T {
        let slot = match sym.kind() {
            SymKind::Local(l) => self.local.get_mut(l.pos()),
            SymKind::Global(g) => self.global.get_mut(g.pos()),
        };
        slot.unwrap_or(&mut self.spare)
    }
}

fn entry_properties(st: &mut State<'_>, opts: &LinkOptions) {
    let bump = st.bump;
    // Per-function values from the merged global records (register count, frame size).
    let mut values: BySym<(Option<u32>, Option<u32>)> = BySym::new(st, (None, None));
    for r in &st.info {
        if let (Some(sym), true) = (r.sym, r.payload.len() >= 8) {
            let v = u32::from_le_bytes(r.payload[4..8].try_into().unwrap_or([0; 4]));
            match r.attr {
                EIATTR_REGCOUNT => values.at(sym).0 = Some(v),
                EIATTR_FRAME_SIZE => values.at(sym).1 = Some(v),
                _ => {}
            }
        }
    }
    for f in st.functions.iter_mut().skip(1) {
        if let Some(sym) = f.sym {
            (f.regcount, f.frame_size) = values.get(sym).unwrap_or((None, None));
        }
    }
    drop(values);
    if opts.relocatable {
        return;
    }
    let info = info_sections(st);
    let calls = st
        .call_lists
        .take()
        .unwrap_or_else(|| calls_with_indirect(st));
    let reach = kernel_reach(st, &calls);
    let owned = owned_functions(st, &reach);
    let owned = owned.as_ref().unwrap_or(&reach);
    let own = OwnInfo::of(st, &info);
    propagate_flag(st, &info, owned, &own.ctaidz, EIATTR_CTAIDZ_USED);
    propagate_flag(
        st,
        &info,
        owned,
        &own.reserved_smem,
        EIATTR_RESERVED_SMEM_USED,
    );
    propagate_flag(
        st,
        &info,
        owned,
        &own.tcgen05_1cta,
        EIATTR_TCGEN05_1CTA_USED,
    );
    propagate_flag(
        st,
        &info,
        owned,
        &own.tcgen05_2cta,
        EIATTR_TCGEN05_2CTA_USED,
    );
    propagate_barriers(st, &info, &own, owned);
    propagate_mbarriers(st, &info, &own, &reach);
    propagate_externs(st, &info, &own, &reach);
    propagate_at_entry(st, &info, &own, owned);
    propagate_vrc(st, &info, &own, &reach);
    let n = st.functions.len();
    let mut max_regs: Vec<Option<u32>> = vec![None; n];
    let stack = min_stacks(st, &calls);
    for (k, order) in &reach {
        let regs = |f: usize| st.functions[f].regcount.unwrap_or(0);
        max_regs[*k] = Some(order.iter().map(|&f| regs(f)).fold(regs(*k), u32::max));
    }
    let entries = kernel_entries(st, opts);
    let mut entry_of: BySym<Option<usize>> = BySym::new(st, None);
    for &(i, s) in &entries {
        *entry_of.at(s) = Some(i);
    }
    let mut stack = stack;
    for r in st.info.iter_mut() {
        let Some(sym) = r.sym else { continue };
        if r.attr == EIATTR_MAX_STACK_SIZE {
            r.dropped = true;
        }
        // ptxas `-ewp` writes a minimum stack size only when it cannot know it (recursion
        // inside a kernel's own code, which no callgraph edge shows): the kernel's stack is
        // unknown then, as for recursion the link sees; the link's own records replace the
        // input's (observed, sm_100 and sm_120: a kernel calling its recursive internal
        // function gets MIN_STACK_SIZE and CRS_STACK_SIZE 0xffffffff, the input's records for
        // the kernel and `$k$f` are gone; the `-r` image of such an object alike).
        if r.attr == EIATTR_MIN_STACK_SIZE {
            r.dropped = true;
            if r.payload.get(4..8) == Some(&u32::MAX.to_le_bytes()[..]) {
                if let Some(Some(k)) = entry_of.get(sym) {
                    stack[k] = None;
                }
            }
        }
        if r.attr == EIATTR_REGCOUNT {
            if let Some(f) = entry_of.get(sym).flatten() {
                if let Some(m) = max_regs[f] {
                    if r.payload.len() >= 8 {
                        let p = bump.alloc_slice_copy(r.payload);
                        p[4..8].copy_from_slice(&m.to_le_bytes());
                        r.payload = p;
                    }
                }
            }
        }
    }
    let mut dead_syms: BySym<bool> = BySym::new(st, false);
    for sym in st.functions.iter().filter(|f| f.dead).filter_map(|f| f.sym) {
        *dead_syms.at(sym) = true;
    }
    for r in st.info.iter_mut() {
        if let Some(sym) = r.sym {
            if dead_syms.get(sym) == Some(true) {
                r.dropped = true;
            }
        }
    }
    // Recursion: the stack size is unknown (warned by `warn_unknown_stack_sizes`). nvlink
    // records an unknown call-return stack size after the kernel's own records.
    for &(i, _) in &entries {
        if stack[i].is_some() {
            continue;
        }
        if let Some(sec) = info[i] {
            let own = st.section_info.get_mut(&sec).and_then(|rs| {
                rs.iter_mut()
                    .find(|r| r.attr == EIATTR_CRS_STACK_SIZE && !r.dropped)
            });
            match own {
                Some(r) if r.payload.len() >= 4 => {
                    let p = bump.alloc_slice_copy(r.payload);
                    p[..4].copy_from_slice(&u32::MAX.to_le_bytes());
                    r.payload = p;
                }
                _ => {
                    // Ahead of a rewritten EXTERNS list (observed: a recursive kernel's new
                    // CRS record comes before its new EXTERNS record).
                    let tail = st.section_info_tail.entry(sec).or_default();
                    let at = tail
                        .iter()
                        .position(|r| r.attr == super::merge::EIATTR_EXTERNS)
                        .unwrap_or(tail.len());
                    tail.insert(
                        at,
                        InfoRecord {
                            format: EIFMT_SVAL,
                            attr: EIATTR_CRS_STACK_SIZE,
                            payload: bump.alloc_slice_copy(&u32::MAX.to_le_bytes()),
                            sym: None,
                            externs: &[],
                            dropped: false,
                        },
                    );
                }
            }
        }
    }
    order_appended_records(st, &info, owned);
    drop_callee_entry_fragments(st, &info);
    if opts.target.is_mercury() {
        sync_merc_info(st);
    }
    // The linker's own records come out after the merged ones. `--preserve-relocs` removes
    // no code, but the kernels `--kernels-used` or the host objects leave out get no record
    // (observed, sm_80; with `-g` every kernel gets one): they are demoted (dce.rs), unless
    // kept for their address.
    for (i, sym) in entries {
        let v = stack[i].map(|v| v as u32).unwrap_or(u32::MAX);
        let payload = bump.alloc_slice_fill_copy(8, 0u8);
        payload[4..].copy_from_slice(&v.to_le_bytes());
        st.info_tail.push(InfoRecord {
            format: EIFMT_SVAL,
            attr: EIATTR_MIN_STACK_SIZE,
            payload,
            sym: Some(sym),
            externs: &[],
            dropped: false,
        });
    }
}

/// `EIATTR_NUM_BARRIERS`.
const EIATTR_NUM_BARRIERS: u8 = 0x4c;

/// sm_100+: what the link computed into the SASS `.nv.info.<f>` records (barriers, memory
/// barriers and EXTERNS propagated along the call graph, an unknown stack size for recursion) holds for
/// the Mercury records too.
fn sync_merc_info(st: &mut State<'_>) {
    let mut merc = std::mem::take(&mut st.merc_section_info);
    for (sec, list) in merc.iter_mut() {
        let Some(sass) = st.section_info.get(sec) else {
            continue;
        };
        let find = |attr: u8| sass.iter().find(|r| r.attr == attr && !r.dropped);
        for r in list.iter_mut().filter(|r| !r.dropped) {
            match r.attr {
                // (Memory barriers too: observed, sm_100 `--preserve-relocs --kernels-used`,
                // the only kernel's count with the left-out kernel's.)
                EIATTR_NUM_BARRIERS | EIATTR_NUM_MBARRIERS => {
                    if let Some(x) = find(r.attr) {
                        r.payload = x.payload;
                    }
                }
                super::merge::EIATTR_EXTERNS => match find(super::merge::EIATTR_EXTERNS) {
                    Some(x) => r.externs = x.externs,
                    // Replaced by a record after the others, shared by both worlds.
                    None => r.dropped = true,
                },
                EIATTR_VRC_CTA_INIT_COUNT => {
                    if let Some(x) = find(r.attr) {
                        r.payload = x.payload;
                    }
                }
                EIATTR_AT_ENTRY_FRAGMENTS if find(r.attr).is_none() => r.dropped = true,
                EIATTR_CRS_STACK_SIZE => {
                    if let Some(x) = find(EIATTR_CRS_STACK_SIZE) {
                        if x.payload.get(..4) == Some(&u32::MAX.to_le_bytes()[..]) {
                            r.payload = x.payload;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    st.merc_section_info = merc;
}

/// The functions whose attributes (`EIATTR_CTAIDZ_USED`, `EIATTR_NUM_BARRIERS`) a kernel
/// takes: those it reaches through calls; a lone kernel owns every function the link kept
/// (observed on sm_80: a lone kernel gets the attributes of a device function only a
/// `__device__` pointer names, and of libcudadevrt's memset/memcpy kernels once
/// `--kernels-used` demoted them; with a second kernel neither does).
/// (`None`: the same as `reach`, which is not copied.)
fn owned_functions(st: &State<'_>, reach: &Reach) -> Option<Reach> {
    match reach.as_slice() {
        [(k, _)] => {
            let all = (1..st.functions.len())
                .filter(|&f| f != *k && !st.functions[f].dead && st.functions[f].sym.is_some())
                .collect();
            Some(vec![(*k, all)])
        }
        _ => None,
    }
}

/// `EIATTR_CTAIDZ_USED`.
const EIATTR_CTAIDZ_USED: u8 = 0x04;

/// Functions whose records are read per task.
const FUNCTIONS_PER_TASK: usize = 2048;

/// What each function's own `.nv.info.<f>` records say, by function ordinal, gathered in one
/// walk over them all before any is changed (a large link's records are far bigger than the
/// caches: a walk per attribute would fetch them all again).
struct OwnInfo {
    /// Uses `%ctaid.z` (`EIATTR_CTAIDZ_USED`).
    ctaidz: Vec<bool>,
    /// Uses the reserved shared memory (`EIATTR_RESERVED_SMEM_USED`).
    reserved_smem: Vec<bool>,
    /// Uses tensor memory one CTA at a time (`EIATTR_TCGEN05_1CTA_USED`).
    tcgen05_1cta: Vec<bool>,
    /// Uses tensor memory by CTA pairs (`EIATTR_TCGEN05_2CTA_USED`).
    tcgen05_2cta: Vec<bool>,
    /// Its first `EIATTR_AT_ENTRY_FRAGMENTS` (the code the driver runs at kernel entry).
    at_entry: Vec<Option<u32>>,
    /// Its first `EIATTR_VRC_CTA_INIT_COUNT`.
    vrc: Vec<Option<u8>>,
    /// Its largest `EIATTR_NUM_BARRIERS`.
    barriers: Vec<Option<u8>>,
    /// Its first `EIATTR_NUM_MBARRIERS` (of two bytes).
    mbarriers: Vec<Option<u16>>,
    /// Where its `EIATTR_EXTERNS` entries start in `externs` (one more than the functions).
    externs_start: Vec<usize>,
    /// Every function's `EIATTR_EXTERNS` entries, all of them (entries naming defined
    /// functions included: they are dropped when the records are written), one after another.
    externs: Vec<SymIdx>,
}

impl OwnInfo {
    /// Gathered on all cores, in runs of functions taken in order.
    fn of(st: &State<'_>, info: &[Option<SecId>]) -> OwnInfo {
        let n = st.functions.len();
        let section_info = &st.section_info;
        let info = &info[..n.min(info.len())];
        let runs: Vec<OwnInfo> = info
            .par_chunks(FUNCTIONS_PER_TASK)
            .map(|run| OwnInfo::of_run(section_info, run))
            .collect();
        let mut own = OwnInfo {
            ctaidz: Vec::with_capacity(n),
            reserved_smem: Vec::with_capacity(n),
            tcgen05_1cta: Vec::with_capacity(n),
            tcgen05_2cta: Vec::with_capacity(n),
            at_entry: Vec::with_capacity(n),
            vrc: Vec::with_capacity(n),
            barriers: Vec::with_capacity(n),
            mbarriers: Vec::with_capacity(n),
            externs_start: Vec::with_capacity(n + 1),
            externs: Vec::with_capacity(runs.iter().map(|r| r.externs.len()).sum()),
        };
        for run in runs {
            let base = own.externs.len();
            own.ctaidz.extend(run.ctaidz);
            own.reserved_smem.extend(run.reserved_smem);
            own.tcgen05_1cta.extend(run.tcgen05_1cta);
            own.tcgen05_2cta.extend(run.tcgen05_2cta);
            own.at_entry.extend(run.at_entry);
            own.vrc.extend(run.vrc);
            own.barriers.extend(run.barriers);
            own.mbarriers.extend(run.mbarriers);
            own.externs_start
                .extend(run.externs_start.iter().map(|&x| x + base));
            own.externs.extend(run.externs);
        }
        // (Functions past `info`, if any, have no records.)
        own.ctaidz.resize(n, false);
        own.reserved_smem.resize(n, false);
        own.tcgen05_1cta.resize(n, false);
        own.tcgen05_2cta.resize(n, false);
        own.at_entry.resize(n, None);
        own.vrc.resize(n, None);
        own.barriers.resize(n, None);
        own.mbarriers.resize(n, None);
        own.externs_start.resize(n + 1, own.externs.len());
        own
    }

    /// [`OwnInfo::of`] for the functions of `info` (without the end of `externs_start`).
    fn of_run(section_info: &SecMap<Vec<InfoRecord<'_>>>, info: &[Option<SecId>]) -> OwnInfo {
        let n = info.len();
        let mut own = OwnInfo {
            ctaidz: vec![false; n],
            reserved_smem: vec![false; n],
            tcgen05_1cta: vec![false; n],
            tcgen05_2cta: vec![false; n],
            at_entry: vec![None; n],
            vrc: vec![None; n],
            barriers: vec![None; n],
            mbarriers: vec![None; n],
            externs_start: Vec::with_capacity(n),
            externs: Vec::new(),
        };
        for (f, sec) in info.iter().enumerate() {
            own.externs_start.push(own.externs.len());
            let records = sec.and_then(|sec| section_info.get(&sec));
            for r in records.into_iter().flatten().filter(|r| !r.dropped) {
                match r.attr {
                    EIATTR_CTAIDZ_USED => own.ctaidz[f] = true,
                    EIATTR_RESERVED_SMEM_USED => own.reserved_smem[f] = true,
                    EIATTR_TCGEN05_1CTA_USED => own.tcgen05_1cta[f] = true,
                    EIATTR_TCGEN05_2CTA_USED => own.tcgen05_2cta[f] = true,
                    EIATTR_AT_ENTRY_FRAGMENTS if own.at_entry[f].is_none() => {
                        if let Some(b) = r.payload.get(..4) {
                            own.at_entry[f] = Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                        }
                    }
                    EIATTR_VRC_CTA_INIT_COUNT if own.vrc[f].is_none() => {
                        own.vrc[f] = r.payload.first().copied();
                    }
                    EIATTR_NUM_BARRIERS => {
                        if let Some(&b) = r.payload.first() {
                            own.barriers[f] = Some(own.barriers[f].map_or(b, |x| x.max(b)));
                        }
                    }
                    // (The first such record counts.)
                    EIATTR_NUM_MBARRIERS if r.payload.len() == 2 && own.mbarriers[f].is_none() => {
                        own.mbarriers[f] = Some(u16::from_le_bytes([r.payload[0], r.payload[1]]));
                    }
                    super::merge::EIATTR_EXTERNS => own.externs.extend_from_slice(r.externs),
                    _ => {}
                }
            }
        }
        own
    }

    /// Function `f`'s own `EIATTR_EXTERNS` entries.
    fn externs(&self, f: usize) -> &[SymIdx] {
        &self.externs[self.externs_start[f]..self.externs_start[f + 1]]
    }
}

/// `EIATTR_RESERVED_SMEM_USED`.
const EIATTR_RESERVED_SMEM_USED: u8 = 0x41;

/// A kernel without the flag attribute `attr` (no payload) of its own gets it after its own
/// records when a function it owns has it (`has`, by function): `EIATTR_CTAIDZ_USED` (observed
/// on sm_80: a kernel calling another translation unit's function that reads `blockIdx.z`) and
/// `EIATTR_RESERVED_SMEM_USED` (observed, sm_90 to sm_120 `-G`: a cluster kernel calling
/// another translation unit's function that uses cooperative groups' tiles).
fn propagate_flag(
    st: &mut State<'_>,
    info: &[Option<SecId>],
    owned: &Reach,
    has: &[bool],
    attr: u8,
) {
    for (k, order) in owned {
        let Some(sec) = info[*k] else { continue };
        if has[*k] || !order.iter().any(|&f| has[f]) {
            continue;
        }
        st.section_info_tail
            .entry(sec)
            .or_default()
            .push(InfoRecord {
                format: crate::nvinfo::EIFMT_NVAL,
                attr,
                payload: &[],
                sym: None,
                externs: &[],
                dropped: false,
            });
    }
}

/// A kernel's `EIATTR_NUM_BARRIERS` covers every function it owns: raised in place, or
/// appended after the kernel's own records when it had none (observed).
fn propagate_barriers(st: &mut State<'_>, info: &[Option<SecId>], own: &OwnInfo, reach: &Reach) {
    let own = &own.barriers;
    for (k, order) in reach {
        let k = *k;
        let most = std::iter::once(k)
            .chain(order.iter().copied())
            .filter_map(|f| own[f])
            .max();
        let (Some(most), Some(sec)) = (most, info[k]) else {
            continue;
        };
        let records = st.section_info.entry(sec).or_default();
        match records
            .iter_mut()
            .find(|r| r.attr == EIATTR_NUM_BARRIERS && !r.dropped)
        {
            Some(r) => {
                if let Some(&b) = r.payload.first() {
                    let p = st.bump.alloc_slice_copy(r.payload);
                    p[0] = b.max(most);
                    r.payload = p;
                }
            }
            None => st
                .section_info_tail
                .entry(sec)
                .or_default()
                .push(InfoRecord {
                    format: crate::nvinfo::EIFMT_BVAL,
                    attr: EIATTR_NUM_BARRIERS,
                    payload: st.bump.alloc_slice_copy(&[most, 0]),
                    sym: None,
                    externs: &[],
                    dropped: false,
                }),
        }
    }
}

/// `EIATTR_VRC_CTA_INIT_COUNT`.
const EIATTR_VRC_CTA_INIT_COUNT: u8 = 0x4a;
/// `EIATTR_AT_ENTRY_FRAGMENTS`: code the driver runs before the kernel's own (tensor memory's
/// set-up, for code that allocates it).
const EIATTR_AT_ENTRY_FRAGMENTS: u8 = 0x4f;
/// `EIATTR_TCGEN05_1CTA_USED`: `tcgen05` instructions with `.cta_group::1`.
const EIATTR_TCGEN05_1CTA_USED: u8 = 0x51;
/// `EIATTR_TCGEN05_2CTA_USED`: `tcgen05` instructions with `.cta_group::2`.
const EIATTR_TCGEN05_2CTA_USED: u8 = 0x52;

/// A kernel without an `EIATTR_AT_ENTRY_FRAGMENTS` of its own gets the first one among the
/// functions it owns, after its own records (observed on sm_100a: kernels calling another
/// translation unit's function that allocates tensor memory get its value, 6 for
/// `.cta_group::1`, 7 for `.cta_group::2`; a kernel cannot reach both, see
/// [`check_cta_groups`]).
fn propagate_at_entry(st: &mut State<'_>, info: &[Option<SecId>], own: &OwnInfo, owned: &Reach) {
    let own = &own.at_entry;
    if own.iter().all(Option::is_none) {
        return;
    }
    for (k, order) in owned {
        let (Some(sec), None) = (info[*k], own[*k]) else {
            continue;
        };
        let Some(value) = order.iter().find_map(|&f| own[f]) else {
            continue;
        };
        let payload = st.bump.alloc_slice_copy(&value.to_le_bytes());
        st.section_info_tail
            .entry(sec)
            .or_default()
            .push(InfoRecord {
                format: EIFMT_SVAL,
                attr: EIATTR_AT_ENTRY_FRAGMENTS,
                payload,
                sym: None,
                externs: &[],
                dropped: false,
            });
    }
}

/// Only kernels keep `EIATTR_AT_ENTRY_FRAGMENTS` (the driver runs the fragments at entry):
/// every other function's goes, once its kernels have taken it (observed on sm_100a, both
/// worlds).
fn drop_callee_entry_fragments(st: &mut State<'_>, info: &[Option<SecId>]) {
    for (f, sec) in info.iter().enumerate() {
        let Some(sec) = sec else { continue };
        if st.functions.get(f).is_none_or(|x| x.is_entry) {
            continue;
        }
        if let Some(records) = st.section_info.get_mut(sec) {
            for r in records
                .iter_mut()
                .filter(|r| r.attr == EIATTR_AT_ENTRY_FRAGMENTS)
            {
                r.dropped = true;
            }
        }
    }
}

/// With several kernels, each kernel's `EIATTR_VRC_CTA_INIT_COUNT` is raised in place to the
/// highest of the functions it reaches (observed on sm_100a: kernels calling another
/// translation unit's `tcgen05.ld` helper (0x80) get 0x80); a lone kernel keeps its own, however
/// high its callees' are (observed, the same helpers).
fn propagate_vrc(st: &mut State<'_>, info: &[Option<SecId>], own: &OwnInfo, reach: &Reach) {
    let own = &own.vrc;
    if reach.len() < 2 {
        return;
    }
    for (k, order) in reach {
        let (Some(sec), Some(mine)) = (info[*k], own[*k]) else {
            continue;
        };
        let most = order.iter().filter_map(|&f| own[f]).fold(mine, u8::max);
        if most == mine {
            continue;
        }
        let Some(r) = st.section_info.get_mut(&sec).and_then(|rs| {
            rs.iter_mut()
                .find(|r| r.attr == EIATTR_VRC_CTA_INIT_COUNT && !r.dropped)
        }) else {
            continue;
        };
        let p = st.bump.alloc_slice_copy(r.payload);
        p[0] = most;
        r.payload = p;
    }
}

/// A kernel may not use tensor memory both one CTA at a time and by CTA pairs, in its own code
/// or the functions it owns: an error naming the kernel (observed on sm_100a). nvlink hands
/// each function's attributes to the kernels that reach it, functions in definition order and
/// kernels newest first (as for register limits), and reports a kernel when the second kind arrives (a kernel with one kind
/// of its own is reported at the first function bringing the other).
pub fn check_cta_groups(st: &State<'_>, opts: &LinkOptions, diags: &mut Diagnostics) {
    if opts.relocatable || !opts.target.is_mercury() {
        return;
    }
    let info = info_sections(st);
    let flags = |f: usize| -> (bool, bool) {
        let records = info
            .get(f)
            .copied()
            .flatten()
            .and_then(|sec| st.section_info.get(&sec));
        let mut kinds = (false, false);
        for r in records.into_iter().flatten().filter(|r| !r.dropped) {
            kinds.0 |= r.attr == EIATTR_TCGEN05_1CTA_USED;
            kinds.1 |= r.attr == EIATTR_TCGEN05_2CTA_USED;
        }
        kinds
    };
    let kinds: Vec<(bool, bool)> = (0..st.functions.len()).map(flags).collect();
    if !kinds.iter().any(|k| k.0) || !kinds.iter().any(|k| k.1) {
        return;
    }
    let calls = calls_with_indirect(st);
    let reach = kernel_reach(st, &calls);
    let owned = owned_functions(st, &reach);
    let owned = owned.as_ref().unwrap_or(&reach);
    // (function definition, kernel newest first, kernel) of each report.
    let mut reports = Vec::new();
    for (k, order) in owned {
        let mut have = kinds[*k];
        let mut callees = order.clone();
        callees.sort_by_key(|&f| definition_order(st, f));
        for f in callees {
            let (one, two) = kinds[f];
            if (one && have.1) || (two && have.0) {
                reports.push((definition_order(st, f), std::cmp::Reverse(*k), *k));
                break;
            }
            have = (have.0 | one, have.1 | two);
        }
    }
    reports.sort_unstable();
    for (_, _, k) in reports {
        let Some(sym) = st.functions[k].sym else {
            continue;
        };
        let name = st.sym(sym).name();
        diags.push(
            Diagnostic::new(
                Severity::Error,
                format!(
                    "Function '{name}' uses single CTA(.cta_group::1) and CTA pair granularity(.cta_group::2) and that is not allowed."
                ),
            )
            .about_symbol(name),
        );
    }
}

/// `EIATTR_NUM_MBARRIERS`.
const EIATTR_NUM_MBARRIERS: u8 = 0x38;

/// A kernel's `EIATTR_NUM_MBARRIERS` counts the memory barriers of everything it can call:
/// its own plus each reachable function's, each function once (observed on sm_80: a kernel
/// calling `init1` (1) and `init2` (2) gets 3, one reaching `init1` along two paths gets 1).
/// Raised in place, or appended after the kernel's own records and a propagated
/// `EIATTR_NUM_BARRIERS` when it had none.
fn propagate_mbarriers(st: &mut State<'_>, info: &[Option<SecId>], own: &OwnInfo, reach: &Reach) {
    let own = &own.mbarriers;
    // With a single kernel, the functions no kernel reaches that the link keeps (dead ones
    // and left-out kernels under `--preserve-relocs --kernels-used`) count for it too;
    // with two kernels for neither (observed, sm_90: a selected kernel with 1 gets 1 + 2 of
    // an uncalled function + 3 of a left-out kernel; two selected kernels keep their own).
    let single = reach.len() == 1;
    for (k, order) in reach {
        let k = *k;
        let mut reached: Vec<u16> = order.iter().filter_map(|&f| own[f]).collect();
        if single {
            let mut is_reached = vec![false; own.len()];
            for &f in order {
                if let Some(x) = is_reached.get_mut(f) {
                    *x = true;
                }
            }
            reached.extend((1..own.len()).filter_map(|f| {
                let kept = f != k && !is_reached[f] && !st.functions.get(f)?.dead;
                own[f].filter(|_| kept)
            }));
        }
        let Some(sec) = info[k] else {
            continue;
        };
        if reached.is_empty() {
            continue;
        }
        let total = reached
            .iter()
            .fold(own[k].unwrap_or(0), |a, &b| a.saturating_add(b));
        let payload = st.bump.alloc_slice_copy(&total.to_le_bytes());
        let records = st.section_info.entry(sec).or_default();
        match records
            .iter_mut()
            .find(|r| r.attr == EIATTR_NUM_MBARRIERS && !r.dropped && r.payload.len() == 2)
        {
            Some(r) => r.payload = payload,
            None => st
                .section_info_tail
                .entry(sec)
                .or_default()
                .push(InfoRecord {
                    format: crate::nvinfo::EIFMT_HVAL,
                    attr: EIATTR_NUM_MBARRIERS,
                    payload,
                    sym: None,
                    externs: &[],
                    dropped: false,
                }),
        }
    }
}

/// The records the link appends to a kernel's `.nv.info.<k>` for what its callees have
/// (`EIATTR_CTAIDZ_USED`, `EIATTR_RESERVED_SMEM_USED`, the tensor-memory ones,
/// `EIATTR_NUM_BARRIERS`, `EIATTR_NUM_MBARRIERS`, `EIATTR_EXTERNS`),
/// whatever order the link made them in (observed on sm_80, 120 generated links of one or
/// two translation units, forward and reversed input order, and the `-G` pipeline links):
///
/// - A lone kernel gets them in a fixed order: `CTAIDZ_USED`, `RESERVED_SMEM_USED`,
///   `TCGEN05_1CTA_USED`, `NUM_BARRIERS`, `NUM_MBARRIERS`, `EXTERNS`, `AT_ENTRY_FRAGMENTS`,
///   however deep in its callees each attribute sits (the tensor-memory ones observed on
///   sm_100a; `TCGEN05_2CTA_USED` taken to sit beside its one-CTA twin).
/// - With several kernels, each gets them in the order their attributes are first met going
///   through the functions it reaches in the order of their `.nv.info.<f>` sections in the
///   image, each function's own records in their input order (how the calls nest does not
///   matter: `kq` calling `f` → `init1` (memory barriers) and `g` (barriers) gets
///   `NUM_MBARRIERS` first when `init1`'s section comes before `g`'s). Any `EXTERNS` record
///   counts, also one naming only functions another input defines.
fn order_appended_records(st: &mut State<'_>, info: &[Option<SecId>], owned: &Reach) {
    const APPENDED: [u8; 8] = [
        EIATTR_CTAIDZ_USED,
        EIATTR_RESERVED_SMEM_USED,
        EIATTR_TCGEN05_1CTA_USED,
        EIATTR_TCGEN05_2CTA_USED,
        EIATTR_NUM_BARRIERS,
        EIATTR_NUM_MBARRIERS,
        super::merge::EIATTR_EXTERNS,
        EIATTR_AT_ENTRY_FRAGMENTS,
    ];
    // Most links append at most one such record per kernel: nothing to order.
    let several =
        |tail: &Vec<InfoRecord<'_>>| tail.iter().filter(|r| APPENDED.contains(&r.attr)).count() > 1;
    if !st.section_info_tail.values().any(several) {
        return;
    }
    let lone = owned.len() == 1;
    // Each function's own such records, in input order (read once: a large link's kernels
    // reach many of the same functions).
    let own: Vec<Vec<u8>> = info
        .iter()
        .map(|&sec| {
            let mut attrs = Vec::new();
            for r in sec
                .and_then(|s| st.section_info.get(&s))
                .into_iter()
                .flatten()
                .filter(|r| !r.dropped)
            {
                if APPENDED.contains(&r.attr) && !attrs.contains(&r.attr) {
                    attrs.push(r.attr);
                }
            }
            attrs
        })
        .collect();
    let mut orders: Vec<(SecId, Vec<u8>)> = Vec::new();
    for (k, reached) in owned {
        let Some(sec) = info[*k] else { continue };
        let Some(tail) = st.section_info_tail.get(&sec) else {
            continue;
        };
        if !several(tail) {
            continue;
        }
        let met: Vec<u8> = if lone {
            APPENDED.to_vec()
        } else {
            let mut functions: Vec<(SecId, usize)> = reached
                .iter()
                .filter_map(|&f| info[f].map(|s| (s, f)))
                .collect();
            functions.sort_unstable();
            let mut met = Vec::new();
            for (_, f) in functions {
                for &a in &own[f] {
                    if !met.contains(&a) {
                        met.push(a);
                    }
                }
            }
            met
        };
        orders.push((sec, met));
    }
    for (sec, met) in orders {
        let rank = |a: u8| met.iter().position(|&m| m == a).unwrap_or(usize::MAX);
        let Some(tail) = st.section_info_tail.get_mut(&sec) else {
            continue;
        };
        let slots: Vec<usize> = (0..tail.len())
            .filter(|&i| APPENDED.contains(&tail[i].attr))
            .collect();
        let mut records: Vec<InfoRecord<'_>> = slots.iter().map(|&i| tail[i]).collect();
        records.sort_by_key(|r| rank(r.attr));
        for (&i, r) in slots.iter().zip(records) {
            tail[i] = r;
        }
    }
}

/// Each live kernel (by function ordinal) with the functions it reaches through calls, in
/// post-order (each function's callees, in the order they were first recorded, before it;
/// the kernel itself left out).
type Reach = Vec<(usize, Vec<usize>)>;

/// One walk per kernel, shared by every property propagated along the call graph.
/// Each function's callees for what propagates along the call graph: its direct callees,
/// newest first, then what its indirect calls may reach — every address-taken function whose
/// prototype is the one the call site names (observed: a kernel that deletes through a virtual
/// destructor takes the deleting destructors' register count and their `free`).
/// The kernels that stay kernels in a final link, in symbol-table order: local (static)
/// kernels first, then global ones (those of `nvcc -ewp` inputs in their code order, as
/// `.symtab` lists them: see `kernels_in_code_order`).
pub(super) fn kernel_entries(st: &State<'_>, opts: &LinkOptions) -> Vec<(usize, SymIdx)> {
    let mut entries = Vec::new();
    for (i, f) in st.functions.iter().enumerate().skip(1) {
        if let (true, false, false, Some(sym)) = (f.is_entry, f.dead, f.demoted, f.sym) {
            entries.push((i, sym));
        }
    }
    entries.sort_by_key(|&(_, sym)| match sym.kind() {
        SymKind::Local(l) => (0, l.pos()),
        SymKind::Global(g) => (1, g.pos()),
    });
    if kernels_by_code(st, opts) {
        let first = entries
            .iter()
            .position(|(_, s)| matches!(s.kind(), SymKind::Global(_)))
            .unwrap_or(entries.len());
        let mut slots: Vec<usize> = entries[first..]
            .iter()
            .filter_map(|(_, s)| match s.kind() {
                SymKind::Global(g) => Some(g.pos()),
                SymKind::Local(_) => None,
            })
            .collect();
        kernels_in_code_order(st, &mut slots);
        let func: FxHashMap<usize, usize> = entries[first..]
            .iter()
            .filter_map(|&(i, s)| match s.kind() {
                SymKind::Global(g) => Some((g.pos(), i)),
                SymKind::Local(_) => None,
            })
            .collect();
        for (e, slot) in entries[first..].iter_mut().zip(slots) {
            if let (Some(&i), Some(g)) = (
                func.get(&slot),
                crate::arena::GlobalIdx::from_slot(slot as u32),
            ) {
                *e = (i, SymIdx::from(g));
            }
        }
    }
    entries
}

/// nvlink's warning for each kernel whose stack size recursion leaves unknown, once per cycle
/// (see `recursion_cycles`), in kernel order: given once dead code is gone and before
/// undefined references are reported (observed: printed ahead of them). The call lists made
/// for it are kept for [`finalize`].
pub fn warn_unknown_stack_sizes(st: &mut State<'_>, opts: &LinkOptions, diags: &mut Diagnostics) {
    if opts.relocatable {
        return;
    }
    let calls = calls_with_indirect(st);
    // (Frame sizes do not matter here: a stack is unknown exactly where recursion is.)
    let stack = min_stacks(st, &calls);
    for (i, sym) in kernel_entries(st, opts) {
        if stack[i].is_some() {
            continue;
        }
        let name = st.sym(sym).name();
        for _ in 0..recursion_cycles(&calls, i) {
            diags.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "Stack size for entry function '{name}' cannot be statically determined"
                    ),
                )
                .about_symbol(name),
            );
        }
    }
    st.call_lists = Some(calls);
}

fn calls_with_indirect(st: &State<'_>) -> CallLists {
    let mut extended: FxHashMap<usize, Vec<FuncId>> = FxHashMap::default();
    if !st.indirect_calls.is_empty() {
        let mut by_prototype: FxHashMap<u32, Vec<FuncId>> = FxHashMap::default();
        for &(f, proto) in &st.address_taken {
            if !st.func(f).dead {
                let targets = by_prototype.entry(proto).or_default();
                if !targets.contains(&f) {
                    targets.push(f);
                }
            }
        }
        for &(f, proto) in &st.indirect_calls {
            for &t in by_prototype.get(&proto).map(Vec::as_slice).unwrap_or(&[]) {
                let list = extended
                    .entry(f.0 as usize)
                    .or_insert_with(|| st.func(f).callees.to_vec());
                if !list.contains(&t) {
                    list.push(t);
                }
            }
        }
    }
    let n = st.functions.len();
    let mut calls = CallLists {
        start: Vec::with_capacity(n + 1),
        edges: Vec::with_capacity(st.functions.iter().map(|f| f.callees.len()).sum()),
    };
    calls.start.push(0);
    for (i, f) in st.functions.iter().enumerate() {
        let list = extended.get(&i).map_or(f.callees.as_slice(), Vec::as_slice);
        calls.edges.extend_from_slice(list);
        calls.start.push(calls.edges.len() as u32);
    }
    calls
}

/// Each function's callees for what propagates along the call graph (see
/// `calls_with_indirect`), by function ordinal, in one contiguous list: the walks from
/// every kernel read them many times over.
pub struct CallLists {
    /// Where each function's callees start in `edges` (one more entry than functions).
    start: Vec<u32>,
    /// The callees of every function, one function after another.
    edges: Vec<FuncId>,
}

impl CallLists {
    /// Number of functions.
    fn len(&self) -> usize {
        self.start.len() - 1
    }
}

impl std::ops::Index<usize> for CallLists {
    type Output = [FuncId];
    fn index(&self, f: usize) -> &[FuncId] {
        &self.edges[self.start[f] as usize..self.start[f + 1] as usize]
    }
}

fn kernel_reach(st: &State<'_>, calls: &CallLists) -> Reach {
    let mut seen = Visited::new(st.functions.len());
    let mut out = Vec::new();
    // (The walk's lists are reused from kernel to kernel, each kernel's order copied out at
    // its size: a large link has thousands of kernels.)
    let mut order = Vec::new();
    let mut path: Vec<(usize, usize)> = Vec::new();
    for k in 1..st.functions.len() {
        let f = &st.functions[k];
        if !f.is_entry || f.dead || f.demoted {
            continue;
        }
        seen.clear();
        seen.insert(k);
        order.clear();
        path.clear();
        path.push((k, 0));
        while let Some(top) = path.last_mut() {
            let (f, next) = *top;
            let callees = &calls[f];
            if next < callees.len() {
                top.1 += 1;
                let c = callees[callees.len() - 1 - next].0 as usize;
                if seen.insert(c) {
                    path.push((c, 0));
                }
                continue;
            }
            path.pop();
            if !path.is_empty() {
                order.push(f);
            }
        }
        out.push((k, order.to_vec()));
    }
    out
}

/// Each function's `.nv.info.<f>` section, by function ordinal.
fn info_sections(st: &State<'_>) -> Vec<Option<SecId>> {
    // `.nv.info.<f>` points at `.text.<f>` through sh_info (by the code's section id: a
    // column, not a hash map, for a large link's tens of thousands of sections).
    let (types, infos) = (&st.sections.sh_type, &st.sections.info);
    let mut of_text: Vec<Option<SecId>> = vec![None; types.len()];
    for (i, (&t, &info)) in types.iter().zip(infos).enumerate() {
        if let (SHT_CUDA_INFO, Link::Section(text)) = (t, info) {
            if let Some(slot) = of_text.get_mut(text.index()) {
                *slot = Some(SecId(i as u32));
            }
        }
    }
    // (Not a function inside another's code, an `nvcc -ewp` kernel's internal function: the
    // section's records are its owner's, which counts them once. Observed, sm_100, a final
    // link of an `-r` image whose kernel holds one mbarrier and a division helper: 1.)
    st.functions
        .iter()
        .map(|f| {
            let sym = f.sym?;
            let SymSection::Section(text) = st.sym(sym).section() else {
                return None;
            };
            if let Link::Symbol { sym: owner, .. } = st.sec(text).info() {
                if owner != sym {
                    return None;
                }
            }
            of_text.get(text.index()).copied().flatten()
        })
        .collect()
}

/// A visited set over function ordinals that clears in time proportional to what it holds,
/// so walks from many kernels over a large call graph stay linear in what they visit.
struct Visited {
    seen: Vec<bool>,
    set: Vec<usize>,
}

impl Visited {
    fn new(n: usize) -> Visited {
        Visited {
            seen: vec![false; n],
            set: Vec::new(),
        }
    }
    /// Marks `f`; false when it was already marked.
    fn insert(&mut self, f: usize) -> bool {
        if std::mem::replace(&mut self.seen[f], true) {
            return false;
        }
        self.set.push(f);
        true
    }
    fn clear(&mut self) {
        for f in self.set.drain(..) {
            self.seen[f] = false;
        }
    }
}

/// Only what the writer keeps can be listed in `EIATTR_EXTERNS`: symbols still undefined,
/// and kernels.
fn externs_kept(syms: SymbolView<'_, '_>, s: SymIdx) -> bool {
    let x = syms.sym(s);
    !x.removed() && (!x.is_defined() || x.func().is_some_and(|f| syms.func(f).is_entry))
}

/// Where function `f` was defined: its input, then its section's place in the output's
/// creation order (undefined functions last).
fn definition_order(st: &State<'_>, f: usize) -> (usize, u32) {
    match st.functions[f].sym.map(|s| st.sym(s)) {
        Some(x) => match x.section() {
            super::state::SymSection::Section(sec) => (x.input(), sec.0),
            _ => (usize::MAX, u32::MAX),
        },
        None => (usize::MAX, u32::MAX),
    }
}

/// Where each function came from: its input, then the index of its `.nv.info.<f>` section in
/// that input, or of its `.text` section when it has none there (undefined functions last).
/// `EIATTR_EXTERNS` lists are gathered in this order. The records' order is not the code's in
/// a `-r` image, which keeps its inputs' `.nv.info.<f>` order and writes the code in another
/// (observed, sm_90 `-g`: a kernel reaching `~Tri` (free) and `__assert_fail` lists free
/// first, as the records come, though `__assert_fail`'s code comes first in the image).
fn input_places(st: &State<'_>, info: &[Option<SecId>]) -> Vec<(usize, u32)> {
    (0..st.functions.len())
        .map(|f| {
            let Some(x) = st.functions[f].sym.map(|s| st.sym(s)) else {
                return (usize::MAX, u32::MAX);
            };
            let records = info.get(f).copied().flatten();
            if let Some(&(input, idx)) = records.and_then(|s| st.info_places.get(&s)) {
                if input == x.input() {
                    return (input, idx);
                }
            }
            match x.section() {
                SymSection::Section(sec) => (
                    x.input(),
                    st.nodes_of(sec)
                        .next()
                        .map_or(u32::MAX, |n| n.record().in_section),
                ),
                _ => (usize::MAX, u32::MAX),
            }
        })
        .collect()
}

/// A kernel's `EIATTR_EXTERNS` lists what the functions that belong to it list, each symbol
/// once (what stays listed is decided when the records are written). Which functions belong
/// to it, and in what order (fitted to nvlink 13.5 on 240 generated two-TU links and checked
/// on 184 generated links of one to three TUs built with `-G` or `-dc`, linked with and
/// without `-g`, with libcudadevrt, on sm_80, sm_90 and sm_100):
///
/// - A lone kernel owns every function in the link that dead-code elimination kept, itself
///   included, in the order their code came in (input, then section in the input). Under
///   `-g` nothing is eliminated, so a function nobody calls adds its entries too; a kernel
///   that lists what it calls from an earlier input gets those functions' entries first.
/// - With several kernels (libcudadevrt's memset/memcpy kernels count), a kernel's own
///   entries come first, then those of the functions it reaches through calls, in the order
///   their code came in. A kernel named in an entry (a device launch) is not a call: what
///   it reaches stays its own.
///
/// When the list holds nothing the kernel's own entries lack, the record stays as it was.
/// Otherwise the new list replaces the record in place when the link has several kernels;
/// a lone kernel's old record is dropped and the list becomes a new record after its others.
fn propagate_externs(st: &mut State<'_>, info: &[Option<SecId>], own: &OwnInfo, reach: &Reach) {
    let bump = st.bump;
    let own = |f: usize| own.externs(f);
    let places = input_places(st, info);
    let several_kernels = reach.len() > 1;
    let mut lone_order: Vec<usize> = Vec::new();
    if !several_kernels {
        lone_order = (1..st.functions.len())
            .filter(|&f| !st.functions[f].dead)
            .collect();
        lone_order.sort_by_key(|&f| places[f]);
    }
    // Each kernel's list depends only on what the functions listed as merged and on the
    // symbols: the lists are made on all cores, then written in kernel order.
    let syms = st.symbol_view();
    let kept = |s: SymIdx| externs_kept(syms, s);
    // (Per kernel: its `.nv.info.<k>`, the list, and what its own record keeps of it.)
    type KernelList = (SecId, Vec<SymIdx>, Vec<SymIdx>);
    let lists: Vec<Option<KernelList>> = reach
        .par_iter()
        .map_init(
            rustc_hash::FxHashSet::<SymIdx>::default,
            |listed, (k, reached)| {
                let k = *k;
                let sec = info[k]?;
                let mut order: Vec<usize>;
                let functions: &[usize] = if several_kernels {
                    order = Vec::with_capacity(reached.len() + 1);
                    order.push(k);
                    order.extend(reached.iter().copied());
                    order[1..].sort_by_key(|&f| places[f]);
                    &order
                } else {
                    &lone_order
                };
                listed.clear();
                let mut list = Vec::new();
                for &f in functions {
                    for &s in own(f) {
                        if kept(s) && listed.insert(s) {
                            list.push(s);
                        }
                    }
                }
                let as_merged: Vec<SymIdx> = own(k).iter().copied().filter(|&s| kept(s)).collect();
                Some((sec, list, as_merged))
            },
        )
        .collect();
    for (sec, list, as_merged) in lists.into_iter().flatten() {
        let unchanged = list.iter().all(|s| as_merged.contains(s));
        let record = st.section_info.get_mut(&sec).and_then(|rs| {
            rs.iter_mut()
                .find(|r| r.attr == super::merge::EIATTR_EXTERNS && !r.dropped)
        });
        match record {
            Some(r) if unchanged => r.externs = bump.alloc_slice_copy(&as_merged),
            Some(r) if several_kernels => r.externs = bump.alloc_slice_copy(&list),
            record => {
                if let Some(r) = record {
                    r.dropped = true;
                }
                if !list.is_empty() {
                    st.section_info_tail
                        .entry(sec)
                        .or_default()
                        .push(InfoRecord {
                            format: EIFMT_SVAL,
                            attr: super::merge::EIATTR_EXTERNS,
                            payload: &[],
                            sym: None,
                            externs: bump.alloc_slice_copy(&list),
                            dropped: false,
                        });
                }
            }
        }
    }
}

/// Every function's deepest call-chain stack (its frame plus its deepest callee's), `None`
/// when recursion is reachable from it. One memoized depth-first walk over the whole call
/// graph, iterative so that deep call chains cannot exhaust the native stack.
/// How many call cycles a depth-first walk from `root` closes (its back edges): nvlink warns
/// once per cycle that a kernel's stack size cannot be determined (observed: one line for a
/// self-recursive fib, two when fib and an even/odd pair are both reached).
fn recursion_cycles(calls: &CallLists, root: usize) -> usize {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let mut mark = vec![Mark::New; calls.len()];
    let mut cycles = 0;
    let mut path: Vec<(usize, usize)> = vec![(root, 0)];
    mark[root] = Mark::OnPath;
    while let Some(top) = path.last_mut() {
        let (f, next) = *top;
        if let Some(&c) = calls[f].get(next) {
            top.1 += 1;
            let c = c.0 as usize;
            match mark[c] {
                Mark::New => {
                    mark[c] = Mark::OnPath;
                    path.push((c, 0));
                }
                Mark::OnPath => cycles += 1,
                Mark::Done => {}
            }
            continue;
        }
        mark[f] = Mark::Done;
        path.pop();
    }
    cycles
}

fn min_stacks(st: &State<'_>, calls: &CallLists) -> Vec<Option<u64>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let n = st.functions.len();
    let mut mark = vec![Mark::New; n];
    let mut result: Vec<Option<u64>> = vec![None; n];
    // (function, next callee to look at, deepest callee so far; None once recursion is seen)
    let mut path: Vec<(usize, usize, Option<u64>)> = Vec::new();
    for root in 1..n {
        if mark[root] != Mark::New {
            continue;
        }
        mark[root] = Mark::OnPath;
        path.push((root, 0, Some(0)));
        while let Some(top) = path.last_mut() {
            let (f, next, deepest) = *top;
            let callees = &calls[f];
            if next < callees.len() && deepest.is_some() {
                top.1 += 1;
                let c = callees[next].0 as usize;
                match mark[c] {
                    Mark::New => {
                        mark[c] = Mark::OnPath;
                        path.push((c, 0, Some(0)));
                    }
                    Mark::OnPath => top.2 = None,
                    Mark::Done => top.2 = deepest.zip(result[c]).map(|(d, r)| d.max(r)),
                }
                continue;
            }
            path.pop();
            mark[f] = Mark::Done;
            let own = st.functions[f].frame_size.unwrap_or(0) as u64;
            result[f] = deepest.map(|d| own + d);
            if let Some(parent) = path.last_mut() {
                parent.2 = parent.2.zip(result[f]).map(|(d, r)| d.max(r));
            }
        }
    }
    result
}

/// `reloc_counts`: by creation id, how many relocations each section has left
/// ([`relocation_counts`]); `named_sections`: how many sections (the null one aside) keep their
/// names.
fn mark_empty_sections(
    st: &mut State<'_>,
    (callgraph, prototype): (SecId, SecId),
    (reloc_counts, named_sections): (&[usize], usize),
    opts: &LinkOptions,
) {
    for (i, &count) in reloc_counts.iter().enumerate().skip(1) {
        let has_relocs = count != 0;
        let id = SecId(i as u32);
        let s = st.sections.at(i);
        if s.removed() {
            continue;
        }
        let empty = match s.sh_type() {
            SHT_STRTAB | SHT_SYMTAB | SHT_NOTE => false,
            // Made only when nvlink's section table (every section ever created, by the
            // names in `.shstrtab`) reaches 0xff00 entries (observed: 65,278 names → no
            // `.symtab_shndx`, 65,279 → one).
            SHT_SYMTAB_SHNDX => named_sections + 1 < u32::from(SHN_LORESERVE) as usize,
            SHT_REL | SHT_RELA | SHT_CUDA_RESOLVED_RELA => !has_relocs && !s.keep_empty(),
            SHT_CUDA_INFO => {
                if s.name() == ".nv.info" {
                    st.info.iter().chain(st.info_tail.iter()).all(|r| r.dropped)
                } else {
                    st.section_info
                        .get(&id)
                        .is_none_or(|r| r.iter().all(|r| r.dropped))
                }
            }
            SHT_CUDA_CALLGRAPH | SHT_CUDA_PROTOTYPE => {
                id != callgraph && id != prototype
                    || (id == prototype && {
                        let recorded = address_recorded(st);
                        !(1..st.functions.len()).any(|f| prototype_listed(st, f, &recorded))
                    })
            }
            SHT_CUDA_COMPAT | SHT_CUDA_RELOCINFO => false,
            // The shared-memory layout decides which shared sections stay.
            SHT_CUDA_SHARED if opts.relocatable => s.size() == 0,
            SHT_CUDA_SHARED => {
                if s.size() == 0 {
                    if let Some(sym) = s.symbol() {
                        st.locals.removed[sym.pos()] = true;
                    }
                }
                false
            }
            // Debug sections are kept empty (observed: a link of a translation unit with no
            // device code, whose input `.debug_frame` is empty, on sm_80 and sm_100, final and
            // `-r`; built `-G`, its empty `.nv_debug_info_reg_sass` and `_reg_type` too).
            SHT_PROGBITS if s.flags() & SHF_ALLOC == 0 && is_debug_section(s.name()) => false,
            _ => s.size() == 0,
        };
        if empty {
            st.sections.removed[i] = true;
            if let Some(sym) = st.sections.symbol[i] {
                st.locals.removed[sym.pos()] = true;
            }
        }
    }
}

/// nvlink's output section order: the string and symbol tables first, then buckets by kind,
/// creation order within a bucket (observed on sm_75–sm_90 final links).
fn bucket(s: SectionRef<'_, '_>) -> u32 {
    let alloc = s.flags() & SHF_ALLOC != 0;
    match s.sh_type() {
        SHT_STRTAB | SHT_SYMTAB => 0,
        // First of the metadata bucket (made before `.note.nv.tkinfo`), after debug data.
        SHT_SYMTAB_SHNDX => 2,
        SHT_REL | SHT_RELA | SHT_CUDA_RESOLVED_RELA => 3,
        SHT_NOBITS
        | SHT_CUDA_GLOBAL
        | SHT_CUDA_SHARED
        | SHT_CUDA_LOCAL
        | SHT_CUDA_SHARED_RESERVED => 7,
        _ if !alloc && s.sh_type() == SHT_PROGBITS => 1,
        _ if !alloc => 2,
        _ if s.flags() & SHF_EXECINSTR != 0 => 5,
        _ if s.flags() & SHF_WRITE != 0 => 6,
        _ => 4,
    }
}

fn order_sections(st: &State<'_>, fin: &mut Finalized, opts: &LinkOptions) {
    // Creation order within a bucket: each section goes to the end of its bucket's list.
    let mut buckets: [Vec<SecId>; 9] = Default::default();
    // sm_100+: the kernels' constant banks come last, in their kernels' `.text` order
    // (observed; the finalizer appends them).
    let merc = opts.target.is_mercury();
    for i in 1..st.sections.len() {
        let s = st.sections.at(i);
        if s.removed() {
            continue;
        }
        // (But not the banks that took texture/surface slots: the link made them, after the
        // other constant banks; see `bindless::SlotBank`.)
        if merc && super::bindless::is_slot_bank(st, SecId(i as u32)) {
            continue;
        }
        let b = if merc && is_kernel_bank(s) {
            8
        } else {
            bucket(s)
        };
        buckets[b as usize].push(SecId(i as u32));
    }
    buckets[4].extend(st.slot_banks.iter().map(|b| b.bank));
    buckets[8].sort_by_key(|&id| kernel_bank_key(st, id));
    let mut ids: Vec<SecId> = Vec::with_capacity(buckets.iter().map(Vec::len).sum());
    for b in &buckets {
        ids.extend_from_slice(b);
    }
    for (n, &id) in ids.iter().enumerate() {
        fin.out_index[id.index()] = n as u32 + 1;
    }
    fin.order = ids;
}

/// Output symbol numbering.
#[derive(Clone, Debug, Default)]
pub struct SymbolNumbers {
    local: Vec<u32>,
    global: Vec<u32>,
    /// Index of the first non-local symbol.
    pub first_global: u32,
    /// `.symtab`'s `sh_info`: one past the last local (on sm_100+, where the kernels'
    /// constant-bank section symbols come last, the symbol count).
    pub symtab_info: u32,
    /// How many symbols (after the null one) `.nv.merc.symtab` mirrors: all but the trailing
    /// constant-bank section symbols.
    pub mirrored: usize,
    /// Symbols in output order.
    pub order: Vec<SymIdx>,
}

impl SymbolNumbers {
    /// The output index of `sym` (0 if it is not in the image).
    pub fn get(&self, sym: SymIdx) -> u32 {
        match sym.kind() {
            SymKind::Local(l) => self.local[l.pos()],
            SymKind::Global(g) => self.global[g.pos()],
        }
    }
}

fn symbol_in_image(st: &State<'_>, s: SymbolRef) -> bool {
    if s.removed() {
        return false;
    }
    // Shared variables only appear in `-g` links (see `place_shared_symbols`).
    if s.shared().is_some() && s.section() == SymSection::Undef {
        return false;
    }
    match s.section() {
        SymSection::Section(id) => !(s.sym_type() == STT_SECTION && st.sec(id).removed()),
        _ => true,
    }
}

fn number_symbols(st: &State<'_>, opts: &LinkOptions) -> SymbolNumbers {
    let mut n = 1u32;
    let mut local = vec![0; st.locals.len()];
    let mut global = vec![0; st.globals.len()];
    let mut order = Vec::new();
    // sm_100+: the kernels' constant-bank section symbols come after the globals (observed).
    // (Those of the banks that took texture/surface slots come last among the locals, in the
    // order the banks were made: see `bindless::SlotBank`.)
    let slot_bank = |s: SymbolRef| -> Option<usize> {
        match s.section() {
            SymSection::Section(id) if s.sym_type() == STT_SECTION => {
                st.slot_banks.iter().position(|b| b.bank == id)
            }
            _ => None,
        }
    };
    let last = |s: SymbolRef| -> bool {
        opts.target.is_mercury()
            && s.sym_type() == STT_SECTION
            && matches!(s.section(), SymSection::Section(id) if is_kernel_bank(st.sec(id)))
    };
    let mut moved = Vec::new();
    let mut slot_banks = Vec::new();
    for (i, s) in st.locals.iter().enumerate().skip(1) {
        if symbol_in_image(st, s) {
            if let Some(k) = slot_bank(s) {
                slot_banks.push((k, i));
                continue;
            }
            if last(s) {
                moved.push(i);
                continue;
            }
            local[i] = n;
            n += 1;
            order.push(crate::arena::LocalIdx::from_slot(i as u32).unwrap().into());
        }
    }
    slot_banks.sort_unstable();
    for (_, i) in slot_banks {
        local[i] = n;
        n += 1;
        order.push(crate::arena::LocalIdx::from_slot(i as u32).unwrap().into());
    }
    // sm_100+ `-g` and `--preserve-relocs`: shared variables written as locals (a template
    // kernel's weak arrays) are numbered with the locals, after them (observed; below sm_100
    // they stay among the non-local symbols).
    let local_now = |s: SymbolRef| {
        opts.target.is_mercury()
            && opts.shows_shared_layout()
            && s.shared().is_some()
            && s.info() >> 4 == 0
    };
    for (i, s) in st.globals.iter().enumerate().skip(1) {
        if local_now(s) && symbol_in_image(st, s) {
            global[i] = n;
            n += 1;
            order.push(crate::arena::GlobalIdx::from_slot(i as u32).unwrap().into());
        }
    }
    let first_global = n;
    let mut globals: Vec<usize> = st
        .globals
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, s)| !local_now(*s) && symbol_in_image(st, *s))
        .map(|(i, _)| i)
        .collect();
    if kernels_by_code(st, opts) {
        kernels_in_code_order(st, &mut globals);
    }
    for i in globals {
        global[i] = n;
        n += 1;
        order.push(crate::arena::GlobalIdx::from_slot(i as u32).unwrap().into());
    }
    let mirrored = order.len();
    // In `.nv.constant0.<k>` section order, which is the kernels' `.text` order.
    moved.sort_by_key(|&i| match st.locals.section[i] {
        SymSection::Section(id) => kernel_bank_key(st, id),
        _ => (u32::MAX, 0),
    });
    for i in moved {
        local[i] = n;
        n += 1;
        order.push(crate::arena::LocalIdx::from_slot(i as u32).unwrap().into());
    }
    SymbolNumbers {
        local,
        global,
        first_global,
        symtab_info: if order.len() > mirrored {
            n
        } else {
            first_global
        },
        mirrored,
        order,
    }
}

/// Whether the kernels' names follow their code (`kernels_in_code_order`): links of `nvcc
/// -ewp` objects, and of the `-r` images of such objects, which are plain relocatable
/// objects but still hold internal functions (`$k$f`, a local function inside a kernel's
/// section; observed, sm_100 and sm_120: the final link of a `-r` image of four `-ewp`
/// objects lists the kernels in the order of their sections).
fn kernels_by_code(st: &State<'_>, opts: &LinkOptions) -> bool {
    if opts.whole_program_inputs {
        return true;
    }
    let kernel_code: rustc_hash::FxHashSet<SecId> = st
        .functions
        .iter()
        .skip(1)
        .filter(|f| f.is_entry)
        .filter_map(|f| match f.sym.map(|s| st.sym(s).section()) {
            Some(SymSection::Section(t)) => Some(t),
            _ => None,
        })
        .collect();
    st.locals.iter().skip(1).any(|s| {
        s.sym_type() == STT_FUNC
            && s.name().starts_with('$')
            && matches!(s.section(), SymSection::Section(t) if kernel_code.contains(&t))
    })
}

/// Links of `nvcc -ewp` objects: each input's kernels (`globals`, slots of `st.globals` in
/// output order) take the places its kernels hold among them in the order of their `.text`
/// sections, not of their input symbols (observed, sm_100 `-r`: a kernel whose section also
/// holds an internal function has it made first, and its name then comes first in `.symtab`
/// and `.strtab` too).
fn kernels_in_code_order(st: &State<'_>, globals: &mut [usize]) {
    let sym =
        |i: usize| crate::arena::GlobalIdx::from_slot(i as u32).map(|g| st.sym(SymIdx::from(g)));
    let code = |i: usize| -> Option<SecId> {
        let s = sym(i)?;
        match s.section() {
            SymSection::Section(id)
                if s.sym_type() == STT_FUNC && s.other() & super::merge::STO_CUDA_ENTRY != 0 =>
            {
                Some(id)
            }
            _ => None,
        }
    };
    let mut inputs: Vec<usize> = globals
        .iter()
        .filter(|&&i| code(i).is_some())
        .filter_map(|&i| sym(i).map(|s| s.input()))
        .collect();
    inputs.sort_unstable();
    inputs.dedup();
    for input in inputs {
        let places: Vec<usize> = (0..globals.len())
            .filter(|&p| {
                code(globals[p]).is_some() && sym(globals[p]).is_some_and(|s| s.input() == input)
            })
            .collect();
        let mut kernels: Vec<usize> = places.iter().map(|&p| globals[p]).collect();
        kernels.sort_by_key(|&i| code(i).map_or(u32::MAX, |id| id.0));
        for (&p, k) in places.iter().zip(kernels) {
            globals[p] = k;
        }
    }
}

/// A kernel's own constant bank (`.nv.constant0.<k>`, tied to its `.text` by `sh_info`). Not
/// the compiler's constants (bank 2), which stay with the other banks on sm_100+ (observed).
fn is_kernel_bank(s: SectionRef<'_, '_>) -> bool {
    super::merge::is_constant_bank(s.sh_type())
        && s.sh_type() != SHT_CUDA_CONSTANT0 + 2
        && matches!(s.info(), Link::Section(_))
}

/// Sort key of a kernel's constant bank on sm_100+: its kernel's `.text` creation order.
fn kernel_bank_key(st: &State<'_>, bank: SecId) -> (u32, u32) {
    match st.sec(bank).info() {
        Link::Section(text) => (text.0, bank.0),
        _ => (u32::MAX, bank.0),
    }
}

/// `.strtab`: the interned strings, then the local namespace's names, then the global
/// namespace's, each once (a section's name only while it has one: `name_removed`, by creation
/// id).
fn build_strtab<'d>(
    interned: &[&'d str],
    local_order: &[(&'d str, NameOwner)],
    global_order: &[(&'d str, NameOwner)],
    name_removed: &[bool],
) -> (Vec<u8>, FxHashMap<&'d str, u32>, NameOffsets) {
    let names = interned.len() + local_order.len() + global_order.len();
    let all = || {
        interned
            .iter()
            .copied()
            .chain(local_order.iter().chain(global_order).map(|&(n, _)| n))
    };
    let mut out = Vec::with_capacity(1 + all().map(|n| n.len() + 1).sum::<usize>());
    out.push(0);
    let mut offsets: FxHashMap<&'d str, u32> =
        FxHashMap::with_capacity_and_hasher(names, Default::default());
    for &s in interned {
        offsets.insert(s, out.len() as u32);
        out.extend_from_slice(s.as_bytes());
        out.push(0);
    }
    let mut owners = NameOffsets::default();
    for &(name, owner) in local_order.iter().chain(global_order) {
        if let NameOwner::Section(id) = owner {
            if name_removed[id.index()] {
                continue;
            }
        }
        let at = match offsets.entry(name) {
            std::collections::hash_map::Entry::Occupied(o) => *o.get(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let at = out.len() as u32;
                v.insert(at);
                out.extend_from_slice(name.as_bytes());
                out.push(0);
                at
            }
        };
        owners.set(owner, at);
    }
    (out, offsets, owners)
}

/// Where `.strtab` put the name each section and symbol registered (by its owner's index;
/// `u32::MAX` where none): [`build_symtab`] checks a symbol's name against it before hashing.
#[derive(Default)]
struct NameOffsets {
    local: Vec<u32>,
    global: Vec<u32>,
    section: Vec<u32>,
}

impl NameOffsets {
    fn set(&mut self, owner: NameOwner, at: u32) {
        let (list, i) = match owner {
            NameOwner::Section(id) => (&mut self.section, id.index()),
            NameOwner::Symbol(sym) => match sym.kind() {
                SymKind::Local(l) => (&mut self.local, l.pos()),
                SymKind::Global(g) => (&mut self.global, g.pos()),
            },
        };
        if i >= list.len() {
            list.resize(i + 1, u32::MAX);
        }
        list[i] = at;
    }

    /// The offset recorded for symbol `sym` (for a section symbol, for its section), if any.
    fn guess(&self, sym: SymIdx, s: SymbolRef<'_, '_>) -> Option<u32> {
        let at = match (sym.kind(), s.section()) {
            (SymKind::Local(_), SymSection::Section(id)) if s.sym_type() == STT_SECTION => {
                self.section.get(id.index())
            }
            (SymKind::Local(l), _) => self.local.get(l.pos()),
            (SymKind::Global(g), _) => self.global.get(g.pos()),
        };
        at.copied().filter(|&at| at != u32::MAX)
    }
}

/// sm_100+ `.strtab` (the Mercury writer's): `.symtab` names in symbol order, then
/// `.nv.merc.symtab`'s, then the prototype strings in the order `.nv.callgraph` and
/// `.nv.prototype` refer to them. Returns the table, the offset of each symbol name, the new
/// offset of each prototype string (by its old interned offset) and `.nv.merc.symtab`'s name
/// offsets.
#[allow(clippy::type_complexity)]
fn build_merc_strtab<'d>(
    st: &State<'d>,
    nums: &SymbolNumbers,
) -> (
    Vec<u8>,
    FxHashMap<&'d str, u32>,
    FxHashMap<u32, u32>,
    Vec<u32>,
) {
    let symtab: Vec<&[u8]> = nums
        .order
        .iter()
        .map(|&i| st.sym(i).name().as_bytes())
        .collect();
    let merc: Vec<&[u8]> = nums.order[..nums.mirrored]
        .iter()
        .map(|&i| {
            let s = st.sym(i);
            if s.sym_type() == STT_SECTION && s.name() == ".nv.constant3" {
                &b".nv.constant.user"[..]
            } else if let Some(k) = s
                .name()
                .strip_prefix(".nv.constant0.")
                .filter(|_| s.sym_type() == STT_SECTION)
                .filter(|_| matches!(s.section(), SymSection::Section(id) if super::bindless::is_slot_bank(st, id)))
            {
                st.bump
                    .alloc_str(&format!("{}{k}", super::bindless::MERC_SLOT_BANK_SYMBOL))
                    .as_bytes()
            } else {
                s.name().as_bytes()
            }
        })
        .collect();
    let by_offset: FxHashMap<u32, &str> =
        st.interned_offsets.iter().map(|(&s, &o)| (o, s)).collect();
    let live = |f: FuncId| !st.func(f).dead && st.func(f).sym.is_some();
    // Indirect calls' strings in the order the callgraph lists them (observed: a kernel's
    // three indirect calls whose strings the input's table holds as `#b8i #vi #ii` come out
    // `#ii #vi #b8i`, as its records).
    let mut tokens: Vec<u32> = Vec::new();
    // The address-taken functions' strings likewise in the order of their `-2` records
    // (observed: a later input's virtual destructor (`#vl`) recorded before an earlier
    // input's `Node::eval` (`#ili`) in `address_taken`, the callgraph listing Node::eval
    // first: `#ili` comes first).
    let (taken, calls) = prototype_records(st);
    for (f, t) in taken.into_iter().chain(calls) {
        if live(f) {
            tokens.push(t);
        }
    }
    for f in st.functions.iter().skip(1) {
        if let (Some(_), Some(p), false) = (f.sym, f.prototype, f.dead) {
            tokens.push(p);
        }
    }
    let protos: Vec<&[u8]> = tokens
        .iter()
        .map(|t| by_offset.get(t).map_or(&b""[..], |s| s.as_bytes()))
        .collect();
    let names = crate::mercury::symbol_name_table(&symtab, &merc, &protos);
    let mut offsets: FxHashMap<&'d str, u32> = FxHashMap::default();
    for (&i, &o) in nums.order.iter().zip(names.symtab.iter()) {
        offsets.entry(st.sym(i).name()).or_insert(o);
    }
    let strings = tokens
        .iter()
        .copied()
        .zip(names.prototypes.iter().copied())
        .collect();
    (names.bytes, offsets, strings, names.merc_symtab)
}

/// sm_100+: the SASS `.debug_frame` as the finalizer rebuilds it: each input's block without
/// the CIE/FDE entries of functions not in the image (dead, or the losing copy of a weak
/// function), CIE pointers rewritten; relocations move with their entry or go with it. A
/// function that several kept FDEs describe (a weak function whose copy from a later input won:
/// the earlier copy's FDE stays, as its relocation does) gets the rows of all of them in its
/// first FDE, and its later FDEs as Mercury left them (see [`frame_rewrites`]).
fn prune_debug_frame(st: &mut State<'_>, inputs: &[InputObject<'_>]) {
    let Some(df) = st.section_by_name(".debug_frame") else {
        return;
    };
    if st.sec(df).removed() {
        return;
    }
    let nodes: Vec<DataNode<'_>> = st.nodes_of(df).map(|n| n.record()).collect();
    // Relocations of the section by offset.
    let mut at: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    for (k, r) in st.relocs.iter().enumerate() {
        if r.target == df {
            at.entry(r.offset).or_default().push(k);
        }
    }
    /// Where one input block went: its old start and length, its new start, and each kept
    /// entry as (old offset, new offset, size) within the block.
    struct Moved {
        old_base: u64,
        len: u64,
        new_base: u64,
        entries: Vec<(usize, usize, usize)>,
    }
    // The kept FDEs of each block, with the function each describes.
    let mut described: Vec<FrameFde> = Vec::new();
    let blocks: Vec<Option<Vec<crate::mercury::FrameEntry>>> = nodes
        .iter()
        .map(|n| n.data.and_then(|b| crate::mercury::frame_entries(b).ok()))
        .collect();
    let keep = |n: &DataNode<'_>, e: &crate::mercury::FrameEntry| -> (bool, Option<SymIdx>) {
        let id_size = if e.length_size == 12 { 8 } else { 4 };
        let loc = n.offset + (e.offset + e.length_size + id_size) as u64;
        let Some(list) = at.get(&loc) else {
            return (true, None);
        };
        // The FDE goes with its function's relocation: dropped for a dead function and
        // for a weak copy that lost as it arrived (a copy replaced later keeps its FDE, as
        // its relocation stays: observed with weak functions from PTX of two targets).
        let mut func = None;
        let kept = list.iter().all(|&k| {
            let r = &st.relocs[k];
            let Some(sym) = r.sym else {
                return true;
            };
            let s = st.sym(sym);
            if s.sym_type() == STT_SECTION {
                return true;
            }
            func = Some(sym);
            !s.removed() && !r.dropped
        });
        (kept, func)
    };
    for (b, (n, entries)) in nodes.iter().zip(&blocks).enumerate() {
        for e in entries.iter().flatten().filter(|e| !e.is_cie()) {
            if let (true, Some(func)) = keep(n, e) {
                described.push(FrameFde {
                    block: b,
                    offset: e.offset,
                    func,
                });
            }
        }
    }
    let rewrites = frame_rewrites(st, inputs, &nodes, &blocks, &described);
    let mut out: Vec<u8> = Vec::new();
    let mut moves: Vec<Moved> = Vec::new();
    for (b, (n, entries)) in nodes.iter().zip(&blocks).enumerate() {
        let Some(block) = n.data else {
            continue;
        };
        let base = out.len() as u64;
        let whole = |out: &mut Vec<u8>| {
            out.extend_from_slice(block);
            Moved {
                old_base: n.offset,
                len: block.len() as u64,
                new_base: base,
                entries: vec![(0, 0, block.len())],
            }
        };
        let Some(entries) = entries else {
            // Not a frame section elfw understands: the block stays as it is.
            moves.push(whole(&mut out));
            continue;
        };
        let keep_fde = |o: usize| -> bool {
            entries
                .iter()
                .find(|e| e.offset == o)
                .is_none_or(|e| keep(n, e).0)
        };
        let replace = |o: usize| rewrites.get(&(b, o)).cloned();
        match crate::mercury::rebuild_debug_frame(block, base, keep_fde, replace) {
            Ok(p) => {
                let kept = p
                    .moved
                    .iter()
                    .filter_map(|&(old, new)| {
                        let e = entries.iter().find(|e| e.offset == old)?;
                        Some((old, new, e.size))
                    })
                    .collect();
                moves.push(Moved {
                    old_base: n.offset,
                    len: block.len() as u64,
                    new_base: base,
                    entries: kept,
                });
                out.extend_from_slice(&p.bytes);
            }
            Err(_) => moves.push(whole(&mut out)),
        }
    }
    // Blocks are in offset order.
    for r in st.relocs.iter_mut().filter(|r| r.target == df) {
        let i = moves.partition_point(|m| m.old_base <= r.offset);
        let Some(m) = i
            .checked_sub(1)
            .map(|i| &moves[i])
            .filter(|m| r.offset < m.old_base + m.len)
        else {
            continue;
        };
        let o = (r.offset - m.old_base) as usize;
        match m
            .entries
            .iter()
            .find(|&&(old, _, size)| o >= old && o < old + size)
        {
            Some(&(old, new, _)) => r.offset = m.new_base + (new + (o - old)) as u64,
            None => r.dropped = true,
        }
    }
    let size = out.len() as u64;
    *st.sec_mut(df).size() = size;
    st.pruned_debug_frame = Some(out);
}

/// A kept FDE of the SASS `.debug_frame`: its input block (index among the section's nodes),
/// its offset in the block and the function it describes.
struct FrameFde {
    block: usize,
    offset: usize,
    func: SymIdx,
}

/// The SASS and Mercury views of one FDE: the SASS entry, the SASS CIE it belongs to, and the
/// Mercury twins of both (see `lines::merc_frame_twin`: the same entries in the same order in
/// ptxas's objects; an nvlink `-r` image's Mercury table may hold more).
struct FdeViews<'d> {
    sass: &'d [u8],
    sass_cie: &'d [u8],
    sass_cie_offset: usize,
    merc: &'d [u8],
    merc_cie: &'d [u8],
    /// Whether the SASS CIE belongs to this FDE alone.
    own_cie: bool,
}

fn fde_views<'d>(
    inputs: &[InputObject<'d>],
    node: &DataNode<'d>,
    entries: &[crate::mercury::FrameEntry],
    offset: usize,
) -> Option<FdeViews<'d>> {
    let block = node.data?;
    let obj = inputs.get(node.input)?;
    let merc_sec = obj.elf.section_by_name(b".nv.merc.debug_frame")?;
    let merc = obj.elf.section_data(merc_sec).ok()?;
    let merc_entries = crate::mercury::frame_entries(merc).ok()?;
    let i = entries.iter().position(|e| e.offset == offset)?;
    let j = super::lines::merc_frame_twin(obj, entries, &merc_entries, i)?;
    let c = (0..i).rev().find(|&c| entries[c].is_cie())?;
    let mc = (0..j).rev().find(|&c| merc_entries[c].is_cie())?;
    let (e, ce, me, mce) = (
        &entries[i],
        &entries[c],
        &merc_entries[j],
        &merc_entries[mc],
    );
    if e.length_size != 12 || me.length_size != 12 || me.is_cie() || !mce.is_cie() {
        return None;
    }
    let own_cie = c + 1 == i && entries.get(i + 1).is_none_or(|n| n.is_cie());
    Some(FdeViews {
        sass: block.get(e.offset..e.offset + e.size)?,
        sass_cie: block.get(ce.offset..ce.offset + ce.size)?,
        sass_cie_offset: ce.offset,
        merc: merc.get(me.offset..me.offset + me.size)?,
        merc_cie: merc.get(mce.offset..mce.offset + mce.size)?,
        own_cie,
    })
}

/// The finalizer's rewrite of the entries of functions several kept FDEs describe (observed
/// on sm_100/sm_120: a weak function from two inputs where the later copy won, by PTX target
/// or register count). It builds each function's frame once, at its first FDE, from the rows
/// of all its FDEs: the winning copy's rows as its SASS FDE gives them, the other copies' rows
/// from their Mercury FDEs with Mercury offsets read in the winner's code (rows at the same
/// location merge; a location that is no instruction boundary elfw can place is left out:
/// see `lines::merc_placer`),
/// with the winner's address range. Every later FDE of the function is written as Mercury had
/// it, unconverted: its CIE is the Mercury CIE (code alignment 1), its range the Mercury range,
/// and its program empty. Returns the replacement bytes by (block, entry offset).
fn frame_rewrites<'d>(
    st: &State<'d>,
    inputs: &[InputObject<'d>],
    nodes: &[DataNode<'d>],
    blocks: &[Option<Vec<crate::mercury::FrameEntry>>],
    described: &[FrameFde],
) -> FxHashMap<(usize, usize), Vec<u8>> {
    use crate::mercury::{
        cie_code_align, fde_entry, fde_program, fde_range, frame_program, frame_rows, FrameRow,
    };
    let mut out = FxHashMap::default();
    let mut by_func: FxHashMap<SymIdx, Vec<&FrameFde>> = FxHashMap::default();
    for f in described {
        by_func.entry(f.func).or_default().push(f);
    }
    let mut funcs: Vec<(&SymIdx, &Vec<&FrameFde>)> =
        by_func.iter().filter(|(_, l)| l.len() > 1).collect();
    funcs.sort_by_key(|(_, l)| (l[0].block, l[0].offset));
    for (&func, list) in funcs {
        let views: Option<Vec<FdeViews<'d>>> = list
            .iter()
            .map(|f| {
                fde_views(
                    inputs,
                    &nodes[f.block],
                    blocks[f.block].as_deref()?,
                    f.offset,
                )
            })
            .collect();
        let Some(views) = views else {
            continue;
        };
        let winner_input = st.sym(func).input();
        let Some(w) = list
            .iter()
            .position(|f| nodes[f.block].input == winner_input)
        else {
            continue;
        };
        let wv = &views[w];
        let (Some(sass_align), Some(merc_align)) =
            (cie_code_align(wv.sass_cie), cie_code_align(wv.merc_cie))
        else {
            continue;
        };
        let (Ok(w_sass), Ok(w_merc)) = (
            frame_rows(fde_program(wv.sass), sass_align),
            frame_rows(fde_program(wv.merc), merc_align),
        ) else {
            continue;
        };
        // A `-r` image whose own link rebuilt the function's frame holds it at its first FDE of
        // the function (the rows of all its copies, the winner's range) and the rest empty:
        // that first FDE gives the winner's rows, its other FDEs nothing more (its Mercury
        // twin is the replaced copy's, so the rows do not pair).
        let others: Vec<&FdeViews<'d>> = list
            .iter()
            .zip(&views)
            .enumerate()
            .filter(|&(k, (f, _))| k != w && nodes[f.block].input == winner_input)
            .map(|(_, (_, v))| v)
            .collect();
        let rebuilt = !others.is_empty()
            && others.iter().all(|v| {
                cie_code_align(v.sass_cie) == Some(1)
                    && frame_rows(fde_program(v.sass), 1)
                        .is_ok_and(|r| r.iter().all(|row| row.ops.is_empty()))
            });
        if w_sass.len() != w_merc.len() && !rebuilt {
            continue;
        }
        // Mercury → SASS offsets in the winner's code, where its own rows and register
        // ranges pin them.
        let Some(obj) = inputs.get(winner_input) else {
            continue;
        };
        let place = super::lines::merc_placer(obj, st.sym(func).name().as_bytes());
        let mut rows: Vec<FrameRow> = Vec::new();
        let mut add = |loc: u64, ops: &[Vec<u8>]| {
            let i = rows.partition_point(|r| r.loc < loc);
            if rows.get(i).is_none_or(|r| r.loc != loc) {
                rows.insert(
                    i,
                    FrameRow {
                        loc,
                        ops: Vec::new(),
                    },
                );
            }
            for op in ops {
                if !rows[i].ops.contains(op) {
                    rows[i].ops.push(op.clone());
                }
            }
        };
        let mut ok = true;
        for (k, v) in views.iter().enumerate() {
            if k == w {
                for r in &w_sass {
                    add(r.loc, &r.ops);
                }
                continue;
            }
            if rebuilt && nodes[list[k].block].input == winner_input {
                continue;
            }
            let Some(Ok(merc_rows)) =
                cie_code_align(v.merc_cie).map(|a| frame_rows(fde_program(v.merc), a))
            else {
                ok = false;
                break;
            };
            for r in &merc_rows {
                if let Some(loc) = place(r.loc) {
                    add(loc, &r.ops);
                }
            }
        }
        let Some(range) = fde_range(wv.sass).filter(|_| ok) else {
            continue;
        };
        let first = &views[0];
        let Some(merged) = fde_entry(first.sass, range, &frame_program(&rows, sass_align)) else {
            continue;
        };
        out.insert((list[0].block, list[0].offset), merged);
        for (f, v) in list.iter().zip(&views).skip(1) {
            let Some(empty) = fde_range(v.merc).and_then(|r| fde_entry(v.sass, r, &[])) else {
                continue;
            };
            out.insert((f.block, f.offset), empty);
            if v.own_cie {
                out.insert((f.block, v.sass_cie_offset), v.merc_cie.to_vec());
            }
        }
    }
    out
}

/// `.shstrtab` from the sections' names and whether each name is gone (by creation id), with
/// each section's `sh_name` (by creation id).
fn build_shstrtab(
    names: &[&str],
    name_removed: &[bool],
    first_named: &[SecId],
) -> (Vec<u8>, Vec<u32>) {
    let mut name_offset = vec![0u32; names.len()];
    let size = 1 + names.iter().map(|n| n.len() + 1).sum::<usize>();
    let mut out = Vec::with_capacity(size);
    out.push(0);
    // Sections may share a name (local functions of several inputs): the name is written once,
    // where the first section of that name still in the table put it (by the first section
    // made with the name: no hashing of names here).
    let mut written = vec![u32::MAX; names.len()];
    for (i, &removed) in name_removed.iter().enumerate().skip(1) {
        if removed {
            continue;
        }
        let first = first_named.get(i).map_or(i, |f| f.index());
        let at = &mut written[first];
        if *at == u32::MAX {
            *at = out.len() as u32;
            out.extend_from_slice(names[i].as_bytes());
            out.push(0);
        }
        name_offset[i] = *at;
    }
    (out, name_offset)
}

/// `.symtab`, and the `.symtab_shndx` words that go with it (the real section index of every
/// symbol, whether or not its `st_shndx` had to escape; observed at 63,000+ sections).
fn build_symtab(
    st: &State<'_>,
    out_index: &[u32],
    nums: &SymbolNumbers,
    (table, names, owners): (&[u8], &FxHashMap<&str, u32>, &NameOffsets),
) -> (Vec<u8>, Vec<u8>) {
    let mut out = Vec::with_capacity(24 * (nums.order.len() + 1));
    out.resize(24, 0);
    out[8..16].copy_from_slice(&st.null_symbol_value.to_le_bytes());
    let mut shndx_words = Vec::with_capacity(4 * (nums.order.len() + 1));
    shndx_words.resize(4, 0);
    // The name where its owner registered it, when it is still that name (the same string has
    // one offset); else looked up.
    let holds = |at: u32, name: &str| {
        let at = at as usize;
        table.get(at..at + name.len()) == Some(name.as_bytes())
            && table.get(at + name.len()) == Some(&0)
    };
    for &idx in &nums.order {
        let s = st.sym(idx);
        let name = if s.name().is_empty() {
            0
        } else {
            match owners.guess(idx, s) {
                Some(at) if holds(at, s.name()) => at,
                _ => names.get(s.name()).copied().unwrap_or(0),
            }
        };
        let (shndx, real): (u16, u32) = match s.section() {
            SymSection::Undef => (0, 0),
            SymSection::Abs => (SHN_ABS, 0),
            SymSection::Common => (SHN_COMMON, 0),
            SymSection::Section(id) => {
                let real = out_index[id.index()];
                // Indices from 0xff00 on escape to SHN_XINDEX, except exactly 0xfff2, which
                // nvlink writes as it is (observed).
                let stored = if real >= u32::from(SHN_LORESERVE) && real != u32::from(SHN_COMMON) {
                    SHN_XINDEX
                } else {
                    real as u16
                };
                (stored, real)
            }
        };
        shndx_words.extend_from_slice(&real.to_le_bytes());
        out.extend_from_slice(&name.to_le_bytes());
        out.push(s.info());
        out.push(s.other());
        out.extend_from_slice(&shndx.to_le_bytes());
        out.extend_from_slice(&s.value().to_le_bytes());
        out.extend_from_slice(&s.size().to_le_bytes());
    }
    (out, shndx_words)
}

pub(super) fn info_bytes<'a>(
    st: SymbolView<'_, '_>,
    records: impl Iterator<Item = &'a InfoRecord<'a>>,
    nums: &SymbolNumbers,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    for r in records {
        if r.dropped {
            continue;
        }
        if r.attr == super::merge::EIATTR_EXTERNS {
            // What stays listed: symbols still undefined, and kernels (launched from the device).
            let mut undefined: Vec<u32> = Vec::new();
            let mut seen: rustc_hash::FxHashSet<u32> = rustc_hash::FxHashSet::default();
            for &sym in r.externs {
                let x = st.sym(sym);
                let entry = x.func().is_some_and(|f| st.func(f).is_entry);
                if x.removed() || (x.is_defined() && !entry) {
                    continue;
                }
                let n = nums.get(sym);
                if n != 0 && seen.insert(n) {
                    undefined.push(n);
                }
            }
            if undefined.is_empty() {
                continue;
            }
            out.push(r.format);
            out.push(r.attr);
            out.extend_from_slice(&((undefined.len() * 4) as u16).to_le_bytes());
            for s in undefined {
                out.extend_from_slice(&s.to_le_bytes());
            }
            continue;
        }
        out.push(r.format);
        out.push(r.attr);
        if r.format == EIFMT_SVAL {
            out.extend_from_slice(&(r.payload.len() as u16).to_le_bytes());
            let start = out.len();
            out.extend_from_slice(r.payload);
            if let Some(sym) = r.sym {
                out[start..start + 4].copy_from_slice(&nums.get(sym).to_le_bytes());
            }
        } else {
            let v = r.payload.get(..2).unwrap_or(&[0, 0]);
            out.extend_from_slice(v);
        }
    }
    out
}

fn callgraph_bytes(st: &State<'_>, nums: &SymbolNumbers, strings: &FxHashMap<u32, u32>) -> Vec<u8> {
    let string = |t: u32| strings.get(&t).copied().unwrap_or(t);
    let mut out = Vec::new();
    let mut pair = |a: u32, b: u32| {
        out.extend_from_slice(&a.to_le_bytes());
        out.extend_from_slice(&b.to_le_bytes());
    };
    let live = |f: FuncId| -> Option<SymIdx> {
        let n = st.func(f);
        if n.dead {
            None
        } else {
            n.sym
        }
    };
    let edges = |pair: &mut dyn FnMut(u32, u32), pick: &dyn Fn(&Function) -> &[FuncId]| {
        for (i, f) in st.functions.iter().enumerate().skip(1) {
            let Some(sym) = live(FuncId(i as u32)) else {
                continue;
            };
            let _ = f;
            for &c in pick(&st.functions[i]).iter().rev() {
                if let Some(cs) = live(c) {
                    pair(nums.get(sym), nums.get(cs));
                }
            }
        }
    };
    pair(0, u32::MAX);
    edges(&mut pair, &|f| f.callees.as_slice());
    pair(0, (-2i32) as u32);
    // In the order the functions were first seen (observed: a virtual function an earlier
    // input defines comes before those a later input records first). One record per function,
    // with the prototype the last input recorded (observed: a kernel launched from two TUs,
    // or a function whose address two TUs take, is listed once; a C function taken as
    // int(int) in one TU and double(double) in a later one is listed with the later one's).
    let (taken, calls) = prototype_records(st);
    for (f, token) in taken {
        if let Some(sym) = live(f) {
            pair(nums.get(sym), string(token));
        }
    }
    pair(0, (-3i32) as u32);
    for (f, token) in calls {
        if let Some(sym) = live(f) {
            pair(nums.get(sym), string(token));
        }
    }
    pair(0, (-4i32) as u32);
    edges(&mut pair, &|f| f.address_edges.as_slice());
    out
}

/// The callgraph's `-2` records (address-taken functions) and `-3` records (indirect calls),
/// as (function, prototype string), in the order the callgraph lists them.
///
/// `-2`: in the order the functions were first seen (observed: a virtual function an earlier
/// input defines comes before those a later input records first). One record per function,
/// with the prototype the last input recorded (observed: a kernel launched from two TUs, or a
/// function whose address two TUs take, is listed once; a C function taken as int(int) in one
/// TU and double(double) in a later one is listed with the later one's).
///
/// `-3`: functions in the order they were first seen (observed: a kernel a later input defines
/// comes first when an earlier input launched it before defining its own kernel); a function's
/// indirect-call prototypes newest first (observed: two virtual calls of different prototypes
/// in one kernel are listed in the reverse of the input's order).
#[allow(clippy::type_complexity)]
fn prototype_records(st: &State<'_>) -> (Vec<(FuncId, u32)>, Vec<(FuncId, u32)>) {
    let mut taken: Vec<(FuncId, u32)> = st.address_taken.clone();
    taken.sort_by_key(|&(f, _)| f);
    let taken = (0..taken.len())
        .filter(|&i| taken.get(i + 1).is_none_or(|&(g, _)| g != taken[i].0))
        .map(|i| taken[i])
        .collect();
    let mut calls: Vec<(FuncId, u32)> = st.indirect_calls.clone();
    calls.sort_by_key(|&(f, _)| f);
    let mut start = 0;
    while start < calls.len() {
        let f = calls[start].0;
        let end = start + calls[start..].iter().take_while(|&&(g, _)| g == f).count();
        calls[start..end].reverse();
        start = end;
    }
    (taken, calls)
}

/// Whether function `f`'s `.nv.prototype` entry is written: it is alive, has a prototype, and
/// no input recorded its address with a prototype in the callgraph (observed: a virtual
/// function some input lists under `-2` loses its `.nv.prototype` entry).
fn prototype_listed(st: &State<'_>, f: usize, address_recorded: &[bool]) -> bool {
    let n = &st.functions[f];
    !n.dead && n.sym.is_some() && n.prototype.is_some() && !address_recorded[f]
}

/// Functions with a `-2` (address taken, with prototype) callgraph record.
fn address_recorded(st: &State<'_>) -> Vec<bool> {
    let mut v = vec![false; st.functions.len()];
    for &(f, _) in &st.address_taken {
        v[f.0 as usize] = true;
    }
    v
}

fn prototype_bytes(st: &State<'_>, nums: &SymbolNumbers, strings: &FxHashMap<u32, u32>) -> Vec<u8> {
    let mut out = Vec::new();
    let recorded = address_recorded(st);
    for (i, f) in st.functions.iter().enumerate().skip(1) {
        if !prototype_listed(st, i, &recorded) {
            continue;
        }
        if let (Some(sym), Some(p)) = (f.sym, f.prototype) {
            let p = strings.get(&p).copied().unwrap_or(p);
            out.extend_from_slice(&nums.get(sym).to_le_bytes());
            out.extend_from_slice(&p.to_le_bytes());
        }
    }
    out
}

/// How many relocations each relocation section has left, by creation id (`sections` of them).
fn relocation_counts(relocs: &[Reloc], sections: usize) -> Vec<usize> {
    let mut count = vec![0usize; sections];
    for r in relocs.iter().filter(|r| !r.dropped) {
        count[r.rel_section.index()] += 1;
    }
    count
}

/// The relocation sections' bytes; `count` is [`relocation_counts`] when it is known to be
/// current.
fn relocation_sections(
    relocs: &[Reloc],
    sections: &SectionColumns<'_>,
    nums: &SymbolNumbers,
    opts: &LinkOptions,
    count: Option<Vec<usize>>,
) -> Vec<(SecId, Vec<u8>)> {
    let sec = |id: SecId| sections.at(id.index());
    // Each section's buffer at its final size, indexed by section.
    let entry_size = |id: SecId| {
        if sec(id).sh_type() != SHT_REL {
            24
        } else {
            16
        }
    };
    let count = count
        .filter(|c| c.len() == sections.len())
        .unwrap_or_else(|| relocation_counts(relocs, sections.len()));
    let mut per: Vec<Vec<u8>> = count
        .iter()
        .enumerate()
        .map(|(i, &n)| match n {
            0 => Vec::new(),
            n => Vec::with_capacity(n * entry_size(SecId(i as u32))),
        })
        .collect();
    let write = |r: &Reloc| {
        let out = &mut per[r.rel_section.index()];
        let sym = r.sym.map(|s| nums.get(s)).unwrap_or(0) as u64;
        let mut entry = [0u8; 24];
        entry[..8].copy_from_slice(&r.offset.to_le_bytes());
        entry[8..16].copy_from_slice(&((sym << 32) | r.r_type as u64).to_le_bytes());
        entry[16..].copy_from_slice(&r.addend.to_le_bytes());
        out.extend_from_slice(&entry[..entry_size(r.rel_section)]);
    };
    // Newest first.
    let newest_first = relocs.iter().rev().filter(|r| !r.dropped);
    if opts.target.is_mercury() {
        // sm_100+: the line tables are the finalizer's, and so are their relocations, which it
        // lists by offset (observed with -G).
        let by_offset =
            |target: SecId| matches!(sec(target).name(), ".debug_line" | ".nv_debug_line_sass");
        let mut list: Vec<&Reloc> = newest_first.collect();
        list.sort_by_key(|r| if by_offset(r.target) { r.offset } else { 0 });
        list.into_iter().for_each(write);
    } else {
        newest_first.for_each(write);
    }
    per.into_iter()
        .enumerate()
        .filter(|(i, _)| count[*i] != 0)
        .map(|(i, bytes)| (SecId(i as u32), bytes))
        .collect()
}

fn note(kind: u32, desc: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let desc_size = desc.len().div_ceil(4) * 4;
    out.extend_from_slice(&12u32.to_le_bytes());
    out.extend_from_slice(&(desc_size as u32).to_le_bytes());
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(b"NVIDIA Corp\0");
    out.extend_from_slice(desc);
    out.resize(24 + desc_size, 0);
    out
}

/// One `.note.nv.tkinfo` record (type 2000): tool, version, build and arguments.
fn tool_note(object: &[u8], strings: [&[u8]; 4]) -> Vec<u8> {
    tool_note_padded(object, strings, 0)
}

/// nvlink 13.5.37's tool, version and build strings in its own `.note.nv.tkinfo` record.
const NVLINK_RECORD: [&str; 3] = [
    "nvlink",
    "Cuda compilation tools, release 13.5, V13.5.37",
    "Build cuda_13.5.r13.5/compiler.39125733_0",
];

/// [`tool_note`] with zeros after the strings up to `min_blob` bytes of strings.
fn tool_note_padded(object: &[u8], strings: [&[u8]; 4], min_blob: usize) -> Vec<u8> {
    let mut blob = object.to_vec();
    blob.push(0);
    let mut offs = [0u32; 4];
    for (k, s) in strings.into_iter().enumerate() {
        offs[k] = blob.len() as u32;
        blob.extend_from_slice(s);
        blob.push(0);
    }
    if blob.len() < min_blob {
        blob.resize(min_blob, 0);
    }
    let mut desc = Vec::new();
    desc.extend_from_slice(&2u32.to_le_bytes());
    desc.extend_from_slice(&0u32.to_le_bytes());
    for o in offs {
        desc.extend_from_slice(&o.to_le_bytes());
    }
    desc.extend_from_slice(&blob);
    note(2000, &desc)
}

fn tkinfo(merged: &[&InputObject<'_>], from_ptx: &[bool], opts: &LinkOptions) -> Vec<u8> {
    let r = &opts.tool_record;
    // The linker's own record is as long as nvlink's would be for the same command line (its
    // strings padded with zeros), so that every later section sits where nvlink puts it: the
    // data segment's memory size counts zero-filled sections from their file offsets, and
    // would otherwise follow the record's length (observed on sm_110: 4 bytes more).
    let nvlink_blob = r.object.len()
        + 1
        + NVLINK_RECORD.iter().map(|s| s.len() + 1).sum::<usize>()
        + r.args.len()
        + 1;
    let mut out = tool_note_padded(
        r.object.as_bytes(),
        [
            r.tool.as_bytes(),
            r.version.as_bytes(),
            r.build.as_bytes(),
            r.args.as_bytes(),
        ],
        nvlink_blob,
    );
    if opts.relocatable {
        return out;
    }
    for (k, obj) in merged.iter().enumerate() {
        if let Some(i) = obj.elf.section_by_name(b".note.nv.tkinfo") {
            if let Ok(d) = obj.elf.section_data(i) {
                match from_ptx.get(k).copied().unwrap_or(false) {
                    true => out.extend(embedded_ptxas_notes(d)),
                    false => out.extend_from_slice(d),
                }
            }
        }
    }
    out
}

/// The `.note.nv.tkinfo` of a cubin elfw had ptxas compile, as nvlink's embedded ptxas would
/// have written it: without the input file name ptxas records under `-g` (`input.ptx
/// -no-bb-merge  -ret-end  -g  -arch sm_90 ...`; observed: nvlink's record is `-no-bb-merge
/// -ret-end  -g  -arch sm_90 ...`, with `elf.o`, ptxas's default output name, ahead of the
/// tool name as in elfw's). Notes it cannot read stay as they are.
fn embedded_ptxas_notes(d: &[u8]) -> Vec<u8> {
    let rewrite = || -> Option<Vec<u8>> {
        let desc_size = u32::from_le_bytes(d.get(4..8)?.try_into().ok()?) as usize;
        let kind = u32::from_le_bytes(d.get(8..12)?.try_into().ok()?);
        let desc = d.get(24..24usize.checked_add(desc_size)?)?;
        if kind != 2000 || d.get(0..4)? != 12u32.to_le_bytes() || desc.len() < 24 {
            return None;
        }
        let blob = &desc[24..];
        let string = |k: usize| -> Option<&[u8]> {
            let at = u32::from_le_bytes(desc.get(8 + 4 * k..12 + 4 * k)?.try_into().ok()?);
            let s = blob.get(at as usize..)?;
            Some(&s[..s.iter().position(|&b| b == 0)?])
        };
        let args = string(3)?;
        let clean = args.strip_prefix(b"input.ptx ").unwrap_or(args);
        let object = &blob[..blob.iter().position(|&b| b == 0)?];
        let mut note = tool_note(object, [string(0)?, string(1)?, string(2)?, clean]);
        note.extend_from_slice(d.get(24 + desc_size..)?);
        Some(note)
    };
    rewrite().unwrap_or_else(|| d.to_vec())
}

fn cuinfo(inputs: &[InputObject<'_>], opts: &LinkOptions) -> Vec<u8> {
    let notes: Vec<&[u8]> = inputs
        .iter()
        .filter_map(|obj| {
            let i = obj.elf.section_by_name(b".note.nv.cuinfo")?;
            obj.elf.section_data(i).ok()
        })
        .collect();
    if let Some(first) = notes.first() {
        // The first input's note, carrying the oldest virtual SM of any input (observed with
        // weak functions from PTX of different `.target`s, in either order).
        let mut out = first.to_vec();
        let vsm = |d: &[u8]| d.get(26..28).map(|b| u16::from_le_bytes([b[0], b[1]]));
        if let Some(min) = notes.iter().filter_map(|d| vsm(d)).min() {
            if out.len() >= 28 {
                out[26..28].copy_from_slice(&min.to_le_bytes());
            }
        }
        return out;
    }
    let mut desc = Vec::new();
    desc.extend_from_slice(&2u16.to_le_bytes());
    desc.extend_from_slice(&(opts.target.sm as u16).to_le_bytes());
    desc.extend_from_slice(&0x87u32.to_le_bytes());
    note(1000, &desc)
}

/// How the link combines one `.nv.compat` attribute over its inputs (observed, nvlink 13.5).
#[derive(Clone, Copy)]
enum CompatMerge {
    /// The highest value; an input without the record counts as `absent`. `keep`: whether the
    /// record stays when the result is `absent`'s value (else it is left out).
    Max { absent: u16, keep: bool },
    /// INST_TCGEN05_MMA: two-bit fields, each the highest of the inputs' except that 0 wins
    /// in the three low fields (observed: 5 and 3 give 3, 4 and 3 give 0, 0x41 and 0x15 give
    /// 0x41); left out when 0 or when an input lacks the record.
    Tcgen05,
    /// The highest value, left out unless every input has the record.
    MaxOfAll,
    /// Bitwise AND (64-bit); inputs without the record do not count.
    And,
    /// ISA_CLASS: 0 (also an input without the record) wins, else the highest.
    IsaClass,
}

/// The `.nv.compat` attributes the link writes (code, merge rule); every other code is dropped
/// (0x06 ENABLE_OPPORTUNISTIC_FINALIZATION and codes it does not know alike). 0x09
/// (CUDA_ACCELERATOR_TARGET) comes from the target and always leads.
fn compat_merge(code: u8) -> Option<CompatMerge> {
    use CompatMerge::*;
    Some(match code {
        0x02 => IsaClass,
        0x03 => Max {
            absent: 3,
            keep: true,
        }, // INST_TENSORMAP_V1
        0x05 => Tcgen05,
        0x07 => Max {
            absent: 0x100,
            keep: false,
        }, // (HVAL)
        0x08 => Max {
            absent: 0,
            keep: false,
        }, // (HVAL)
        0x0b => And, // CAN_FASTPATH_FINALIZE
        0x0c => Max {
            absent: 2,
            keep: true,
        }, // CUDA_INTERNAL_TARGET
        0x0d => Max {
            absent: 0x100,
            keep: true,
        }, // (HVAL)
        0x0e => MaxOfAll, // FINALIZER_VERSION
        _ => return None,
    })
}

/// The record format the link writes an attribute in: 2 (one byte), 3 (two bytes) or 4 (0x0b's
/// eight bytes), whatever format an input used.
fn compat_format(code: u8) -> u8 {
    match code {
        0x07 | 0x08 | 0x0d | 0x0e => 0x03,
        0x0b => 0x04,
        _ => 0x02,
    }
}

/// An attribute's value in one record: format 2 holds one byte, format 3 two (little-endian),
/// format 4 a length and the bytes (0x0b: a 64-bit value). A two-byte value read for a
/// one-byte attribute keeps its low byte when written.
fn compat_value(code: u8, record: &[u8]) -> u64 {
    if code == 0x0b {
        return record
            .get(4..12)
            .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
    }
    let lo = u64::from(record.get(2).copied().unwrap_or(0));
    let hi = u64::from(record.get(3).copied().unwrap_or(0));
    if compat_format(code) == 0x02 {
        lo
    } else {
        lo | hi << 8
    }
}

/// `.nv.compat`: the merged inputs' attributes combined one by one (observed, nvlink 13.5):
/// attribute 9 (arch-specific code, 1 for an `a` target) first; then the first input's records
/// in its order, then 0x02 and 0x03 (when it lacks them, with their absent values); then each
/// later input's new attributes in code order; then 0x0c and 0x0d when no input had them.
/// Each value follows [`compat_merge`]. On sm_100+ the finalizer then sets 0x0b (in place or
/// appended) and moves 0x0e (its own version) to the end. With no input records at all: the
/// attribute 9 record alone (plus, on sm_100+, the finalizer's defaults).
fn compat(merged: &[&InputObject<'_>], has_kernel: bool, opts: &LinkOptions) -> Vec<u8> {
    let arch_specific = u8::from(opts.target.variant == crate::target::Variant::Arch);
    let mut out = vec![0x02, 0x09, arch_specific, 0x00];
    let mercury = opts.target.is_mercury();
    // Every input's records, with its SM (for CAN_FASTPATH_FINALIZE on `a` targets).
    let all: Vec<(u32, Vec<CompatRecord<'_>>)> = merged
        .iter()
        .filter_map(|obj| {
            let i = obj.elf.section_by_name(b".nv.compat")?;
            let d = obj.elf.section_data(i).ok()?;
            Some(((obj.elf.header().flags >> 8) & 0xff, compat_records(d)))
        })
        .collect();
    if all.is_empty() {
        // sm_100+ with no input's records (every input's code was for another architecture):
        // the finalizer's own defaults for the SM (observed, whatever the `a`/`f` suffix).
        if mercury {
            out.extend_from_slice(&[0x04, 0x0b, 0x08, 0x00]);
            out.extend_from_slice(&crate::mercury::native_fastpath(opts.target.sm).to_le_bytes());
            out.extend_from_slice(&[0x03, 0x0e]);
            out.extend_from_slice(&crate::mercury::FINALIZER_VERSION.to_le_bytes());
        }
        return out;
    }
    // The attributes in output order with their merged values; `None`: left out (0x0e when an
    // input lacks it).
    let mut order: Vec<u8> = Vec::new();
    let mut value: [Option<u64>; 16] = [None; 16];
    for (n, (_, records)) in all.iter().enumerate() {
        // The first input's records in its own order; a later input's new ones in code order
        // (a repeated record is merged like another input's).
        let mut listed: Vec<&CompatRecord<'_>> = records
            .iter()
            .filter(|r| r.1 != 0x09 && r.2.len() >= 4 && compat_merge(r.1).is_some())
            .collect();
        if n > 0 {
            listed.sort_by_key(|r| r.1);
        }
        let mut seen = [false; 16];
        for r in listed {
            let (code, v) = (r.1, compat_value(r.1, r.2));
            let Some(rule) = compat_merge(code) else {
                continue;
            };
            // sm_100+: the finalizer places 0x0b when the first input has none.
            if code == 0x0b && mercury && n > 0 && !order.contains(&code) {
                continue;
            }
            seen[code as usize] = true;
            let slot = &mut value[code as usize];
            if !order.contains(&code) {
                order.push(code);
                *slot = match rule {
                    // An earlier input lacked it: what that input counted as.
                    CompatMerge::Max { absent, .. } if n > 0 => Some(v.max(u64::from(absent))),
                    CompatMerge::IsaClass if n > 0 => Some(0),
                    CompatMerge::Tcgen05 | CompatMerge::MaxOfAll if n > 0 => None,
                    _ => Some(v),
                };
                continue;
            }
            *slot = slot.map(|old| match rule {
                CompatMerge::Max { .. } | CompatMerge::MaxOfAll => old.max(v),
                CompatMerge::Tcgen05 => (0..4).fold(0, |r, f| {
                    let (x, y) = ((old >> (2 * f)) & 3, (v >> (2 * f)) & 3);
                    let z = if f < 3 && (x == 0 || y == 0) {
                        0
                    } else {
                        x.max(y)
                    };
                    r | z << (2 * f)
                }),
                CompatMerge::And => old & v,
                CompatMerge::IsaClass if old == 0 || v == 0 => 0,
                CompatMerge::IsaClass => old.max(v),
            });
        }
        // 0x02 and 0x03 missing from the first input: their absent values, after its records.
        if n == 0 {
            for (code, absent) in [(0x02u8, 0u64), (0x03, 3)] {
                if !order.contains(&code) {
                    order.push(code);
                    value[code as usize] = Some(absent);
                    seen[code as usize] = true;
                }
            }
        }
        // This input lacks an attribute already listed: it counts as the absent value.
        for &code in &order {
            if seen[code as usize] {
                continue;
            }
            let slot = &mut value[code as usize];
            match compat_merge(code) {
                Some(CompatMerge::Max { absent, .. }) => {
                    *slot = slot.map(|old| old.max(u64::from(absent)));
                }
                Some(CompatMerge::Tcgen05 | CompatMerge::MaxOfAll) => *slot = None,
                Some(CompatMerge::IsaClass) => *slot = slot.map(|_| 0),
                _ => {}
            }
        }
    }
    // 0x0c and 0x0d are always written; an input without them counts as their absent value.
    for code in [0x0c, 0x0d] {
        if !order.contains(&code) {
            if let Some(CompatMerge::Max { absent, .. }) = compat_merge(code) {
                order.push(code);
                value[code as usize] = Some(u64::from(absent));
            }
        }
    }
    if mercury {
        // The finalizer's CAN_FASTPATH_FINALIZE: the SM's own value on plain and family
        // targets; on `a` targets each input's value for the target, ANDed (content-dependent
        // in nvlink: not fully modelled), except that a final image without kernels gets
        // the SM's own value there too (observed: sm_120a with only device functions, from
        // sm_120a, sm_120 or PTX inputs, 0x50 where the inputs say 0x10; sm_100a from sm_100
        // 0x09, not 0x01; `-r`, `--preserve-relocs` and `-g`, also with
        // `-suppress-debug-info`, combine the inputs' values).
        let fastpath = if arch_specific != 0
            && (has_kernel
                || opts.relocatable
                || opts.preserve_relocs
                || opts.debug
                || opts.suppress_debug_info)
        {
            let mut v = u64::MAX;
            for (input_sm, records) in &all {
                let Some(r) = records
                    .iter()
                    .find(|r| (r.0, r.1) == (0x04, 0x0b) && r.2.len() == 12)
                else {
                    continue;
                };
                let input_arch = records
                    .iter()
                    .any(|r| (r.0, r.1) == (0x02, 0x09) && r.2[2] != 0);
                v &= crate::mercury::fastpath_after_link(
                    compat_value(0x0b, r.2),
                    *input_sm,
                    input_arch,
                    opts.target.sm,
                    true,
                );
            }
            v
        } else {
            crate::mercury::native_fastpath(opts.target.sm)
        };
        if !order.contains(&0x0b) {
            order.push(0x0b);
        }
        value[0x0b] = Some(fastpath);
        order.retain(|&c| c != 0x0e);
        order.push(0x0e);
        value[0x0e] = Some(u64::from(crate::mercury::FINALIZER_VERSION));
    }
    for code in order {
        let Some(v) = value[code as usize] else {
            continue;
        };
        let kept = match compat_merge(code) {
            Some(CompatMerge::Max { absent, keep }) => keep || v != u64::from(absent),
            Some(CompatMerge::Tcgen05) => v != 0,
            _ => true,
        };
        if !kept {
            continue;
        }
        match compat_format(code) {
            0x04 => {
                out.extend_from_slice(&[0x04, code, 0x08, 0x00]);
                out.extend_from_slice(&v.to_le_bytes());
            }
            0x03 => out.extend_from_slice(&[0x03, code, v as u8, (v >> 8) as u8]),
            _ => out.extend_from_slice(&[0x02, code, v as u8, 0x00]),
        }
    }
    out
}

/// One `.nv.compat` record: (format, code, record bytes).
type CompatRecord<'a> = (u8, u8, &'a [u8]);

/// Splits `.nv.compat` into (format, code, record bytes); formats as in `.nv.info`.
fn compat_records(d: &[u8]) -> Vec<CompatRecord<'_>> {
    let mut out = Vec::new();
    let mut o = 0;
    while o + 4 <= d.len() {
        let (format, code) = (d[o], d[o + 1]);
        let len = if format == 0x04 {
            4 + u16::from_le_bytes([d[o + 2], d[o + 3]]) as usize
        } else {
            4
        };
        let end = (o + len).min(d.len());
        out.push((format, code, &d[o..end]));
        o = end;
    }
    out
}

/// Whether `name` is a debug section's (DWARF's `.debug_*` or NVIDIA's `.nv_debug*`).
fn is_debug_section(name: &str) -> bool {
    name.starts_with(".debug_") || name.starts_with(".nv_debug")
}
