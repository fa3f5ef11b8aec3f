//! The nvlink command: options → inputs → link → image on disk, with nvlink's messages and
//! exit statuses (0 on success, 1 after a fatal, 255 after errors).

use crate::options::{self, Parsed};
use crate::{RunEnv, RunOutcome};
use elfw_core::diag::Severity;
use elfw_core::input::{self, InputSource, LoadOptions};
use elfw_core::link::{link, InputObject, LinkOptions, ToolRecord};
use elfw_core::target::Target;
use std::io::Write;
use std::path::{Path, PathBuf};

struct Out<'a> {
    program: &'a str,
    run: &'a mut RunOutcome,
    errors: bool,
    werror: bool,
    no_warnings: bool,
}

impl Out<'_> {
    fn line(&mut self, sev: Severity, msg: &str) {
        let sev = if sev == Severity::Warning && self.werror {
            Severity::Error
        } else {
            sev
        };
        if sev == Severity::Warning && self.no_warnings {
            return;
        }
        if sev >= Severity::Error {
            self.errors = true;
        }
        let _ = writeln!(
            self.run.stderr,
            "{} {} : {}",
            self.program,
            sev.padded(),
            msg
        );
    }
    fn fatal(&mut self, msg: &str) -> i32 {
        self.line(Severity::Fatal, msg);
        1
    }
}

/// Runs one nvlink command line; returns the exit status.
pub fn run(argv: &[String], env: &RunEnv, outcome: &mut RunOutcome) -> i32 {
    let mut out = Out {
        program: &env.program_name,
        run: outcome,
        errors: false,
        werror: false,
        no_warnings: false,
    };
    let read = |f: &str| std::fs::read_to_string(resolve(env, f)).ok();
    let parsed = match options::parse(argv, &read) {
        Ok(p) => p,
        Err(e) => return out.fatal(&e.0),
    };
    out.werror = parsed.has("warning-as-error");
    out.no_warnings = parsed.has("disable-warnings");
    for w in &parsed.warnings {
        out.line(Severity::Warning, w);
    }
    if parsed.has("help") {
        return 0;
    }
    if parsed.has("version") {
        let _ = writeln!(
            out.run.stdout,
            "elfw: an open-source CUDA device linker\\nelfw {}",
            env!("CARGO_PKG_VERSION")
        );
        return 0;
    }
    if parsed.has("emit-ptx") && !(parsed.has("dlto") || parsed.has("link-time-opt")) {
        return out.fatal("Conflicting options '-emit-ptx' and 'no -dlto'");
    }
    if parsed.has("dlto") || parsed.has("link-time-opt") {
        if !parsed.has("nvvmpath") {
            return out.fatal("-nvvmpath should be specified with -lto");
        }
        return out.fatal("elfw: link-time optimization (-lto/-dlto) is not supported");
    }
    let Some(target) = parsed.value("arch").and_then(Target::parse) else {
        let name = parsed.value("arch").unwrap_or("(null)");
        return out.fatal(&format!("Unknown arch name '{name}'"));
    };
    link_files(&parsed, target, env, &mut out)
}

fn resolve(env: &RunEnv, p: &str) -> PathBuf {
    let path = Path::new(p);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        env.cwd.join(path)
    }
}

fn link_files(parsed: &Parsed, target: Target, env: &RunEnv, out: &mut Out<'_>) -> i32 {
    let mut sources: Vec<(String, PathBuf)> = parsed
        .inputs
        .iter()
        .map(|i| (i.clone(), resolve(env, i)))
        .collect();
    for lib in parsed.list("library") {
        let file = format!("lib{lib}.a");
        let found = parsed
            .list("library-path")
            .iter()
            .map(|d| Path::new(d).join(&file))
            .find(|p| resolve(env, &p.to_string_lossy()).is_file());
        if let Some(p) = found {
            let shown = p.to_string_lossy().into_owned();
            sources.push((shown.clone(), resolve(env, &shown)));
        }
    }
    let store = input::InputStore::new();
    let load_opts = LoadOptions {
        target: target.sm_arch(),
        lto: false,
        debug: parsed.has("debug"),
        ptxas: locate_ptxas(),
    };
    // Inputs are shown as given, but read relative to the working directory.
    let mut loaded = input::LoadedInputs::default();
    for (shown, path) in &sources {
        let data = match std::fs::read(path) {
            Ok(d) => d,
            Err(_) => return out.fatal(&format!("Could not open input file '{shown}'")),
        };
        match input::load(
            &store,
            &[InputSource::Bytes {
                name: shown.clone(),
                data,
            }],
            &load_opts,
        ) {
            Ok(l) => {
                loaded.cubins.extend(l.cubins);
                loaded.warnings.extend(l.warnings);
            }
            Err(e) => {
                let lines = e.nvlink_diagnostics();
                if lines.is_empty() {
                    return out.fatal(&e.to_string());
                }
                let mut status = 0;
                for (sev, msg) in lines {
                    let sev = match sev {
                        input::Severity::Warning => Severity::Warning,
                        input::Severity::Error => Severity::Error,
                        input::Severity::Fatal => Severity::Fatal,
                    };
                    out.line(sev, &msg);
                    status = if sev == Severity::Fatal { 1 } else { 255 };
                }
                return status;
            }
        }
    }
    for w in &loaded.warnings {
        if let Some(t) = w.nvlink_text() {
            out.line(Severity::Warning, &t);
        }
    }
    let inputs: Vec<InputObject<'_>> = loaded
        .cubins
        .iter()
        .map(|c| InputObject {
            name: c.name.clone(),
            elf: c.elf.clone(),
        })
        .collect();
    let mut opts = LinkOptions::new(target);
    opts.relocatable = parsed.has("relocatable-link");
    opts.preserve_relocs = parsed.has("preserve-relocs");
    opts.kernels_used = parsed.list("kernels-used").to_vec();
    opts.variables_used = parsed.list("variables-used").to_vec();
    opts.debug = parsed.has("debug");
    opts.input_names = inputs.iter().map(|i| i.name.clone()).collect();
    opts.tool_record = ToolRecord {
        tool: "elfw".into(),
        version: format!("elfw {}", env!("CARGO_PKG_VERSION")),
        build: format!("elfw {}", env!("CARGO_PKG_VERSION")),
        args: parsed.normalized(),
    };
    let result = link(&inputs, &opts);
    let (image, diags) = match result {
        Ok(o) => (Some(o.image), o.diagnostics),
        Err(f) => (None, f.diagnostics),
    };
    let mut status = 0;
    for d in diags.iter() {
        out.line(d.severity, &d.message);
        if d.severity == Severity::Fatal {
            status = 1;
        }
    }
    if status == 0 && out.errors {
        status = 255;
    }
    if status != 0 {
        return status;
    }
    let Some(image) = image else { return 255 };
    let output = parsed.value("output-file").unwrap_or("a.out");
    if let Err(e) = write_atomically(&resolve(env, output), &image) {
        return out.fatal(&format!("Could not write output file '{output}': {e}"));
    }
    0
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

/// Writes `bytes` to a temporary file next to `path`, then renames it over `path`, so a
/// failed link never leaves a partial output.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.elfw-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
