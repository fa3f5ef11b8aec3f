//! The link pipeline, as seed 03 lays it out ("Context Flow Through Pipeline Phases"):
//! merge → dead-code elimination → layout → relocate → finalize → emit. Each phase is a
//! function over the state the previous one produced; [`link`] calls them in order and
//! records how long each took.

pub mod bindless;
pub mod dce;
pub mod emit;
pub mod finalize;
pub mod merc;
pub mod merge;
pub mod relocate;
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
    /// `--kernels-used` patterns.
    pub kernels_used: Vec<String>,
    /// `--variables-used` patterns.
    pub variables_used: Vec<String>,
    /// `-g`.
    pub debug: bool,
    /// The linker's own `.note.nv.tkinfo` record: tool name, version, build, arguments.
    pub tool_record: ToolRecord,
    /// Display names of the inputs, by input index (for messages).
    pub input_names: Vec<String>,
    /// Which inputs come from a system library (`libcudadevrt.a`), by input index: such a
    /// cubin is linked only when it defines something the inputs before it left undefined
    /// (observed: an unused libcudadevrt leaves no trace in the image).
    pub system_library: Vec<bool>,
    /// `--keep-system-libraries`: link system-library cubins whether used or not.
    pub keep_system_libraries: bool,
    /// Leave the link's working state for the process's exit to reclaim (the `elfw` command:
    /// freeing hundreds of thousands of records one by one costs more than the link's last
    /// phases).
    pub skip_teardown: bool,
}

/// The strings of a `.note.nv.tkinfo` record.
#[derive(Clone, Debug)]
pub struct ToolRecord {
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
    /// Defaults for a final link to `target`.
    pub fn new(target: Target) -> LinkOptions {
        LinkOptions {
            target,
            relocatable: false,
            preserve_relocs: false,
            kernels_used: Vec::new(),
            variables_used: Vec::new(),
            debug: false,
            tool_record: ToolRecord {
                tool: "elfw".into(),
                version: format!("elfw {}", env!("CARGO_PKG_VERSION")),
                build: "elfw".into(),
                args: format!("-arch {} ", target.sm_name()),
            },
            input_names: Vec::new(),
            system_library: Vec::new(),
            keep_system_libraries: false,
            skip_teardown: false,
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
}

/// A failed link: what went wrong, with every diagnostic before it.
#[derive(Debug)]
pub struct LinkFailure {
    /// All diagnostics, the failing one last.
    pub diagnostics: Diagnostics,
}

/// Links `inputs` (in command-line order) into one image.
pub fn link(inputs: &[InputObject<'_>], opts: &LinkOptions) -> Result<LinkOutput, LinkFailure> {
    let mut diags = Diagnostics::default();
    let mut times = PhaseTimes::default();
    match run(inputs, opts, &mut diags, &mut times) {
        Ok(image) if !diags.has_errors() => Ok(LinkOutput {
            image,
            diagnostics: diags,
            times,
        }),
        Ok(_) => Err(LinkFailure { diagnostics: diags }),
        Err(e) => {
            diags.push(match e {
                LinkError::Fatal(d) => d,
                LinkError::Input { file, message } => {
                    Diagnostic::new(Severity::Fatal, format!("{file}: {message}")).in_file(file)
                }
            });
            Err(LinkFailure { diagnostics: diags })
        }
    }
}

fn timed<T>(times: &mut PhaseTimes, name: &'static str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    times.phases.push((name, start.elapsed()));
    out
}

fn run(
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
    diags: &mut Diagnostics,
    times: &mut PhaseTimes,
) -> Result<Vec<u8>, LinkError> {
    let bump = bumpalo::Bump::new();
    let mut st = state::State::new(&bump);
    finalize::create_standard_sections(&mut st, opts);
    // From sm_90 every image carries `.nv.compat`, made right after `.nv.info`.
    if opts.target.sm >= 90 {
        finalize::create_compat_section(&mut st);
    }
    timed(times, "merge", || -> Result<(), LinkError> {
        for (i, obj) in inputs.iter().enumerate() {
            let system = opts.system_library.get(i).copied().unwrap_or(false);
            if system && !opts.keep_system_libraries && !merge::resolves_undefined(&st, obj) {
                continue;
            }
            merge::merge_input(&mut st, i, obj, opts, diags)?;
        }
        Ok(())
    })?;
    timed(times, "dce", || dce::eliminate_dead_code(&mut st, opts));
    timed(times, "resolve", || {
        finalize::check_undefined(&st, opts, diags)
    });
    if diags.has_errors() {
        return Ok(Vec::new());
    }

    timed(times, "shared-layout", || {
        shared::layout_shared(&mut st, opts)
    });
    let slots = timed(times, "bindless", || {
        bindless::assign_slots(&mut st, opts.target.is_mercury())
    });
    let patched = timed(times, "relocate", || {
        relocate::relocate(&mut st, &slots, opts)
    });
    // sm_100+: the Mercury world, mirrored from the SASS link.
    let merc = if opts.target.is_mercury() {
        let mut w = timed(times, "mercury", || merc::build(&st, inputs))?;
        timed(times, "mercury-relocate", || {
            merc::relocate(&mut w, &mut st, opts)
        });
        Some(w)
    } else {
        None
    };
    let fin = timed(times, "finalize", || {
        finalize::finalize(&mut st, inputs, opts, diags)
    });
    let image = timed(times, "emit", || match &merc {
        Some(w) => merc::emit(&st, &fin, &patched, w, inputs, opts),
        None => emit::emit(&st, &fin, &patched, opts),
    });
    if opts.skip_teardown {
        std::mem::forget(st);
        std::mem::forget(fin);
        std::mem::forget(patched);
        std::mem::forget(slots);
        std::mem::forget(merc);
    }
    Ok(image)
}
