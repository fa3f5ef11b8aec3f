//! The nvlink command: options → checks → [`elfw_core::Linker`] → image on disk, with
//! nvlink's messages, in nvlink's order, and its exit statuses (0 on success, 1 after a fatal,
//! 255 after errors).
//!
//! Observed with nvlink 13.5.37 (tests in `tests/options.rs` and `tests/cli.rs`):
//! - `-h` prints the help on stdout and wins over everything else but a bad option; `-V`
//!   prints the version (no newline after its last line); elfw's `-V` says it is elfw.
//! - then `--gen-host-linker-script`, then `Unknown arch name '(null)'`, `Must specify output
//!   file with -o option` (for `sm_` targets), `No input files specified; ...`,
//!   `-suppress-debug-info` without `-g`, the `lto_` target refusal, `-nvvmpath should be
//!   specified with -lto`, then the other conflicting-option checks, each fatal.
//! - `--report-arch` appends ` (target: <arch as given>)` to every message printed once the
//!   architecture is known, the embedded ptxas's included (option-parsing warnings come
//!   earlier and have none).
//! - `-w` changes none of nvlink's own messages (accepted, no effect); `--disable-infos` drops
//!   the link's warnings (see [`elfw_core::Linker::disable_infos`]); `-Werror` turns warnings
//!   into errors (see [`elfw_core::Linker::warnings_as_errors`]).
//! - An output that cannot be created: `Could not open output file '<name>'` (fatal).

use crate::options::{self, Parsed};
use crate::report;
use crate::{RunEnv, RunOutcome};
use elfw_core::diag::Severity;
use elfw_core::input;
use elfw_core::link::ToolRecord;
use elfw_core::target::{ArchKind, Target};
use elfw_core::{Linked, Linker};
use std::io::Write;
use std::path::{Path, PathBuf};

/// nvlink's `--help` text (its program name replaced at print time).
const HELP: &str = include_str!("nvlink-help.txt");

struct Out<'a> {
    program: &'a str,
    run: &'a mut RunOutcome,
    suffix: String,
}

impl Out<'_> {
    fn line(&mut self, sev: Severity, msg: &str) {
        if sev == Severity::Verbatim {
            let _ = writeln!(self.run.stderr, "{msg}{}", self.suffix);
            return;
        }
        let _ = writeln!(
            self.run.stderr,
            "{} {} : {}{}",
            self.program,
            sev.padded(),
            msg,
            self.suffix
        );
    }
    fn fatal(&mut self, msg: &str) -> i32 {
        self.line(Severity::Fatal, msg);
        1
    }
}

/// Runs one nvlink command line; returns the exit status. With `exiting` (the process ends as
/// soon as this returns) the link's big structures are left for the exit to reclaim.
pub fn run(argv: &[String], env: &RunEnv, outcome: &mut RunOutcome, exiting: bool) -> i32 {
    let mut out = Out {
        program: &env.program_name,
        run: outcome,
        suffix: String::new(),
    };
    let read = |f: &str| std::fs::read_to_string(resolve(env, f)).ok();
    let parsed = match options::parse(argv, &read) {
        Ok(p) => p,
        Err(e) => return out.fatal(&e.0),
    };
    for w in &parsed.warnings {
        out.line(Severity::Warning, w);
    }
    if parsed.has("help") {
        let text = HELP.replacen(
            "Usage  : nvlink ",
            &format!("Usage  : {} ", env.program_name),
            1,
        );
        out.run.stdout.extend_from_slice(text.as_bytes());
        return 0;
    }
    if parsed.has("version") {
        let _ = write!(
            out.run.stdout,
            "{}: elfw, an open-source CUDA device linker (a drop-in for NVIDIA nvlink 13.5)\nelfw version {}\nhttps://github.com/elfw-project/elfw",
            env.program_name,
            env!("CARGO_PKG_VERSION")
        );
        return 0;
    }
    if let Some(kind) = parsed.value("gen-host-linker-script") {
        if !parsed.inputs.is_empty() {
            return out.fatal(
                "Input files are not allowed with -ghls option; use --help for more information",
            );
        }
        return host_linker_script(&parsed, kind, env, &mut out);
    }
    let Some(arch) = parsed.value("arch") else {
        return out.fatal("Unknown arch name '(null)'");
    };
    let Some(target) = Target::parse(arch) else {
        return out.fatal(&format!("Unknown arch name '{arch}'"));
    };
    if parsed.has("report-arch") {
        out.suffix = format!(" (target: {arch})");
    }
    if parsed.has("use-host-info") && (parsed.has("kernels-used") || parsed.has("variables-used")) {
        out.line(
            Severity::Info,
            "ignore -use-host-info because -kernels-used or -variables-used is specified",
        );
    }
    if target.kind == ArchKind::Sm && !parsed.has("output-file") {
        return out.fatal("Must specify output file with -o option");
    }
    if parsed.inputs.is_empty() {
        return out.fatal("No input files specified; use option --help for more information");
    }
    // (Before the `lto_` refusal and the `-lto` checks, unlike the other conflicts.)
    if parsed.has("suppress-debug-info") && !parsed.has("debug") {
        return out.fatal("Conflicting options '-suppress-debug-info' and 'no -g'");
    }
    if target.kind == ArchKind::Lto {
        return out.fatal(&format!(
            "Link target of '{arch}' is virtual target that is not JIT-able; use 'sm_' target instead"
        ));
    }
    if (parsed.has("dlto") || parsed.has("link-time-opt")) && !parsed.has("nvvmpath") {
        return out.fatal("-nvvmpath should be specified with -lto");
    }
    for (given, needs, msg) in [
        (
            "nvvm-latest",
            "dlto",
            "Conflicting options '-nvvm-latest' and 'no -dlto'",
        ),
        (
            "emit-ptx",
            "dlto",
            "Conflicting options '-emit-ptx' and 'no -dlto'",
        ),
        (
            "Ofast-compile",
            "dlto",
            "Conflicting options '--Ofast-compile' and 'no -dlto'",
        ),
    ] {
        if parsed.has(given) && !parsed.has(needs) {
            return out.fatal(msg);
        }
    }
    if parsed.has("dump-callgraph") && parsed.has("dump-callgraph-no-demangle") {
        return out
            .fatal("Conflicting options '-dump-callgraph' and '-dump-callgraph-no-demangle'");
    }
    if parsed.has("use-host-info") && parsed.has("ignore-host-info") {
        return out.fatal("Conflicting options '-use-host-info' and '-ignore-host-info'");
    }
    // nvlink checks `--Ofast-compile`'s value only here, after the conflicts (observed:
    // without -dlto a bad value is a conflict, without -nvvmpath the missing path; the last
    // value given is the one checked).
    if let Some(level) = parsed.value("Ofast-compile") {
        if !["0", "min", "mid", "max"].contains(&level) {
            return out.fatal("Invalid argument for option '--Ofast-compile'");
        }
    }
    if let Some(uidx) = parsed.value("uidx-file") {
        // nvlink reads the whole file first: an empty one cannot be read, a directory fails
        // the allocation for its size (observed); what it reads is never a uidx it takes.
        match std::fs::metadata(resolve(env, uidx)) {
            Err(_) => return out.fatal(&format!("Could not open input file '{uidx}'")),
            Ok(m) if m.is_dir() => return out.fatal("Memory allocation failure"),
            Ok(m) if m.len() == 0 => return out.fatal(&format!("Could not read file '{uidx}'")),
            Ok(_) => return out.fatal("Internal error: not uidx input"),
        }
    }
    link_files(&parsed, target, env, &mut out, exiting)
}

fn resolve(env: &RunEnv, p: &str) -> PathBuf {
    let path = Path::new(p);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        env.cwd.join(path)
    }
}

/// The linker the command line describes (the same builder library users call).
pub fn linker_for(parsed: &Parsed, target: Target, env: &RunEnv) -> Linker {
    let mut l = Linker::new(target)
        .working_dir(&env.cwd)
        .relocatable(parsed.has("relocatable-link"))
        .preserve_relocs(parsed.has("preserve-relocs"))
        .tools_patch(parsed.has("link-as-tools-patch"))
        .ptxas_options(ptxas_options(parsed))
        .debug(parsed.has("debug"))
        .kernels_used(parsed.list("kernels-used").to_vec())
        .variables_used(parsed.list("variables-used").to_vec())
        .keep_system_libraries(parsed.has("keep-system-libraries"))
        .ignore_host_info(parsed.has("ignore-host-info"))
        .warnings_as_errors(parsed.has("warning-as-error"))
        .suppress_arch_warning(parsed.has("suppress-arch-warning"))
        .suppress_stack_size_warning(parsed.has("suppress-stack-size-warning"))
        .disable_infos(parsed.has("disable-infos"))
        .extra_warnings(parsed.has("extra-warnings"))
        .suppress_debug_info(parsed.has("suppress-debug-info"))
        .register_link_binaries(parsed.has("register-link-binaries"))
        .keep_input_cubins(parsed.has("verbose") || parsed.has("print-map"))
        .link_map(parsed.has("print-map"))
        .callgraph(parsed.has("dump-callgraph") || parsed.has("dump-callgraph-no-demangle"))
        .refused_image(
            parsed.has("verbose")
                || parsed.has("dump-callgraph")
                || parsed.has("dump-callgraph-no-demangle"),
        )
        .ptxas(locate_ptxas())
        .link_time_optimization(
            (parsed.has("dlto") || parsed.has("link-time-opt"))
                .then(|| parsed.value("nvvmpath"))
                .flatten()
                .map(|p| {
                    let number = |o| parsed.value(o).and_then(|n| n.parse::<i32>().ok());
                    elfw_core::lto::LtoOptions {
                        maxrregcount: parsed.value("maxrregcount").and_then(|n| n.parse().ok()),
                        xnvvm: words(parsed.list("Xnvvm")),
                        xptxas: words(parsed.list("Xptxas")),
                        verbose2: parsed.has("verbose2"),
                        split_compile: number("split-compile"),
                        split_compile_extended: number("split-compile-extended"),
                        emit_ptx: parsed.has("emit-ptx"),
                        fast_compile: parsed.value("Ofast-compile").map(str::to_owned),
                        nvvm_latest: parsed.has("nvvm-latest"),
                        ..elfw_core::lto::LtoOptions::new(resolve(env, p))
                    }
                }),
        )
        .tool_record(ToolRecord {
            // nvlink names its output there under `-g` (observed: `out.cubin`).
            object: match (parsed.has("debug"), parsed.value("output-file")) {
                (true, Some(o)) => o.to_string(),
                _ => String::new(),
            },
            tool: "elfw".into(),
            version: format!("elfw {}", env!("CARGO_PKG_VERSION")),
            build: format!("elfw {}", env!("CARGO_PKG_VERSION")),
            args: parsed.normalized(),
        });
    for i in &parsed.inputs {
        l = l.input_path(i);
    }
    for lib in parsed.list("library") {
        l = l.library(lib.clone());
    }
    for dir in parsed.list("library-path") {
        l = l.library_path(dir.clone());
    }
    l
}

fn link_files(
    parsed: &Parsed,
    target: Target,
    env: &RunEnv,
    out: &mut Out<'_>,
    exiting: bool,
) -> i32 {
    let linker = linker_for(parsed, target, env).skip_teardown(exiting);
    // The image goes straight to a temporary file beside the output as it is made, unless a
    // report needs to read it (the image of a large link is most of the link's memory).
    let reads_image = parsed.has("verbose")
        || parsed.has("dump-callgraph")
        || parsed.has("dump-callgraph-no-demangle");
    let staged = match parsed.value("output-file") {
        Some(o) if !reads_image => stage_open(&resolve(env, o)).ok(),
        _ => None,
    };
    let (linked, staged) = match staged {
        Some((tmp, mut file)) => {
            // Unbuffered: the emitter hands over whole windows of the image and prebuilt
            // sections of at least 64 KiB, so a buffer would only add a copy (and its pages).
            let linked = linker.link_to(&mut file);
            drop(file);
            if linked.image.is_some() {
                (linked, Some(tmp))
            } else {
                let _ = std::fs::remove_file(&tmp);
                (linked, None)
            }
        }
        None => (linker.link(), None),
    };
    let status = finish_link(parsed, target, env, out, &linked, staged);
    if exiting {
        // The image and the link's records: the process's exit reclaims them.
        std::mem::forget(linked);
        std::mem::forget(linker);
    }
    status
}

/// Everything after the link: messages, reports, the output file (atomically) and `--time`.
fn finish_link(
    parsed: &Parsed,
    target: Target,
    env: &RunEnv,
    out: &mut Out<'_>,
    linked: &Linked,
    staged: Option<PathBuf>,
) -> i32 {
    let diags = &linked.diagnostics;
    let status = linked.status();
    let image = linked.image.as_deref().or(linked.report_image.as_deref());
    // A whole-program LTO image is ptxas's, not a link's: nvlink reports nothing about it
    // (observed with `-v` and `--dump-callgraph`); `-emit-ptx` made no image to report, nor
    // did a link that ended once its inputs were read.
    let reports = !linked.whole_program_lto && !linked.emitted_ptx && !linked.ended_after_inputs;
    // A relocatable link dumps no callgraph (observed, sm_80 and sm_90 `-r`); a link refused
    // after its merge dumps the graph it made (observed after undefined references, register
    // limits and an internal error in relocation).
    let dumps_callgraph = parsed.has("dump-callgraph") || parsed.has("dump-callgraph-no-demangle");
    let graph_made = image.is_some() || linked.callgraph.is_some();
    let limits: Vec<(&str, &str, u32)> = diags
        .iter()
        .filter_map(|d| register_limit_error(&d.message))
        .filter_map(|(entry, callee, regs)| Some((entry, callee, regs.parse().ok()?)))
        .collect();
    let dump = (dumps_callgraph && !parsed.has("relocatable-link") && graph_made && reports)
        .then(|| report::callgraph_dump(linked.callgraph.as_ref(), target, &limits));
    // nvlink checks register limits while it propagates the counts it dumps: each such error
    // comes just before its propagation line; a fatal comes after the dump.
    let mut held: Vec<usize> = Vec::new();
    if dump.is_some() {
        held.extend(
            (0..diags.len()).filter(|&i| register_limit_error(&diags[i].message).is_some()),
        );
        if status == 1 {
            held.extend(diags.len().checked_sub(1));
        }
    }
    for (i, d) in diags.iter().enumerate() {
        if held.contains(&i) {
            continue;
        }
        // A ptxas message may go on over indented lines: `--report-arch`'s suffix follows its
        // last line (observed: `Function properties for f` / `    0 bytes stack frame, ...`).
        let continued = diags.get(i + 1).is_some_and(|next| {
            next.severity == Severity::Verbatim && next.message.starts_with("    ")
        });
        if d.severity == Severity::Verbatim && continued {
            let _ = writeln!(out.run.stderr, "{}", d.message);
        } else {
            out.line(d.severity, &d.message);
        }
    }
    if let Some(text) = &dump {
        let mut pending: Vec<usize> = held
            .iter()
            .copied()
            .filter(|&i| register_limit_error(&diags[i].message).is_some())
            .collect();
        for line in text.split_inclusive('\n') {
            if let Some(at) = pending.iter().position(|&i| {
                register_limit_error(&diags[i].message).is_some_and(|(entry, callee, regs)| {
                    line.trim_end()
                        == format!(
                            "regcount {regs} for {} propagated to entry {}",
                            report::demangle(callee),
                            report::demangle(entry)
                        )
                })
            }) {
                let d = &diags[pending.remove(at)];
                out.line(d.severity, &d.message);
            }
            out.run.stderr.extend_from_slice(line.as_bytes());
        }
        for i in pending {
            out.line(diags[i].severity, &diags[i].message);
        }
        if status == 1 {
            if let Some(d) = diags.last() {
                out.line(d.severity, &d.message);
            }
        }
    }
    let mut status = status;
    // (A fatal with an image: nvlink wrote the output before giving up, see
    // `elfw_core::Linked::image`.)
    if status == 1 && linked.image.is_none() {
        return 1;
    }
    // (A virtual target links nothing and reports nothing: observed.)
    if parsed.has("verbose") && target.kind != ArchKind::Compute && reports {
        for line in report::verbose_lines(
            image,
            &linked.cubins,
            target,
            parsed.has("relocatable-link"),
        ) {
            out.line(Severity::Info, &line);
        }
    }
    if let Some(map) = parsed.value("print-map") {
        let text = report::map(linked, map.ends_with(".json"));
        if let Err(e) = write_file(&resolve(env, map), text.as_bytes()) {
            out.line(
                Severity::Error,
                &format!("Could not write map file '{map}': {e}"),
            );
            status = status.max(255);
        }
    }
    let output = parsed.value("output-file");
    let mut pending = None;
    let write_start = std::time::Instant::now();
    if let (Some(tmp), Some(output)) = (staged, output) {
        pending = Some((tmp, resolve(env, output)));
    } else if let (Some(image), Some(output)) = (&linked.image, output) {
        match stage(&resolve(env, output), image) {
            Ok(tmp) => pending = Some((tmp, resolve(env, output))),
            Err(_) => return out.fatal(&format!("Could not open output file '{output}'")),
        }
    }
    // (After a fatal only the image is written.)
    if let Some(reg) = parsed
        .value("register-link-binaries")
        .filter(|_| status != 1 && !linked.emitted_ptx)
    {
        if let Err(code) = write_registration(reg, linked, env, out) {
            if let Some((tmp, _)) = pending {
                let _ = std::fs::remove_file(tmp);
            }
            return code;
        }
    }
    let mut wrote = None;
    if let Some((tmp, dest)) = pending {
        if publish(&tmp, &dest).is_err() {
            let _ = std::fs::remove_file(&tmp);
            return out.fatal(&format!(
                "Could not open output file '{}'",
                output.unwrap_or_default()
            ));
        }
        wrote = Some(write_start.elapsed());
    }
    if let Some(time) = parsed.value("time") {
        if let Err(code) = write_times(time, parsed, linked, wrote, target, env, out) {
            return code;
        }
    }
    status
}

/// The kernel, callee and register count of a register-limit error
/// (`entry function 'k' with max regcount of N calls function 'f' with regcount of M`).
fn register_limit_error(message: &str) -> Option<(&str, &str, &str)> {
    let rest = message.strip_prefix("entry function '")?;
    let (entry, rest) = rest.split_once("' with max regcount of ")?;
    let (_, rest) = rest.split_once(" calls function '")?;
    let (callee, regs) = rest.split_once("' with regcount of ")?;
    Some((entry, callee, regs))
}

/// The `.reg.c` nvcc compiles into its link stub: how many linked objects, and one
/// `DEFINE_REGISTER_FUNC` per registration name, in input order.
pub fn registration_file(linked: &Linked) -> String {
    let mut names: Vec<&String> = linked
        .inputs
        .iter()
        .flat_map(|i| &i.registrations)
        .collect();
    if linked.whole_program_lto {
        names.reverse();
    }
    let mut s = format!("#define NUM_PRELINKED_OBJECTS {}\n", names.len());
    for n in names {
        s.push_str(&format!("DEFINE_REGISTER_FUNC({n})\n"));
    }
    s
}

fn write_registration(
    reg: &str,
    linked: &Linked,
    env: &RunEnv,
    out: &mut Out<'_>,
) -> Result<(), i32> {
    let text = registration_file(linked);
    write_file(&resolve(env, reg), text.as_bytes())
        .map_err(|_| out.fatal(&format!("Could not open output file '{reg}'")))
}

/// `--time FILE`: appends one CSV row per elfw phase (nvlink's header row first when the
/// file is empty; `-` is standard output): the phases of [`Linked::times`], then `write`
/// (the output staged and renamed into place; reports and the `.reg.c` file included).
fn write_times(
    file: &str,
    parsed: &Parsed,
    linked: &Linked,
    wrote: Option<std::time::Duration>,
    target: Target,
    env: &RunEnv,
    out: &mut Out<'_>,
) -> Result<(), i32> {
    const HEADER: &str = "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n";
    let inputs = parsed.inputs.join(" ");
    let output = parsed.value("output-file").unwrap_or("");
    let mut rows = String::new();
    let write = wrote.map(|d| ("write", d));
    for (phase, d) in linked.times.phases.iter().chain(&write) {
        rows.push_str(&format!(
            "{inputs}  , elfw {phase} , {inputs}  , {output} , {} , elfw , {:.4} , ms\n",
            target.sm_name(),
            d.as_secs_f64() * 1000.0
        ));
    }
    if file == "-" {
        out.run.stdout.extend_from_slice(HEADER.as_bytes());
        out.run.stdout.extend_from_slice(rows.as_bytes());
        return Ok(());
    }
    let path = resolve(env, file);
    let empty = std::fs::metadata(&path)
        .map(|m| m.len() == 0)
        .unwrap_or(true);
    let f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path);
    let Ok(mut f) = f else {
        return Err(out.fatal(&format!("Cannot open file '{file}'")));
    };
    let mut text = String::new();
    if empty {
        text.push_str(HEADER);
    }
    text.push_str(&rows);
    f.write_all(text.as_bytes())
        .map_err(|_| out.fatal(&format!("Cannot open file '{file}'")))
}

/// The augmentation nvlink writes for `-ghls`: where the host linker puts CUDA's fatbinary
/// sections.
pub const HOST_LINKER_SCRIPT_AUGMENT: &str = "SECTIONS\n{\n\t.nvFatBinSegment : { *(.nvFatBinSegment) }\n\t__nv_relfatbin : { *(__nv_relfatbin) } \n\t.nv_fatbin : { *(.nv_fatbin) }\n}\n";

/// `--gen-host-linker-script`: without `-o` the augmentation goes to standard output (for
/// either kind); with `-o`, `lcs-aug` writes the augmentation and `lcs-abs` writes the host
/// linker's default script (asked of `ld --verbose` with the flags the host compiler passes
/// its linker, for a relocatable link under `-r`, as nvlink does) followed by the augmentation.
fn host_linker_script(parsed: &Parsed, kind: &str, env: &RunEnv, out: &mut Out<'_>) -> i32 {
    let Some(output) = parsed.value("output-file") else {
        out.run
            .stdout
            .extend_from_slice(HOST_LINKER_SCRIPT_AUGMENT.as_bytes());
        return 0;
    };
    let mut text = String::new();
    if kind == "lcs-abs" {
        let ccbin = parsed.value("host-ccbin").unwrap_or("gcc");
        // `-r` asks the host compiler for a relocatable link's flags (observed: `ld`'s
        // "Script for -r").
        let relocatable = if parsed.has("relocatable-link") {
            " -r "
        } else {
            ""
        };
        let script = format!(
            "ld --verbose $({ccbin} -### /dev/null {relocatable} -m64  2>&1 | grep collect2  | grep -wo -e -pie -e \"-z [^[:space:]]*\" -e \"-m [^[:space:]]*\" -e -r -e -shared  | tr \"\\n\" \" \" ) | grep -Fvx -e \"$(ld -V)\" | sed '1,2d;$d'"
        );
        let result = std::process::Command::new("sh")
            .arg("-c")
            .arg(&script)
            .current_dir(&env.cwd)
            .output();
        match result {
            Ok(o) if o.status.success() && !o.stdout.is_empty() => {
                // (Followed directly by the augmentation: the script ends in blank lines.)
                text.push_str(&String::from_utf8_lossy(&o.stdout));
            }
            _ => return out.fatal("Could not generate host linker script with 'ld --verbose'"),
        }
    }
    text.push_str(HOST_LINKER_SCRIPT_AUGMENT);
    match write_file(&resolve(env, output), text.as_bytes()) {
        Ok(()) => 0,
        Err(_) => out.fatal(&format!("Could not open output file '{output}'")),
    }
}

/// ptxas for PTX inputs: `$ELFW_PTXAS`, else next to this program, else on `PATH`.
fn locate_ptxas() -> Option<input::ptx::Ptxas> {
    let explicit = std::env::var_os("ELFW_PTXAS").map(PathBuf::from);
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf));
    let path = std::env::var_os("PATH");
    input::ptx::Ptxas::locate(explicit.as_deref(), exe_dir.as_deref(), path.as_deref()).ok()
}

/// Writes `bytes` to a new temporary file beside `path` and returns its name; the caller
/// renames it over `path` once everything else has succeeded, so no partial output is ever
/// left under `path`.
///
/// The file is not `fsync`ed: like nvlink (which `fwrite`s straight to the output), elfw
/// leaves durability to the file system. The rename already protects readers from a
/// half-written file if elfw fails or is killed; a sync only adds safety against power loss,
/// and cost 25 ms of a 470 ms link at 500 files × 50 functions (more on a busy disk).
fn stage(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let (tmp, mut f) = stage_open(path)?;
    match f.write_all(bytes) {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Creates the temporary file [`stage`] would write, for an image streamed into it.
fn stage_open(path: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name"))?;
    if path.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory",
        ));
    }
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.elfw-{}-{n}.tmp", std::process::id()));
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)?;
    Ok((tmp, f))
}

/// Puts the staged output `tmp` in place of `dest`.
///
/// An older regular file at `dest` is removed first rather than renamed over: ext4 (with its
/// default `auto_da_alloc`) treats a rename over an existing file as a replace and allocates
/// and starts writing back the new file's blocks inside `rename`, which cost about 18 ms for
/// a 38 MB image (500 × 50 workload) against 8 ms for removing the old file. Readers still
/// never see a partial image: `dest` is briefly absent instead. On failure nothing changes
/// before this point, so a failed link leaves an older output as it was, as nvlink does.
fn publish(tmp: &Path, dest: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(dest).is_ok_and(|m| m.file_type().is_file()) {
        let _ = std::fs::remove_file(dest);
    }
    std::fs::rename(tmp, dest)
}

/// Writes a whole file atomically (temporary file, then rename).
fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = stage(path, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// The words of a `-Xptxas`/`-Xnvvm` list: nvlink splits each value at white space too
/// (observed: nvcc passes `-Xptxas "-O2 "`, and `-Xptxas "-O1 -v"` is two options).
fn words(list: &[String]) -> Vec<String> {
    list.iter()
        .flat_map(|v| v.split_ascii_whitespace())
        .map(str::to_owned)
        .collect()
}

/// The link's own options for ptxas when it compiles PTX inputs: the `-Xptxas` words, then
/// `-maxrregcount` (observed: nvlink's embedded ptxas records them, the link's register limit
/// winning over both the `-Xptxas` one and the fatbin entry's).
fn ptxas_options(parsed: &Parsed) -> Vec<String> {
    // `-v2` goes to the embedded ptxas (observed: its `.note.nv.tkinfo` record starts with
    // `-v2`, and ptxas's verbose report is printed).
    let mut out: Vec<String> = parsed
        .has("verbose2")
        .then(|| "-v2".to_string())
        .into_iter()
        .collect();
    out.extend(words(parsed.list("Xptxas")));
    if let Some(n) = parsed.value("maxrregcount") {
        out.push(format!("-maxrregcount={n}"));
    }
    out
}
