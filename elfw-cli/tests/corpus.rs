//! The corpus scoreboard (issue 3, part 4): links every `tests/corpus/<case>/` with elfw in
//! process, offline, compares with nvlink's recorded results and prints a scoreboard. Fails
//! only when a case named in `tests/must-pass.txt` is missing or regresses.
//!
//! Verdicts per case:
//! - nvlink wrote `expected.cubin`: `IDENTICAL`, `EQUAL`, `EQUIVALENT`, `DIFFERENT` (the image
//!   under `elfw_core::cmp`), with `+MSG` appended when exit status, stdout or stderr differ
//!   from nvlink's; `FAILED` when elfw exited non-zero (with another status than nvlink's) or
//!   wrote no image.
//! - nvlink wrote no image: `MATCH` (same exit status, stdout and stderr, and no image from
//!   elfw either) or `MISMATCH`.
//! - `SKIPPED-NO-PTXAS`: the case compiles PTX during the link and ptxas is not installed.
//! - `SKIPPED-NO-NVVM`: the case links LTO-IR (`-nvvmpath ../_toolkit/nvvm`) and the toolkit's
//!   libnvvm is not installed (`cargo xtask toolchain` makes `nvvm/lib64/libnvvm.so`).
//!
//! The same table is written as tab-separated values to `$CARGO_TARGET_TMPDIR/scoreboard.tsv`.

mod common;

use elfw_cli::{run, RunEnv, RunOutcome};
use elfw_core::cmp::{compare, Verdict};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Verdicts that satisfy a must-pass entry.
const PASSING: [&str; 3] = ["IDENTICAL", "EQUAL", "MATCH"];
/// Display order of verdict words.
const ORDER: [&str; 9] = [
    "IDENTICAL",
    "EQUAL",
    "EQUIVALENT",
    "DIFFERENT",
    "FAILED",
    "MATCH",
    "MISMATCH",
    "SKIPPED-NO-PTXAS",
    "SKIPPED-NO-NVVM",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// One recorded nvlink run.
#[derive(Clone, Debug, Default)]
struct Case {
    name: String,
    dir: PathBuf,
    target: String,
    args: Vec<String>,
    status: i32,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    expected: Option<Vec<u8>>,
    needs_ptxas: bool,
    needs_nvvm: bool,
}

/// One scoreboard line.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    case: String,
    target: String,
    verdict: String,
    /// Image verdict word, or `-` when nvlink wrote no image.
    image: String,
    /// `same` or `differ` (exit status, stdout, stderr).
    messages: String,
    /// The first difference, or why it failed; empty when all is well.
    detail: String,
}

fn read_text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

fn load_case(dir: &Path) -> Result<Case, String> {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let status_text = read_text(&dir.join("nvlink.status"));
    let status = status_text
        .trim()
        .parse()
        .map_err(|_| format!("{name}: nvlink.status {status_text:?}"))?;
    let args: Vec<String> = read_text(&dir.join("args"))
        .lines()
        .map(str::to_string)
        .collect();
    let recipe = read_text(&dir.join("recipe"));
    let features: Vec<&str> = recipe
        .lines()
        .filter_map(|l| l.trim().strip_prefix("feature "))
        .flat_map(str::split_whitespace)
        .collect();
    let needs_nvvm = args.iter().any(|a| a.contains("nvvmpath"));
    let needs_ptxas = needs_nvvm
        || args
            .iter()
            .any(|a| a.to_ascii_lowercase().ends_with(".ptx"))
        || features
            .iter()
            .any(|f| matches!(*f, "ptx_jit" | "ptx_input"));
    Ok(Case {
        target: read_text(&dir.join("target")).trim().to_string(),
        args,
        status,
        stdout: std::fs::read(dir.join("nvlink.stdout")).unwrap_or_default(),
        stderr: std::fs::read(dir.join("nvlink.stderr")).unwrap_or_default(),
        expected: std::fs::read(dir.join("expected.cubin")).ok(),
        needs_ptxas,
        needs_nvvm,
        dir: dir.to_path_buf(),
        name,
    })
}

/// Every case directory of `corpus` (names starting with `_` are shared data), sorted.
fn load_corpus(corpus: &Path) -> Vec<Result<Case, String>> {
    let mut dirs: Vec<PathBuf> = match std::fs::read_dir(corpus) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect(),
        Err(_) => Vec::new(),
    };
    dirs.retain(|p| !p.file_name().unwrap().to_string_lossy().starts_with('_'));
    dirs.sort();
    dirs.iter().map(|d| load_case(d)).collect()
}

/// The output file named on the command line (`-o F`, `-o=F`, `--output-file F`, `-oF`).
fn output_name(args: &[String]) -> Option<String> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-o" || a == "--output-file" || a == "-output-file" {
            return it.next().cloned();
        }
        for prefix in ["--output-file=", "-output-file=", "-o="] {
            if let Some(v) = a.strip_prefix(prefix) {
                return Some(v.to_string());
            }
        }
    }
    None
}

/// Whether elfw will find ptxas: it looks at `$ELFW_PTXAS`, beside its own executable (the
/// test binary here) and on `PATH`.
fn ptxas_available() -> bool {
    std::env::var_os("ELFW_PTXAS").is_some_and(|p| Path::new(&p).is_file())
        || std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("ptxas").is_file()))
}

/// The toolchain's ptxas, if `cargo xtask toolchain` installed it, for the hint on skipped cases.
fn toolchain_ptxas() -> Option<PathBuf> {
    Some(common::toolchain_bin().join("ptxas")).filter(|p| p.is_file())
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        if e.file_type()?.is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()))?;
        } else {
            std::fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}

fn first_line(b: &[u8]) -> String {
    String::from_utf8_lossy(b)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

/// `text` with the time of each `ptxas info    : Compile time = ...` line (ptxas's `-v2`
/// report, which `nvlink -v2` prints) left out: it differs from run to run.
fn without_compile_times(text: &[u8]) -> Vec<u8> {
    const LINE: &[u8] = b"ptxas info    : Compile time = ";
    let mut out = Vec::with_capacity(text.len());
    for line in text.split_inclusive(|&b| b == b'\n') {
        if line.starts_with(LINE) {
            out.extend_from_slice(LINE);
            out.push(b'\n');
        } else {
            out.extend_from_slice(line);
        }
    }
    out
}

/// The first difference between nvlink's and elfw's exit status, stdout and stderr (ptxas's
/// compile times aside).
fn message_difference(case: &Case, out: &RunOutcome) -> Option<String> {
    if case.status != out.status {
        return Some(format!(
            "exit status: nvlink {}, elfw {} (elfw stderr: {:?})",
            case.status,
            out.status,
            first_line(&out.stderr)
        ));
    }
    for (stream, e, a) in [
        ("stderr", &case.stderr, &out.stderr),
        ("stdout", &case.stdout, &out.stdout),
    ] {
        if e == a || without_compile_times(e) == without_compile_times(a) {
            continue;
        }
        let (e, a) = (String::from_utf8_lossy(e), String::from_utf8_lossy(a));
        let (el, al): (Vec<&str>, Vec<&str>) = (e.split('\n').collect(), a.split('\n').collect());
        let k = el
            .iter()
            .zip(&al)
            .position(|(x, y)| x != y)
            .unwrap_or(el.len().min(al.len()));
        let line = |v: &[&str]| {
            v.get(k)
                .map(|s| format!("{s:?}"))
                .unwrap_or_else(|| "end of output".into())
        };
        return Some(format!(
            "{stream} line {}: nvlink {}, elfw {}",
            k + 1,
            line(&el),
            line(&al)
        ));
    }
    None
}

/// Classifies one run: `produced` is the file elfw wrote at the `-o` path, if any.
fn classify(case: &Case, out: &RunOutcome, produced: Option<&[u8]>) -> Row {
    let msg = message_difference(case, out);
    let messages = if msg.is_some() { "differ" } else { "same" }.to_string();
    let row = |verdict: String, image: &str, detail: String| Row {
        case: case.name.clone(),
        target: case.target.clone(),
        verdict,
        image: image.to_string(),
        messages: messages.clone(),
        detail,
    };
    let Some(expected) = &case.expected else {
        return match (msg, produced) {
            (None, None) => row("MATCH".into(), "-", String::new()),
            (Some(m), _) => row("MISMATCH".into(), "-", m),
            (None, Some(_)) => row(
                "MISMATCH".into(),
                "-",
                "elfw wrote an image; nvlink wrote none".into(),
            ),
        };
    };
    // (nvlink may write its image and then fail: a whole-program LTO without libcudadevrt;
    // failing the same way is then no failure.)
    if out.status != 0 && out.status != case.status {
        let first = first_line(&out.stderr);
        let detail = if first.is_empty() {
            format!("exit status {} without a message", out.status)
        } else {
            first
        };
        return row("FAILED".into(), "-", detail);
    }
    let Some(actual) = produced else {
        return row(
            "FAILED".into(),
            "-",
            "exit status 0 but no output image".into(),
        );
    };
    let c = compare(expected, actual);
    let (image, mut detail) = match c.verdict {
        Verdict::Malformed(_) => (
            "DIFFERENT",
            format!("malformed image: {}", c.differences[0].actual),
        ),
        v if v.at_least(Verdict::Equal) => (v.word(), String::new()),
        v => (
            v.word(),
            c.differences
                .first()
                .map(|d| d.to_string())
                .unwrap_or_default(),
        ),
    };
    let verdict = match &msg {
        None => image.to_string(),
        Some(m) => {
            if !detail.is_empty() {
                detail.push_str("; ");
            }
            detail.push_str(m);
            format!("{image}+MSG")
        }
    };
    row(verdict, image, detail)
}

fn run_case(case: &Case, work: &Path, have_ptxas: bool) -> Row {
    if case.needs_nvvm && !work.join("_toolkit/nvvm/lib64/libnvvm.so").is_file() {
        return Row {
            case: case.name.clone(),
            target: case.target.clone(),
            verdict: "SKIPPED-NO-NVVM".into(),
            image: "-".into(),
            messages: "-".into(),
            detail: "links LTO-IR; no libnvvm at ../_toolkit/nvvm/lib64/libnvvm.so".into(),
        };
    }
    if case.needs_ptxas && !have_ptxas {
        let detail = "compiles PTX during the link; elfw finds no ptxas".to_string();
        let (case, target) = (case.name.clone(), case.target.clone());
        return Row {
            case,
            target,
            verdict: "SKIPPED-NO-PTXAS".into(),
            image: "-".into(),
            messages: "-".into(),
            detail,
        };
    }
    let cwd = work.join(&case.name);
    let _ = std::fs::remove_dir_all(&cwd);
    if let Err(e) = copy_dir(&case.dir, &cwd) {
        panic!("copying {} to {}: {e}", case.dir.display(), cwd.display());
    }
    // The recorded files are not inputs; elfw must not see them.
    for f in [
        "expected.cubin",
        "nvlink.stdout",
        "nvlink.stderr",
        "nvlink.status",
    ] {
        let _ = std::fs::remove_file(cwd.join(f));
    }
    let env = RunEnv {
        cwd: cwd.clone(),
        program_name: "nvlink".into(),
    };
    let out = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&case.args, &env)))
    {
        Ok(out) => out,
        Err(p) => {
            let why = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            let stderr = format!("elfw panicked: {}\n", why.unwrap_or_default()).into_bytes();
            RunOutcome {
                status: 101,
                stdout: Vec::new(),
                stderr,
            }
        }
    };
    let produced = output_name(&case.args).and_then(|o| std::fs::read(cwd.join(o)).ok());
    classify(case, &out, produced.as_deref())
}

/// Runs every case on a few threads; rows come back in case order.
fn run_all(cases: &[Case], work: &Path) -> Vec<Row> {
    let have_ptxas = ptxas_available();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8);
    let mut rows: Vec<Option<Row>> = vec![None; cases.len()];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(i) else { break };
                        mine.push((i, run_case(case, work, have_ptxas)));
                    }
                    mine
                })
            })
            .collect();
        for h in handles {
            for (i, r) in h.join().expect("scoreboard worker") {
                rows[i] = Some(r);
            }
        }
    });
    rows.into_iter()
        .map(|r| r.expect("every case ran"))
        .collect()
}

/// Names listed in a must-pass file (`#` comments, blank lines ignored).
fn must_pass_names(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The must-pass violations: missing cases and regressions. Skipped cases are not violations.
fn must_pass_failures(names: &[String], rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    for n in names {
        match rows.iter().find(|r| &r.case == n) {
            None => out.push(format!(
                "{n}: listed in tests/must-pass.txt but there is no such corpus case"
            )),
            Some(r)
                if PASSING.contains(&r.verdict.as_str()) || r.verdict.starts_with("SKIPPED-") => {}
            Some(r) => out.push(format!(
                "{n}: {} (must be EQUAL or better): {}",
                r.verdict, r.detail
            )),
        }
    }
    out
}

fn verdict_rank(v: &str) -> usize {
    ORDER.iter().position(|o| *o == v).unwrap_or_else(|| {
        // `EQUAL+MSG` and the like sort after their image verdict's block.
        ORDER.len()
            + ORDER
                .iter()
                .position(|o| v.starts_with(o))
                .unwrap_or(ORDER.len())
    })
}

fn render(rows: &[Row], must: &[String], failures: &[String], tsv: &Path) -> String {
    let mut s = String::new();
    let mut by_verdict: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    let mut by_target: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    for r in rows {
        *by_verdict
            .entry((verdict_rank(&r.verdict), &r.verdict))
            .or_default() += 1;
        *by_target
            .entry(&r.target)
            .or_default()
            .entry(&r.verdict)
            .or_default() += 1;
    }
    s.push_str(&format!(
        "\n===== elfw corpus scoreboard: {} cases =====\n",
        rows.len()
    ));
    for ((_, v), n) in &by_verdict {
        s.push_str(&format!("  {v:<20} {n:>4}\n"));
    }
    let columns: Vec<&str> = by_verdict.keys().map(|(_, v)| *v).collect();
    s.push_str("\nper target:\n  target    cases");
    for c in &columns {
        s.push_str(&format!(" {c:>w$}", w = c.len().max(4)));
    }
    s.push('\n');
    for (t, m) in &by_target {
        let total: usize = m.values().sum();
        s.push_str(&format!(
            "  {:<9} {total:>5}",
            if t.is_empty() { "?" } else { t }
        ));
        for c in &columns {
            s.push_str(&format!(
                " {:>w$}",
                m.get(c).copied().unwrap_or(0),
                w = c.len().max(4)
            ));
        }
        s.push('\n');
    }
    let failing: Vec<&Row> = rows
        .iter()
        .filter(|r| !PASSING.contains(&r.verdict.as_str()))
        .collect();
    if !failing.is_empty() {
        s.push_str(&format!(
            "\nnot passing ({}), first difference:\n",
            failing.len()
        ));
        for r in failing {
            s.push_str(&format!(
                "  {:<44} {:<18} {}\n",
                r.case, r.verdict, r.detail
            ));
        }
    }
    s.push_str(&format!(
        "\nmust-pass: {} listed, {} violated\n",
        must.len(),
        failures.len()
    ));
    for f in failures {
        s.push_str(&format!("  REGRESSION {f}\n"));
    }
    if rows.iter().any(|r| r.verdict == "SKIPPED-NO-PTXAS") {
        let hint = match toolchain_ptxas() {
            Some(p) => format!("set ELFW_PTXAS={} to run them", p.display()),
            None => {
                "run `cargo xtask toolchain` and set ELFW_PTXAS to its bin/ptxas to run them".into()
            }
        };
        s.push_str(&format!(
            "PTX cases skipped: elfw finds no ptxas ($ELFW_PTXAS, PATH); {hint}\n"
        ));
    }
    s.push_str(&format!("machine-readable: {}\n", tsv.display()));
    s
}

fn tsv(rows: &[Row], must: &[String]) -> String {
    let clean = |t: &str| t.replace(['\t', '\n', '\r'], " ");
    let mut s = String::from("case\ttarget\tverdict\timage\tmessages\tmust_pass\tdetail\n");
    for r in rows {
        let listed = if must.contains(&r.case) { "yes" } else { "no" };
        s.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{listed}\t{}\n",
            r.case,
            r.target,
            r.verdict,
            r.image,
            r.messages,
            clean(&r.detail)
        ));
    }
    s
}

#[test]
fn corpus_scoreboard() {
    let corpus = repo().join("tests/corpus");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let work = tmp.join("corpus-run");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // Link lines name `../_toolkit/lib` (and `../_toolkit/nvvm` for LTO); give the copies
    // the same neighbour: the corpus's `lib`, and the toolchain's `nvvm` when it has libnvvm.
    let toolkit = corpus.join("_toolkit");
    let shared = work.join("_toolkit");
    std::fs::create_dir_all(&shared).unwrap();
    if std::os::unix::fs::symlink(toolkit.join("lib"), shared.join("lib")).is_err() {
        copy_dir(&toolkit.join("lib"), &shared.join("lib")).unwrap();
    }
    if let Some(nvvm) = common::toolchain_nvvm() {
        let _ = std::os::unix::fs::symlink(nvvm, shared.join("nvvm"));
    }
    let mut cases = Vec::new();
    let mut broken = Vec::new();
    for c in load_corpus(&corpus) {
        match c {
            Ok(c) => cases.push(c),
            Err(e) => broken.push(e),
        }
    }
    let rows = run_all(&cases, &work);
    let must = must_pass_names(&read_text(&repo().join("tests/must-pass.txt")));
    let mut failures = must_pass_failures(&must, &rows);
    failures.extend(
        broken
            .iter()
            .map(|b| format!("unreadable corpus case: {b}")),
    );
    let tsv_path = tmp.join("scoreboard.tsv");
    std::fs::write(&tsv_path, tsv(&rows, &must)).unwrap();
    let text = render(&rows, &must, &failures, &tsv_path);
    // Straight to the process's stdout: libtest captures print!, and the scoreboard is
    // meant to be seen on every `cargo test`.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    assert!(
        failures.is_empty(),
        "must-pass cases regressed or are missing:\n{}",
        failures.join("\n")
    );
}

// ---- the harness's own checks --------------------------------------------------------------

fn fake_case(expected: Option<Vec<u8>>, status: i32, stderr: &str) -> Case {
    Case {
        name: "fake".into(),
        target: "sm_90".into(),
        status,
        stderr: stderr.as_bytes().to_vec(),
        expected,
        ..Case::default()
    }
}

fn outcome(status: i32, stderr: &str) -> RunOutcome {
    RunOutcome {
        status,
        stdout: Vec::new(),
        stderr: stderr.as_bytes().to_vec(),
    }
}

fn some_golden() -> Vec<u8> {
    let rows = load_corpus(&repo().join("tests/corpus"));
    rows.into_iter()
        .flatten()
        .find_map(|c| c.expected)
        .expect("a corpus case with expected.cubin")
}

#[test]
fn classify_images_and_messages() {
    let golden = some_golden();
    let case = fake_case(Some(golden.clone()), 0, "");
    let r = classify(&case, &outcome(0, ""), Some(&golden));
    assert_eq!((r.verdict.as_str(), r.detail.as_str()), ("IDENTICAL", ""));
    let r = classify(
        &case,
        &outcome(0, "nvlink warning : extra\n"),
        Some(&golden),
    );
    assert_eq!(r.verdict, "IDENTICAL+MSG");
    assert!(r.detail.contains("stderr line 1"), "{}", r.detail);
    let mut changed = golden.clone();
    let n = changed.len();
    changed[n / 2] ^= 0xff;
    let r = classify(&case, &outcome(0, ""), Some(&changed));
    assert!(r.verdict == "DIFFERENT" || r.verdict == "EQUAL", "{r:?}");
    let r = classify(&case, &outcome(1, "nvlink fatal   : boom\nmore\n"), None);
    assert_eq!(
        (r.verdict.as_str(), r.detail.as_str()),
        ("FAILED", "nvlink fatal   : boom")
    );
    let r = classify(&case, &outcome(0, ""), None);
    assert_eq!(r.verdict, "FAILED");
    let r = classify(&case, &outcome(0, ""), Some(b"not elf"));
    assert_eq!(r.verdict, "DIFFERENT");
}

#[test]
fn classify_failed_links() {
    let case = fake_case(
        None,
        1,
        "nvlink fatal   : Could not open input file 'x.o'\n",
    );
    let same = outcome(1, "nvlink fatal   : Could not open input file 'x.o'\n");
    assert_eq!(classify(&case, &same, None).verdict, "MATCH");
    assert_eq!(
        classify(&case, &same, Some(b"img")).verdict,
        "MISMATCH",
        "elfw wrote an image, nvlink did not"
    );
    let r = classify(
        &case,
        &outcome(255, "nvlink fatal   : Could not open input file 'x.o'\n"),
        None,
    );
    assert_eq!(r.verdict, "MISMATCH");
    assert!(
        r.detail.contains("exit status: nvlink 1, elfw 255"),
        "{}",
        r.detail
    );
    let r = classify(
        &case,
        &outcome(1, "nvlink fatal   : Could not open input file 'y.o'\n"),
        None,
    );
    assert!(r.detail.starts_with("stderr line 1"), "{}", r.detail);
}

#[test]
fn must_pass_rules() {
    let row = |case: &str, verdict: &str| Row {
        case: case.into(),
        target: "sm_90".into(),
        verdict: verdict.into(),
        image: "-".into(),
        messages: "same".into(),
        detail: "why".into(),
    };
    let rows = vec![
        row("a", "EQUAL"),
        row("b", "EQUIVALENT"),
        row("c", "MATCH"),
        row("d", "EQUAL+MSG"),
    ];
    let names = must_pass_names("# header\n\na\nc  # fails exactly as nvlink\n");
    assert_eq!(names, ["a", "c"]);
    assert!(must_pass_failures(&names, &rows).is_empty());
    let bad = must_pass_failures(&["b".into(), "d".into(), "zz".into()], &rows);
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(bad[2].contains("no such corpus case"));
}

#[test]
fn harness_runs_a_case_in_process() {
    // A self-made case whose "nvlink" run is `elfw cmp`: exercises copying, cwd and
    // MATCH/MISMATCH without the linker.
    let golden = some_golden();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("corpus-harness");
    let _ = std::fs::remove_dir_all(&dir);
    let src = dir.join("src/case_cmp");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("x.cubin"), &golden).unwrap();
    std::fs::write(src.join("args"), "cmp\nx.cubin\nx.cubin\n").unwrap();
    std::fs::write(src.join("nvlink.status"), "0\n").unwrap();
    std::fs::write(src.join("nvlink.stdout"), "IDENTICAL\n").unwrap();
    std::fs::write(src.join("nvlink.stderr"), "").unwrap();
    std::fs::write(src.join("target"), "sm_90\n").unwrap();
    let cases: Vec<Case> = load_corpus(&dir.join("src"))
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let rows = run_all(&cases, &dir.join("work"));
    assert_eq!(rows[0].verdict, "MATCH", "{:?}", rows[0]);
    std::fs::write(src.join("nvlink.stdout"), "EQUAL\n").unwrap();
    let cases: Vec<Case> = load_corpus(&dir.join("src"))
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let rows = run_all(&cases, &dir.join("work"));
    assert_eq!(rows[0].verdict, "MISMATCH", "{:?}", rows[0]);
    assert_eq!(
        output_name(&["-arch=sm_90".into(), "-o".into(), "o.cubin".into()]).as_deref(),
        Some("o.cubin")
    );
}

#[test]
fn compile_times_do_not_count() {
    let a = b"ptxas info    : Used 8 registers\nptxas info    : Compile time = 1.229 ms\n";
    let b = b"ptxas info    : Used 8 registers\nptxas info    : Compile time = 7.5 ms\n";
    let c = b"ptxas info    : Used 9 registers\nptxas info    : Compile time = 7.5 ms\n";
    assert_eq!(without_compile_times(a), without_compile_times(b));
    assert_ne!(without_compile_times(a), without_compile_times(c));
}
