//! The link pipeline, as seed 03 lays it out ("Context Flow Through Pipeline Phases"):
//! merge → dead-code elimination → layout → relocate → finalize → emit. Each phase is a
//! function over the state the previous one produced; [`link`] calls them in order and
//! records how long each took.

mod ahead;
pub mod bindless;
mod columns;
pub(crate) mod const_bank2;
pub mod dce;
pub mod emit;
pub mod fence_pads;
pub mod finalize;
pub mod lines;
pub mod merc;
pub mod merge;
mod preexit;
pub mod relocate;
mod rescore;
pub mod sass;
pub mod shared;
pub mod state;

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::elf::ElfFile;
use crate::target::Target;
use std::time::{Duration, Instant};

/// One device ELF to link, with the name nvlink uses for it in messages.
pub struct InputObject<'d> {
    /// Display name (`a.o`, `lib.a:member.o`).
    pub name: String,
    /// The parsed cubin.
    pub elf: ElfFile<'d>,
}

/// What shapes a link.
#[derive(Clone, Debug)]
pub struct LinkOptions {
    /// The target architecture.
    pub target: Target,
    /// `-r`: produce a relocatable image.
    pub relocatable: bool,
    /// `--preserve-relocs`.
    pub preserve_relocs: bool,
    /// `-astoolspatch`: the inputs are patch code for CUDA tools (compiled with ptxas's
    /// `-astoolspatch`): every function stays, and each must say it is patch code.
    pub tools_patch: bool,
    /// `--kernels-used` patterns.
    pub kernels_used: Vec<String>,
    /// `--variables-used` patterns.
    pub variables_used: Vec<String>,
    /// The kernels the host code references (patterns, `*` for any run of characters), when
    /// every input says: the other kernels are dead (see `input::host::HostKernels`).
    pub host_kernels: Option<Vec<String>>,
    /// In a partial LTO libnvvm chose, the kernels the host code references (patterns): the
    /// merge makes no `.nv.info.<k>` or `.nv.shared.<k>` of its own for libnvvm's others, as for
    /// those `--kernels-used` leaves out, and the dead-code elimination takes them for no roots.
    pub lto_host_kernels: Option<Vec<String>>,
    /// `-g` (and not `-suppress-debug-info`): the image shows what `-g` shows.
    pub debug: bool,
    /// `--extra-warnings`: also nvlink's level-3 warnings (address-taken functions nothing
    /// calls).
    pub extra_warnings: bool,
    /// `-suppress-debug-info` (with `-g`, [`LinkOptions::debug`] then off): the link is one
    /// without `-g` (shared memory laid out and listed as without it, the code finalized as
    /// without it: no exit fences of its own, placeholders dropped), except that, as under
    /// `-g`, no function is eliminated (observed, sm_75 to sm_120).
    pub suppress_debug_info: bool,
    /// Some input is an `nvcc -ewp` (extensible whole program) object: every other object
    /// but libcudadevrt's draws a warning as it is merged.
    pub whole_program_inputs: bool,
    /// `-Werror` as it stands when the objects are merged: a merge's warning fails it.
    pub merge_warnings_as_errors: bool,
    /// The linker's own `.note.nv.tkinfo` record: tool name, version, build, arguments.
    pub tool_record: ToolRecord,
    /// Display names of the inputs, by input index (for messages).
    pub input_names: Vec<String>,
    /// Which inputs come from a system library (`libcudadevrt.a`), by input index: such a
    /// cubin is linked only when it defines something the inputs before it left undefined
    /// (observed: an unused libcudadevrt leaves no trace in the image).
    pub system_library: Vec<bool>,
    /// Which inputs elfw compiled from PTX with ptxas, by input index: ptxas names its input
    /// and output files in the record it leaves in `.note.nv.tkinfo` under `-g`, which
    /// nvlink's embedded ptxas (compiling in memory) does not.
    pub compiled_ptx: Vec<bool>,
    /// `--keep-system-libraries`: link system-library cubins whether used or not.
    pub keep_system_libraries: bool,
    /// Also describe the link ([`LinkOutput::map`]): contributions, why each function stayed
    /// or went, weak contests. Costs time on large links.
    pub want_map: bool,
    /// Also report the merged call graph ([`LinkOutput::callgraph`], `--dump-callgraph`).
    pub want_callgraph: bool,
    /// Also make the image of a link refused after its merge (undefined references, register
    /// or shared-memory limits), for the reports nvlink still prints from it (`-v`:
    /// [`LinkFailure::image`]). It is never written.
    pub want_refused_image: bool,
    /// Leave the link's working state for the process's exit to reclaim (the `elfw` command:
    /// freeing hundreds of thousands of records one by one costs more than the link's last
    /// phases).
    pub skip_teardown: bool,
}

/// The strings of a `.note.nv.tkinfo` record.
#[derive(Clone, Debug)]
pub struct ToolRecord {
    /// The object name written ahead of the tool name: the output file under `-g`, as nvlink
    /// writes it (empty otherwise).
    pub object: String,
    /// Tool name.
    pub tool: String,
    /// Version line.
    pub version: String,
    /// Build line.
    pub build: String,
    /// Normalized command line.
    pub args: String,
}

impl LinkOptions {
    /// Whether the image shows the shared-memory layout: `.nv_debug.shared` with its section
    /// symbol and the common area, `extern __shared__` names listed (`-g`, and
    /// `--preserve-relocs` alike: observed on sm_80 and sm_90).
    pub fn shows_shared_layout(&self) -> bool {
        self.debug || self.preserve_relocs
    }

    /// Whether `extern __shared__` names are listed in the symbol table: with `-g`, and with
    /// `--preserve-relocs` on sm_90 only (observed: not on sm_75, sm_80, sm_100 or sm_120).
    pub fn lists_dynamic_shared(&self) -> bool {
        self.debug || (self.preserve_relocs && self.target.sm == 90)
    }
    /// Defaults for a final link to `target`.
    pub fn new(target: Target) -> LinkOptions {
        LinkOptions {
            target,
            relocatable: false,
            preserve_relocs: false,
            tools_patch: false,
            kernels_used: Vec::new(),
            variables_used: Vec::new(),
            host_kernels: None,
            lto_host_kernels: None,
            debug: false,
            extra_warnings: false,
            suppress_debug_info: false,
            whole_program_inputs: false,
            merge_warnings_as_errors: false,
            tool_record: ToolRecord {
                object: String::new(),
                tool: "elfw".into(),
                version: format!("elfw {}", env!("CARGO_PKG_VERSION")),
                build: "elfw".into(),
                args: format!("-arch {} ", target.sm_name()),
            },
            input_names: Vec::new(),
            system_library: Vec::new(),
            compiled_ptx: Vec::new(),
            keep_system_libraries: false,
            skip_teardown: false,
            want_map: false,
            want_callgraph: false,
            want_refused_image: false,
        }
    }
}

/// Why a link failed.
#[derive(Clone, Debug)]
pub enum LinkError {
    /// A damaged input.
    Input {
        /// The input.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A condition nvlink reports and stops on.
    Fatal(Diagnostic),
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::Input { file, message } => write!(f, "{file}: {message}"),
            LinkError::Fatal(d) => f.write_str(&d.message),
        }
    }
}

impl std::error::Error for LinkError {}

/// How long each phase took.
#[derive(Clone, Debug, Default)]
pub struct PhaseTimes {
    /// Phase name and duration, in order.
    pub phases: Vec<(&'static str, Duration)>,
}

/// A finished link.
#[derive(Debug)]
pub struct LinkOutput {
    /// The image bytes.
    pub image: Vec<u8>,
    /// Warnings and infos.
    pub diagnostics: Diagnostics,
    /// Phase timings.
    pub times: PhaseTimes,
    /// What the link did, when [`LinkOptions::want_map`] asked for it.
    pub map: Option<LinkMap>,
    /// The merged call graph, when [`LinkOptions::want_callgraph`] asked for it.
    pub callgraph: Option<Callgraph>,
    /// Which inputs the merge took, by input index: all but a system library's cubins that
    /// resolve nothing (see [`LinkOptions::system_library`]).
    pub merged_inputs: Vec<bool>,
}

/// The link's merged call graph once dead code is gone, as nvlink reports it
/// (`--dump-callgraph`): one node per function symbol in the order the merge met them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Callgraph {
    /// The nodes; node `n` (as the report numbers them, from 1) is `nodes[n - 1]`.
    pub nodes: Vec<CallgraphNode>,
}

/// One function of a [`Callgraph`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallgraphNode {
    /// Its (mangled) name; `None` for a function the link removed (dead code, a weak
    /// definition that lost).
    pub name: Option<String>,
    /// A kernel that stays one.
    pub entry: bool,
    /// Its address is taken.
    pub address_taken: bool,
    /// The register count its input reports.
    pub registers: Option<u32>,
    /// Where its code section is in the image (its section index), when the link made an
    /// image: nvlink propagates register counts to the kernels function by function in
    /// this order (observed).
    pub code_position: Option<u32>,
    /// Whom it may call, as node numbers (from 1), in nvlink's order: what each indirect
    /// call may reach (a group per call, in record order: the address-taken functions of its
    /// prototype, latest node first), then the direct callees, newest first.
    pub callees: Vec<u32>,
}

/// What a link did: where every output section's bytes came from, why each function is in
/// the image or not, which weak definitions won. Input indices are positions in the inputs
/// given to [`link`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkMap {
    /// The inputs' display names, by input index.
    pub inputs: Vec<String>,
    /// Output sections in image order.
    pub sections: Vec<MapSection>,
    /// Every function the inputs define or call, in the order the link met them.
    pub functions: Vec<MapFunction>,
    /// Weak definitions that met, in the order they did.
    pub weak_contests: Vec<MapWeakContest>,
}

/// One output section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapSection {
    /// Name.
    pub name: String,
    /// Size in bytes.
    pub size: u64,
    /// What the inputs put there, in order (empty for sections the linker builds).
    pub contributions: Vec<MapContribution>,
}

/// One input's bytes in an output section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapContribution {
    /// The input.
    pub input: usize,
    /// Offset in the output section.
    pub offset: u64,
    /// Size.
    pub size: u64,
    /// Alignment asked for.
    pub align: u64,
}

/// One function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapFunction {
    /// Name.
    pub name: String,
    /// The input that defines it (the winner, for a weak function); `None` when undefined.
    pub input: Option<usize>,
    /// Whether it is a kernel.
    pub kernel: bool,
    /// Whether it is in the image.
    pub kept: bool,
    /// Why.
    pub reason: MapReason,
}

/// Why a function is in the image or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapReason {
    /// A kernel (selected by `--kernels-used` when given).
    Kernel,
    /// Called from a kept function: the chain of calls from a kernel (or an address-taken
    /// function), by name.
    Reachable(Vec<String>),
    /// Its address is taken.
    AddressTaken,
    /// `-r`, `-g` or `--preserve-relocs`: nothing is eliminated.
    NoElimination,
    /// A kernel `--kernels-used` did not select (or that `--variables-used` left out).
    NotSelected,
    /// A kernel the host objects do not reference (their `.nvHRKE`/`.nvHRKI` lists).
    NotReferencedFromHost,
    /// Nothing kept calls it.
    Unreachable,
}

/// Two weak definitions of one function met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapWeakContest {
    /// The function.
    pub symbol: String,
    /// The input whose definition stayed.
    pub winner: usize,
    /// The input whose definition went.
    pub loser: usize,
    /// What decided: `newer PTX target`, `fewer registers` or `first on the command line`.
    pub why: &'static str,
}

/// A failed link: what went wrong, with every diagnostic before it.
#[derive(Debug)]
pub struct LinkFailure {
    /// All diagnostics, the failing one last.
    pub diagnostics: Diagnostics,
    /// The merged call graph, when [`LinkOptions::want_callgraph`] asked for it and the link
    /// got as far as making it (nvlink dumps it after undefined references: observed).
    pub callgraph: Option<Callgraph>,
    /// The image of a link refused after its merge, when
    /// [`LinkOptions::want_refused_image`] asked for it and the link could make one: kernels
    /// with the registers and stack their callees propagate, shared memory laid out (nvlink's
    /// `-v` reports these for a refused link: observed).
    pub image: Option<Vec<u8>>,
}

/// Links `inputs` (in command-line order) into one image.
pub fn link(inputs: &[InputObject<'_>], opts: &LinkOptions) -> Result<LinkOutput, LinkFailure> {
    link_with(inputs, opts, None)
}

/// Links `inputs` and writes the image to `out` as it is made, in file order, without holding
/// all of it in memory (the output of a large link is most of a link's peak memory). The
/// returned [`LinkOutput::image`] is empty. On failure `out` may have received part of an
/// image: write to a temporary file and rename it on success.
pub fn link_to(
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
    out: &mut dyn std::io::Write,
) -> Result<LinkOutput, LinkFailure> {
    link_with(inputs, opts, Some(out))
}

fn link_with(
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
    out: Option<&mut dyn std::io::Write>,
) -> Result<LinkOutput, LinkFailure> {
    let mut diags = Diagnostics::default();
    let mut times = PhaseTimes::default();
    let mut reports = Reports::default();
    let mut merged_inputs = vec![false; inputs.len()];
    match run(
        inputs,
        opts,
        &mut diags,
        &mut times,
        &mut reports,
        &mut merged_inputs,
        out,
    ) {
        Ok(image) if !diags.has_errors() => Ok(LinkOutput {
            image,
            diagnostics: diags,
            times,
            map: reports.map,
            callgraph: reports.callgraph,
            merged_inputs,
        }),
        Ok(image) => {
            let mut image = (opts.want_refused_image && !image.is_empty()).then_some(image);
            let mut callgraph = reports.callgraph;
            // A system library nvlink has not dropped yet: a link refused for undefined
            // references still holds all of it (observed, sm_90: `-v` reports libcudadevrt's
            // kernels and globals after an undefined reference no library defines, and
            // `--dump-callgraph` lists its functions). The reports are made again with the
            // libraries kept.
            let skipped_system = merged_inputs
                .iter()
                .zip(&opts.system_library)
                .any(|(&m, &system)| system && !m);
            let undefined = diags
                .iter()
                .any(|d| d.message.starts_with("Undefined reference to "));
            let reported = opts.want_refused_image || callgraph.is_some();
            if reported && skipped_system && undefined && !opts.relocatable {
                let again = LinkOptions {
                    keep_system_libraries: true,
                    want_map: false,
                    ..opts.clone()
                };
                if let Err(f) = link_with(inputs, &again, None) {
                    image = f.image;
                    callgraph = f.callgraph.or(callgraph);
                }
            }
            Err(LinkFailure {
                diagnostics: diags,
                callgraph,
                image,
            })
        }
        Err(e) => {
            diags.push(match e {
                LinkError::Fatal(d) => d,
                LinkError::Input { file, message } => {
                    Diagnostic::new(Severity::Fatal, format!("{file}: {message}")).in_file(file)
                }
            });
            Err(LinkFailure {
                diagnostics: diags,
                callgraph: reports.callgraph,
                image: None,
            })
        }
    }
}

/// The reports a link makes when asked.
#[derive(Default)]
struct Reports {
    map: Option<LinkMap>,
    callgraph: Option<Callgraph>,
}

fn timed<T>(times: &mut PhaseTimes, name: &'static str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    times.phases.push((name, start.elapsed()));
    out
}

/// How many decoded inputs may wait for the merge (a bound on the memory decoding ahead holds).
const DECODE_AHEAD: usize = 32;

fn run(
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
    diags: &mut Diagnostics,
    times: &mut PhaseTimes,
    reports: &mut Reports,
    merged: &mut [bool],
    out: Option<&mut dyn std::io::Write>,
) -> Result<Vec<u8>, LinkError> {
    let bump = bumpalo::Bump::new();
    let mut st = state::State::new(&bump);
    finalize::create_standard_sections(&mut st, opts);
    // From sm_90 every image carries `.nv.compat`, made right after `.nv.info`.
    if opts.target.sm >= 90 {
        finalize::create_compat_section(&mut st);
    }
    timed(times, "merge", || -> Result<(), LinkError> {
        merge::reserve_for_inputs(&mut st, inputs);
        let room = st.reserved_room();
        // A relocatable link keeps a system library whole while a reference no system
        // library defines stays open (observed, sm_90 `-r main.o -lcudadevrt` with main.o
        // calling lib.o's functions: all of libcudadevrt, as `--keep-system-libraries` does;
        // `-r main.o lib.o -lcudadevrt` drops it). `extern __shared__` names do not count.
        let system_defined: rustc_hash::FxHashSet<Vec<u8>> =
            if opts.relocatable && !opts.keep_system_libraries {
                inputs
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| opts.system_library.get(i).copied().unwrap_or(false))
                    .flat_map(|(_, obj)| merge::defined_names(obj))
                    .collect()
            } else {
                Default::default()
            };
        let mut merge_one = |i: usize, decoded| {
            let obj = &inputs[i];
            let system = opts.system_library.get(i).copied().unwrap_or(false);
            if system
                && !opts.keep_system_libraries
                && !merge::resolves_undefined(&st, obj)
                && (!opts.relocatable || !merge::references_outside(&st, &system_defined))
            {
                return Ok(());
            }
            merged[i] = true;
            merge::merge_decoded(&mut st, i, obj, decoded, opts, diags).map(drop)
        };
        // (Not from one of rayon's own threads: waiting there for a job queued behind it
        // could wait forever.)
        if rayon::current_num_threads() < 2
            || rayon::current_thread_index().is_some()
            || inputs.len() < 2
        {
            for (i, obj) in inputs.iter().enumerate() {
                merge_one(i, merge::decode_input(obj))?;
            }
            return Ok(());
        }
        // What does not depend on the link so far is decoded on another core, running ahead of
        // the merge, which takes the inputs in order as before (decoding an input itself when
        // the other core has not got to it): the image is the same however many threads there
        // are, and the first failing input still fails the link.
        // While it waits for the merge, that core also maps in the pages of the room reserved in
        // the large lists the merge fills (see `ahead::Prefault`).
        let ahead = ahead::Ahead::new(inputs.len(), DECODE_AHEAD);
        rayon::in_place_scope(|scope| {
            scope.spawn(|_| {
                let mut prefault = ahead::Prefault::new(room);
                ahead.produce(|i| merge::decode_input(&inputs[i]), || prefault.step());
            });
            let _close = ahead::Close(&ahead);
            for i in 0..inputs.len() {
                let d = ahead.take(i, |i| merge::decode_input(&inputs[i]));
                merge_one(i, d)?;
            }
            Ok(())
        })
    })?;
    let uncalled = timed(times, "dce", || dce::eliminate_dead_code(&mut st, opts));
    timed(times, "resolve", || -> Result<(), LinkError> {
        finalize::check_tools_patch(&st, opts)?;
        // (nvlink's order: stack sizes, `--extra-warnings`, then undefined references.)
        finalize::warn_unknown_stack_sizes(&mut st, opts, diags);
        for d in uncalled {
            diags.push(d);
        }
        Ok(())
    })?;
    // (nvlink's order: the shared-memory limit is checked on the laid-out windows after the
    // warnings above and before undefined references and register limits.)
    timed(times, "shared-layout", || {
        shared::layout_shared(&mut st, opts)
    });
    finalize::check_shared_limits(&st, opts, diags);
    timed(times, "undefined", || {
        finalize::check_undefined(&st, opts, diags);
        finalize::check_register_limits(&st, opts, diags);
        finalize::check_cta_groups(&st, opts, diags);
    });
    // (Without an object merged there is no graph: nvlink says it found no relocatable
    // objects, observed for a skipped cubin and PTX files before sm_90.)
    if opts.want_callgraph && !opts.relocatable && merged.iter().any(|&m| m) {
        reports.callgraph = Some(callgraph(&st));
    }
    // A link refused here still makes its image when asked to, for the reports (nothing
    // below then adds a message, and the image is never written).
    let refused = diags.has_errors();
    if refused && !opts.want_refused_image {
        return Ok(Vec::new());
    }
    let image = match finish(inputs, opts, diags, times, reports, &mut st, refused, out) {
        Err(_) if refused => Ok(Vec::new()),
        r => r,
    };
    if opts.skip_teardown {
        std::mem::forget(st);
    }
    image
}

/// The link's phases after the merge and its checks: layout, relocation, the image.
/// `refused`: the link already failed (see [`LinkOptions::want_refused_image`]).
#[allow(clippy::too_many_arguments)]
fn finish(
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
    diags: &mut Diagnostics,
    times: &mut PhaseTimes,
    reports: &mut Reports,
    st: &mut state::State<'_>,
    refused: bool,
    out: Option<&mut dyn std::io::Write>,
) -> Result<Vec<u8>, LinkError> {
    let mut scratch = Diagnostics::default();
    let (diags, out) = if refused {
        (&mut scratch, None)
    } else {
        (diags, out)
    };
    // sm_100+: the fence placeholders of relocatable compiles go from kernels (before anything
    // reads offsets into the code).
    let rewritten = timed(times, "fence-placeholders", || {
        fence_pads::drop_placeholders(st, inputs, opts)
    });
    if opts.target.is_mercury() {
        timed(times, "preexit", || preexit::rewrite(st, opts));
        timed(times, "line-tables", || {
            lines::rebuild_line_tables(st, inputs, &rewritten)
        });
    }
    relocate::check_deleted_references(st, opts)?;
    let bank2 = timed(times, "constant-bank-2", || {
        const_bank2::layout(st, inputs, opts)
    });
    // A relocatable link makes no slots: it settles the references (see `relocate`).
    let slots = timed(times, "bindless", || {
        if opts.relocatable {
            bindless::Slots::default()
        } else {
            bindless::assign_slots(st, opts.target.is_mercury())
        }
    });
    let mut patched = timed(times, "relocate", || relocate::relocate(st, &slots, opts));
    // sm_100+: the Mercury world, mirrored from the SASS link.
    let mut merc = if opts.target.is_mercury() {
        let mut w = timed(times, "mercury", || merc::build(st, inputs, opts))?;
        if opts.relocatable {
            merc::check_cut_banks(st, &w)?;
        }
        fence_pads::patch_capsules(&mut w, &rewritten);
        timed(times, "mercury-relocate", || {
            merc::relocate(&mut w, st, &mut patched, opts)
        });
        merc::add_slot_banks(&mut w, st);
        Some(w)
    } else {
        None
    };
    // (After the Mercury relocations too, which write the constants' places in the capsules.)
    const_bank2::drop_symbols(st, bank2);
    let fin = timed(times, "finalize", || {
        finalize::finalize(st, inputs, opts, diags)
    });
    if let Some(w) = merc.as_mut() {
        merc::add_constant_banks(w, st);
    }
    if let Some(graph) = reports.callgraph.as_mut() {
        for (node, f) in graph.nodes.iter_mut().zip(st.functions.iter().skip(1)) {
            node.code_position = f
                .sym
                .and_then(|s| match st.sym(s).section() {
                    state::SymSection::Section(text) => fin.out_index.get(text.index()).copied(),
                    _ => None,
                })
                .filter(|&i| i != 0);
        }
    }
    let mut fin = fin;
    timed(times, "scoreboards", || {
        rescore::rescore(st, &mut fin, &patched, inputs, opts)
    });
    let written = |e: std::io::Error| {
        LinkError::Fatal(Diagnostic::new(
            Severity::Fatal,
            format!("Could not write the output: {e}"),
        ))
    };
    let image = timed(times, "emit", || -> Result<Vec<u8>, LinkError> {
        match (&merc, out) {
            (Some(w), out) => {
                let image = merc::emit(st, &fin, &patched, w, inputs, opts);
                match out {
                    Some(out) => {
                        out.write_all(&image).map_err(written)?;
                        Ok(Vec::new())
                    }
                    None => Ok(image),
                }
            }
            (None, Some(out)) => {
                emit::emit_to(st, &fin, &patched, opts, out).map_err(written)?;
                Ok(Vec::new())
            }
            (None, None) => Ok(emit::emit(st, &fin, &patched, opts)),
        }
    })?;
    if opts.want_map {
        reports.map = Some(link_map(st, &fin, &opts.input_names));
    }
    if opts.skip_teardown {
        std::mem::forget(fin);
        std::mem::forget(patched);
        std::mem::forget(slots);
        std::mem::forget(merc);
    }
    Ok(image)
}

/// The merged call graph as nvlink reports it (see [`Callgraph`]).
fn callgraph(st: &state::State<'_>) -> Callgraph {
    // An address-taken function has one prototype, the last one recorded for it (observed:
    // `g` taken as `int(int)` in one input and as `double(double)` in the next is a target of
    // the second input's indirect calls only).
    let mut prototype_of: rustc_hash::FxHashMap<u32, u32> = Default::default();
    for &(t, proto) in &st.address_taken {
        prototype_of.insert(t.0, proto);
    }
    // Each prototype's functions, latest node first.
    let mut by_prototype: rustc_hash::FxHashMap<u32, Vec<u32>> = Default::default();
    for (&t, &proto) in &prototype_of {
        by_prototype.entry(proto).or_default().push(t);
    }
    for targets in by_prototype.values_mut() {
        targets.sort_unstable_by(|a, b| b.cmp(a));
    }
    // What each indirect call may reach, one group per call in the order of the records, then
    // the direct callees, newest first (observed: `-> 19 8 5 17 16 15 14 10 4 ... 12 13`).
    let mut reached: Vec<Vec<u32>> = vec![Vec::new(); st.functions.len()];
    for &(caller, proto) in &st.indirect_calls {
        if let (Some(list), Some(targets)) =
            (reached.get_mut(caller.0 as usize), by_prototype.get(&proto))
        {
            list.extend_from_slice(targets);
        }
    }
    // Each function's own register count, from the merged records.
    let mut regs: rustc_hash::FxHashMap<crate::arena::SymIdx, u32> = Default::default();
    for r in &st.info {
        if let (Some(sym), true) = (r.sym, r.attr == merge::EIATTR_REGCOUNT) {
            if let Some(v) = r.payload.get(4..8) {
                regs.insert(sym, u32::from_le_bytes(v.try_into().unwrap_or([0; 4])));
            }
        }
    }
    let nodes = st
        .functions
        .iter()
        .zip(reached)
        .skip(1)
        .map(|(f, mut callees)| {
            let name = f
                .sym
                .filter(|_| !f.dead)
                .map(|s| st.sym(s).name().to_owned());
            callees.extend(f.callees.iter().rev().map(|c| c.0));
            CallgraphNode {
                entry: name.is_some() && f.is_entry && !f.demoted,
                address_taken: f.address_taken,
                registers: f.sym.and_then(|s| regs.get(&s).copied()),
                code_position: None,
                name,
                callees,
            }
        })
        .collect();
    Callgraph { nodes }
}

/// The link map of a finished link.
fn link_map(st: &state::State<'_>, fin: &finalize::Finalized, inputs: &[String]) -> LinkMap {
    let sections = fin
        .order
        .iter()
        .map(|&id| {
            let s = st.sec(id);
            MapSection {
                name: s.name().to_owned(),
                size: s.size(),
                contributions: st
                    .nodes_of(id)
                    .filter(|n| n.input() != usize::MAX)
                    .map(|n| MapContribution {
                        input: n.input(),
                        offset: n.offset(),
                        size: n.size(),
                        align: n.align(),
                    })
                    .collect(),
            }
        })
        .collect();
    let name_of = |f: usize| {
        st.functions[f]
            .sym
            .map_or_else(String::new, |s| st.sym(s).name().to_owned())
    };
    let functions = (1..st.functions.len())
        .filter_map(|i| {
            let f = &st.functions[i];
            let sym = st.sym(f.sym?);
            let reason = match st
                .keep_reasons
                .get(i)
                .cloned()
                .unwrap_or(state::KeepReason::Unknown)
            {
                state::KeepReason::Kernel => MapReason::Kernel,
                state::KeepReason::Reachable { path, .. } => {
                    MapReason::Reachable(path.iter().map(|&p| name_of(p)).collect())
                }
                state::KeepReason::AddressTaken => MapReason::AddressTaken,
                state::KeepReason::NoElimination | state::KeepReason::Unknown => {
                    MapReason::NoElimination
                }
                state::KeepReason::NotSelected => MapReason::NotSelected,
                state::KeepReason::NotReferencedFromHost => MapReason::NotReferencedFromHost,
                state::KeepReason::Unreachable => MapReason::Unreachable,
            };
            Some(MapFunction {
                name: sym.name().to_owned(),
                input: sym.is_defined().then_some(sym.input()),
                kernel: f.is_entry,
                kept: !f.dead,
                reason,
            })
        })
        .collect();
    let weak_contests = st
        .weak_contests
        .iter()
        .map(|c| MapWeakContest {
            symbol: st.sym(c.symbol).name().to_owned(),
            winner: c.winner,
            loser: c.loser,
            why: match c.why {
                state::WeakWhy::NewerPtxTarget => "newer PTX target",
                state::WeakWhy::FewerRegisters => "fewer registers",
                state::WeakWhy::FirstOnCommandLine => "first on the command line",
            },
        })
        .collect();
    LinkMap {
        inputs: inputs.to_vec(),
        sections,
        functions,
        weak_contests,
    }
}
