//! `cargo xtask corpus [case...]`: builds the corpus inputs and records nvlink's results.
//!
//! For each case, the sources in `tests/corpus-src/<case>/` are copied into the fixed scratch
//! directory `/tmp/elfw-corpus/<case>` and the recipe's `build` commands run there (a fixed path,
//! so anything a tool embeds — `-G` debug info names the compile directory — does not depend on
//! where the repository lives). The `input` files are then copied into
//! `/tmp/elfw-corpus/_link/<case>` (beside `_link/_toolkit/lib/libcudadevrt.a`, mirroring
//! `tests/corpus/`), nvlink runs there with the recipe's argument list, and the inputs, the
//! argument list, the image and nvlink's stdout, stderr and exit status are written to
//! `tests/corpus/<case>/`.

use crate::recipe::Recipe;
use crate::toolchain;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where cases are built and linked. Fixed on purpose: see the module comment.
const SCRATCH: &str = "/tmp/elfw-corpus";

/// The repository root (the parent of the xtask crate).
fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// `cargo xtask corpus [--stats] [case...]`.
pub fn command(args: &[String]) -> Result<(), String> {
    let root = repo_root();
    let src_root = root.join("tests").join("corpus-src");
    let out_root = root.join("tests").join("corpus");
    if args.first().map(String::as_str) == Some("--stats") {
        return stats(&src_root, &out_root);
    }
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!("unknown option {flag}"));
    }
    let all = case_names(&src_root)?;
    let selected: Vec<String> = if args.is_empty() {
        all.clone()
    } else {
        for name in args {
            if !all.contains(name) {
                return Err(format!("no case {name} in {}", src_root.display()));
            }
        }
        args.to_vec()
    };

    let toolchain = toolchain::ensure()?;
    let scratch = PathBuf::from(SCRATCH);
    let tools = Tools::at_fixed_path(&toolchain.cuda_root(), &scratch)?;
    fs::create_dir_all(&out_root).map_err(|e| io_error(&out_root, e))?;
    let devrt = tools.lib().join("libcudadevrt.a");
    let shared_lib = out_root.join("_toolkit").join("lib");
    copy_if_changed(&devrt, &shared_lib.join("libcudadevrt.a"))?;
    copy_if_changed(
        &devrt,
        &scratch
            .join("_link")
            .join("_toolkit")
            .join("lib")
            .join("libcudadevrt.a"),
    )?;

    // `-nvvmpath ../_toolkit/nvvm` in LTO link lines: the toolchain's nvvm folder beside the
    // links (elfw's corpus test links it beside its own copies).
    {
        let link = scratch.join("_link").join("_toolkit").join("nvvm");
        if fs::read_link(&link).ok().as_deref() != Some(toolchain.nvvm_dir().as_path()) {
            if fs::symlink_metadata(&link).is_ok() {
                fs::remove_file(&link).map_err(|e| io_error(&link, e))?;
            }
            std::os::unix::fs::symlink(toolchain.nvvm_dir(), &link)
                .map_err(|e| io_error(&link, e))?;
        }
    }

    if args.is_empty() {
        remove_stale_cases(&out_root, &all)?;
    }

    let mut not_built = Vec::new();
    for name in &selected {
        match record_case(&tools, &src_root, &out_root, &scratch, name) {
            Ok(summary) => eprintln!("{name}: {summary}"),
            Err(why) => {
                eprintln!("{name}: NOT BUILT: {why}");
                let dir = out_root.join(name);
                if dir.exists() {
                    fs::remove_dir_all(&dir).map_err(|e| io_error(&dir, e))?;
                }
                not_built.push(name.clone());
            }
        }
    }
    eprintln!(
        "corpus: {} case(s) recorded, {} not built",
        selected.len() - not_built.len(),
        not_built.len()
    );
    if not_built.is_empty() {
        Ok(())
    } else {
        Err(format!("not built: {}", not_built.join(" ")))
    }
}

/// Case directories in `tests/corpus-src` (those holding a `recipe`), sorted.
fn case_names(src_root: &Path) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for entry in fs::read_dir(src_root).map_err(|e| io_error(src_root, e))? {
        let entry = entry.map_err(|e| io_error(src_root, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(['_', '.']) && entry.path().join("recipe").is_file() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Removes recorded cases whose source directory is gone.
fn remove_stale_cases(out_root: &Path, cases: &[String]) -> Result<(), String> {
    for entry in fs::read_dir(out_root).map_err(|e| io_error(out_root, e))? {
        let entry = entry.map_err(|e| io_error(out_root, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && !name.starts_with(['_', '.']) && !cases.contains(&name) {
            eprintln!("{name}: no source any more, removing tests/corpus/{name}");
            fs::remove_dir_all(entry.path()).map_err(|e| io_error(&entry.path(), e))?;
        }
    }
    Ok(())
}

/// Builds, links and records one case; returns a one-line summary.
fn record_case(
    tools: &Tools,
    src_root: &Path,
    out_root: &Path,
    scratch: &Path,
    name: &str,
) -> Result<String, String> {
    let src = src_root.join(name);
    let recipe_text =
        fs::read_to_string(src.join("recipe")).map_err(|e| io_error(&src.join("recipe"), e))?;
    let recipe = Recipe::parse(&recipe_text)?;

    // Build.
    let build_dir = scratch.join(name);
    let tmp_dir = scratch.join("_tmp").join(name);
    for dir in [&build_dir, &tmp_dir] {
        if dir.exists() {
            fs::remove_dir_all(dir).map_err(|e| io_error(dir, e))?;
        }
        fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    }
    copy_tree(&src, &build_dir)?;
    for command in &recipe.builds {
        let mut shell = if pid_namespace_works() {
            let mut c = tool_command(tools, "unshare");
            c.args(["--pid", "--fork", "sh"]);
            c
        } else {
            tool_command(tools, "sh")
        };
        let output = shell
            .arg("-c")
            .arg(command)
            .current_dir(&build_dir)
            .env("TMPDIR", &tmp_dir)
            .output()
            .map_err(|e| format!("cannot run sh: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "`{command}` failed ({}): {}",
                output.status,
                tail(&output)
            ));
        }
    }

    // Link in a scratch copy laid out like tests/corpus/.
    let link_dir = scratch.join("_link").join(name);
    if link_dir.exists() {
        fs::remove_dir_all(&link_dir).map_err(|e| io_error(&link_dir, e))?;
    }
    fs::create_dir_all(&link_dir).map_err(|e| io_error(&link_dir, e))?;
    for input in &recipe.inputs {
        copy_file(&build_dir.join(input), &link_dir.join(input))?;
    }
    let output_name = recipe.output_name();
    let nvlink = tool_command(tools, &tools.bin().join("nvlink").to_string_lossy())
        .args(&recipe.link)
        .current_dir(&link_dir)
        .env("TMPDIR", &tmp_dir)
        .output()
        .map_err(|e| format!("cannot run nvlink: {e}"))?;
    let status = exit_status(&nvlink.status);

    // Record.
    let case_out = out_root.join(name);
    if case_out.exists() {
        fs::remove_dir_all(&case_out).map_err(|e| io_error(&case_out, e))?;
    }
    fs::create_dir_all(&case_out).map_err(|e| io_error(&case_out, e))?;
    for input in &recipe.inputs {
        copy_file(&link_dir.join(input), &case_out.join(input))?;
    }
    let mut args_text = String::new();
    for arg in &recipe.link {
        args_text.push_str(arg);
        args_text.push('\n');
    }
    write(&case_out.join("args"), args_text.as_bytes())?;
    let mut image = false;
    if let Some(out) = output_name {
        let produced = link_dir.join(out);
        if produced.is_file() && !recipe.inputs.iter().any(|i| i == out) {
            copy_file(&produced, &case_out.join("expected.cubin"))?;
            image = true;
        }
    }
    write(&case_out.join("nvlink.stdout"), &nvlink.stdout)?;
    write(&case_out.join("nvlink.stderr"), &nvlink.stderr)?;
    write(
        &case_out.join("nvlink.status"),
        format!("{status}\n").as_bytes(),
    )?;
    write(&case_out.join("recipe"), recipe_text.as_bytes())?;
    write(
        &case_out.join("target"),
        format!("{}\n", recipe.target).as_bytes(),
    )?;
    Ok(format!(
        "status {status}, {}",
        if image { "image" } else { "no image" }
    ))
}

/// Whether `unshare --pid --fork` works here (it needs root or user namespaces).
///
/// nvcc names its temporary files `tmpxft_<pid>_…` and those names end up inside host objects
/// (the `.file` symbol, and ptxas's argument string in the embedded cubin's `.note.nv.tkinfo`,
/// where fatbin compression spreads the change over many bytes). Each build command therefore
/// runs as process 1 of a fresh PID namespace, so the pids, and the bytes, repeat.
fn pid_namespace_works() -> bool {
    static WORKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WORKS.get_or_init(|| {
        let works = Command::new("unshare")
            .args(["--pid", "--fork", "true"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !works {
            eprintln!(
                "xtask: warning: `unshare --pid --fork` is not available; nvcc host objects \
                 will embed varying process ids and differ from the committed corpus"
            );
        }
        works
    })
}

/// The toolkit as builds see it: through a symlink at a fixed path.
///
/// `-G` and `-lineinfo` objects record the directories of the toolkit headers they include
/// (e.g. `<root>/include` for the atomic functions), so the toolkit must appear at the same
/// path on every machine for the inputs to repeat byte for byte.
struct Tools {
    root: PathBuf,
}

impl Tools {
    /// Points `<scratch>/_cuda` at the real toolkit root and uses that path from then on.
    fn at_fixed_path(real_root: &Path, scratch: &Path) -> Result<Tools, String> {
        let link = scratch.join("_cuda");
        fs::create_dir_all(scratch).map_err(|e| io_error(scratch, e))?;
        if fs::read_link(&link).ok().as_deref() != Some(real_root) {
            if fs::symlink_metadata(&link).is_ok() {
                fs::remove_file(&link).map_err(|e| io_error(&link, e))?;
            }
            std::os::unix::fs::symlink(real_root, &link).map_err(|e| io_error(&link, e))?;
        }
        Ok(Tools { root: link })
    }

    fn bin(&self) -> PathBuf {
        self.root.join("bin")
    }

    fn nvvm_bin(&self) -> PathBuf {
        self.root.join("nvvm").join("bin")
    }

    fn include(&self) -> PathBuf {
        self.root.join("include")
    }

    fn lib(&self) -> PathBuf {
        self.root.join("lib")
    }
}

/// A command with the toolchain on PATH and the recipe environment set.
fn tool_command(tools: &Tools, program: &str) -> Command {
    let mut path = std::env::join_paths([tools.bin(), tools.nvvm_bin()]).unwrap_or_default();
    if let Some(old) = std::env::var_os("PATH") {
        path.push(":");
        path.push(old);
    }
    let mut command = Command::new(program);
    command
        .env("PATH", path)
        .env("CUDA_INCLUDE", tools.include())
        .env("CUDA_LIB", tools.lib())
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .env("SOURCE_DATE_EPOCH", "0");
    command
}

/// Exit status as nvlink's caller sees it (128 + signal when killed).
fn exit_status(status: &std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}

/// The last lines of a failed command's output, for the not-built message.
fn tail(output: &Output) -> String {
    let text = String::from_utf8_lossy(&output.stderr).into_owned()
        + &String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(6)..].join(" | ")
}

/// Counts cases per feature and per target, and the corpus size.
fn stats(src_root: &Path, out_root: &Path) -> Result<(), String> {
    let mut features: BTreeMap<String, usize> = BTreeMap::new();
    let mut targets: BTreeMap<String, usize> = BTreeMap::new();
    let names = case_names(src_root)?;
    for name in &names {
        let path = src_root.join(name).join("recipe");
        let recipe = Recipe::parse(&fs::read_to_string(&path).map_err(|e| io_error(&path, e))?)
            .map_err(|e| format!("{name}: {e}"))?;
        *targets.entry(recipe.target).or_default() += 1;
        for feature in recipe.features {
            *features.entry(feature).or_default() += 1;
        }
    }
    println!("cases: {}", names.len());
    println!("per target:");
    for (target, count) in &targets {
        println!("  {target:<10} {count}");
    }
    println!("per feature:");
    for (feature, count) in &features {
        println!("  {feature:<18} {count}");
    }
    let bytes = tree_size(out_root)?;
    println!(
        "tests/corpus size: {bytes} bytes ({:.1} MiB)",
        bytes as f64 / (1024.0 * 1024.0)
    );
    Ok(())
}

fn tree_size(dir: &Path) -> Result<u64, String> {
    let mut total = 0;
    if !dir.exists() {
        return Ok(0);
    }
    for entry in fs::read_dir(dir).map_err(|e| io_error(dir, e))? {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let meta = entry.metadata().map_err(|e| io_error(&entry.path(), e))?;
        total += if meta.is_dir() {
            tree_size(&entry.path())?
        } else {
            meta.len()
        };
    }
    Ok(total)
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    for entry in fs::read_dir(from).map_err(|e| io_error(from, e))? {
        let entry = entry.map_err(|e| io_error(from, e))?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            fs::create_dir_all(&target).map_err(|e| io_error(&target, e))?;
            copy_tree(&entry.path(), &target)?;
        } else {
            copy_file(&entry.path(), &target)?;
        }
    }
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
    }
    fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("copy {} -> {}: {e}", from.display(), to.display()))
}

fn copy_if_changed(from: &Path, to: &Path) -> Result<(), String> {
    let new = fs::read(from).map_err(|e| io_error(from, e))?;
    if fs::read(to).ok().as_deref() != Some(&new[..]) {
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
        }
        write(to, &new)?;
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    fs::write(path, bytes).map_err(|e| io_error(path, e))
}

fn io_error(path: &Path, e: std::io::Error) -> String {
    format!("{}: {e}", path.display())
}
