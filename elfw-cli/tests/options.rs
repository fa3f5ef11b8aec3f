//! One test per nvlink option (and per parsing rule): the expected messages and exit
//! statuses are nvlink 13.5.37's, recorded by running it on the same command lines with the
//! cubin of `tests/corpus/sm90_single_kernel` (see the comments for the nvlink command).

mod common;

use elfw_cli::{run, RunEnv, RunOutcome};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A fresh folder holding `k.cubin` (a one-kernel sm_90 cubin).
fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("options-{}", N.fetch_add(1, Ordering::Relaxed)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        repo().join("tests/corpus/sm90_single_kernel/k.cubin"),
        dir.join("k.cubin"),
    )
    .unwrap();
    dir
}

fn nv(dir: &Path, args: &str) -> RunOutcome {
    let argv: Vec<String> = args.split_whitespace().map(str::to_string).collect();
    run(
        &argv,
        &RunEnv {
            cwd: dir.to_path_buf(),
            program_name: "nvlink".into(),
        },
    )
}

fn err(o: &RunOutcome) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `args` in a scratch folder and checks status and the whole of stderr.
fn check(args: &str, status: i32, stderr: &str) -> PathBuf {
    let dir = scratch();
    let o = nv(&dir, args);
    assert_eq!(
        (o.status, err(&o).as_str()),
        (status, stderr),
        "nvlink {args}"
    );
    dir
}

fn fatal(args: &str, msg: &str) {
    check(args, 1, &format!("nvlink fatal   : {msg}\n"));
}

const OK: &str = "-arch=sm_90 k.cubin -o out.cubin";

#[test]
fn value_spellings() {
    for args in [
        "-arch=sm_90 k.cubin -o out.cubin",
        "-arch sm_90 k.cubin -o out.cubin",
        "--arch=sm_90 k.cubin --output-file=out.cubin",
        "--arch sm_90 k.cubin --output-file out.cubin",
        "-arch=sm_90 k.cubin -o=out.cubin",
    ] {
        let dir = check(args, 0, "");
        assert!(dir.join("out.cubin").is_file(), "{args}");
    }
}

#[test]
fn single_dash_takes_only_short_names() {
    // nvlink -arch=sm_90 k.cubin -o out.cubin -debug / --g / --o x
    fatal(&format!("{OK} -debug"), "Unknown option 'debug'");
    fatal(&format!("{OK} -verbose"), "Unknown option 'verbose'");
    fatal(&format!("{OK} --g"), "Unknown option '-g'");
    fatal(&format!("{OK} --Werror"), "Unknown option '-Werror'");
    fatal(
        &format!("{OK} -register-link-binaries=x"),
        "Unknown option 'register-link-binaries'",
    );
    check(&format!("{OK} --debug"), 0, "");
}

#[test]
fn unknown_options() {
    fatal("-arch=sm_90 -bogus k.cubin", "Unknown option 'bogus'");
    fatal("-arch=sm_90 --bogus k.cubin", "Unknown option '-bogus'");
    fatal("-arch=sm_90 --bogus=3 k.cubin", "Unknown option '-bogus'");
    fatal(
        "-arch=sm_90 k.cubin -oout.cubin",
        "Unknown option 'oout.cubin'",
    );
    fatal("-archsm_90 k.cubin", "Unknown option 'archsm_90'");
    fatal(&format!("{OK} -vv"), "Unknown option 'vv'");
    fatal(&format!("{OK} -Werrorx"), "Unknown option 'Werrorx'");
    fatal(&format!("{OK} -Xptxas-v"), "Unknown option 'Xptxas-v'");
    fatal(&format!("{OK} --"), "Unknown option '-'");
    fatal(&format!("{OK} -=x"), "Unknown option ''");
}

#[test]
fn missing_and_unexpected_values() {
    fatal("-arch=sm_90 k.cubin -o", "argument expected after '-o'");
    fatal("-arch", "argument expected after '-arch'");
    fatal(&format!("{OK} -m"), "argument expected after '-m'");
    fatal(
        &format!("{OK} --cpu-arch"),
        "argument expected after '--cpu-arch'",
    );
    fatal(&format!("{OK} -w=1"), "no argument expected after '-w'");
    fatal(
        &format!("{OK} --shared=1"),
        "no argument expected after '--shared'",
    );
    fatal(
        &format!("{OK} --debug=true"),
        "no argument expected after '--debug'",
    );
    fatal(
        &format!("{OK} -Werror=true"),
        "no argument expected after '-Werror'",
    );
    fatal(
        &format!("{OK} -astoolspatch=1"),
        "no argument expected after '-astoolspatch'",
    );
}

#[test]
fn bad_values() {
    fatal(
        "-arch=sm_101 k.cubin -o out.cubin",
        "Value 'sm_101' is not defined for option 'arch'",
    );
    fatal(
        "-arch= k.cubin -o out.cubin",
        "Value '' is not defined for option 'arch'",
    );
    fatal(
        &format!("{OK} -m32"),
        "Value '32' is not defined for option 'machine'",
    );
    fatal(
        &format!("{OK} -m=6"),
        "Value '6' is not defined for option 'machine'",
    );
    fatal(&format!("{OK} -mfoo"), "'foo': expected a number");
    fatal(
        &format!("{OK} -maxrregcount=abc"),
        "'abc': expected a number",
    );
    fatal(
        &format!("{OK} -split-compile=abc"),
        "'abc': expected a number",
    );
    // nvlink reads numbers as C's strtol with base 0 does and wants them in 32 bits.
    fatal(
        &format!("{OK} -maxrregcount=4294967297"),
        "32-bit integer value (4294967297) out of range",
    );
    fatal(
        &format!("{OK} -split-compile -2147483649"),
        "32-bit integer value (-2147483649) out of range",
    );
    fatal(
        &format!("{OK} -split-compile=0x"),
        "'0x': expected a number",
    );
    fatal(
        &format!("{OK} -split-compile=09"),
        "'09': expected a number",
    );
    fatal(
        &format!("{OK} -cpu-arch=x86_64"),
        "Value 'x86_64' is not defined for option 'cpu-arch'",
    );
    fatal(
        &format!("{OK} -device-stack-protector=maybe"),
        "'maybe': expected true or false",
    );
    fatal(
        "-ghls=lcs-bad",
        "Value 'lcs-bad' is not defined for option 'gen-host-linker-script'",
    );
}

#[test]
fn glued_short_values() {
    for args in [
        "-m64",
        "-m 64",
        "--machine=64",
        "-m=64",
        "-lfoo",
        "-l foo",
        "-Lnodir -lfoo",
        "-l=",
        "-L=.",
    ] {
        check(&format!("{OK} {args}"), 0, "");
    }
}

#[test]
fn redefinitions_warn_when_the_value_changes() {
    let w = "nvlink warning : incompatible redefinition for option 'output-file', the last value of this option was used\n";
    let dir = check("-arch=sm_90 -o x.cubin -o out.cubin k.cubin", 0, w);
    assert!(dir.join("out.cubin").is_file() && !dir.join("x.cubin").exists());
    check("-arch=sm_90 -arch=sm_90 k.cubin -o out.cubin", 0, "");
    check(
        &format!("{OK} -maxrregcount 32 -maxrregcount 40"),
        0,
        "nvlink warning : incompatible redefinition for option 'maxrregcount', the last value of this option was used\n",
    );
    check(
        &format!("{OK} -device-stack-protector=true -device-stack-protector=false"),
        0,
        "nvlink warning : incompatible redefinition for option 'device-stack-protector', the last value of this option was used\n",
    );
    check(
        "-arch=sm_90 -arch=sm_80 k.cubin -o out.cubin",
        1,
        "nvlink warning : incompatible redefinition for option 'arch', the last value of this option was used\nnvlink fatal   : Input file 'k.cubin' arch does not match target 'sm_80'\n",
    );
    check(&format!("{OK} -kernels-used=a -kernels-used=a"), 0, "");
}

#[test]
fn options_files() {
    let dir = scratch();
    std::fs::write(dir.join("o1"), "-arch=sm_90\n-o out.cubin\n").unwrap();
    std::fs::write(dir.join("o2"), "-arch sm_90 \"k.cubin\"  -o out.cubin").unwrap();
    std::fs::write(dir.join("o3"), "-optf o1").unwrap();
    std::fs::write(
        dir.join("o4"),
        "-arch=sm_90 # comment\n k.cubin -o out.cubin",
    )
    .unwrap();
    std::fs::write(dir.join("o5"), "-arch='sm_90' k.cubin -o out.cubin").unwrap();
    std::fs::write(dir.join("self"), "-optf self").unwrap();
    std::fs::write(dir.join("empty"), "").unwrap();
    for args in [
        "-optf o1 k.cubin",
        "--options-file o2",
        "-optf=o3 k.cubin",
        "-optf o1,o1 k.cubin",
        "-optf empty -arch=sm_90 k.cubin -o out.cubin",
    ] {
        let o = nv(&dir, args);
        assert_eq!((o.status, err(&o)), (0, String::new()), "{args}");
    }
    let o = nv(&dir, "-optf o4");
    assert_eq!(err(&o), "nvlink fatal   : Could not open input file '#'\n");
    let o = nv(&dir, "-optf o5");
    assert_eq!(
        err(&o),
        "nvlink fatal   : Value ''sm_90'' is not defined for option 'arch'\n"
    );
    let o = nv(&dir, "-optf nothere k.cubin");
    assert_eq!(
        err(&o),
        "nvlink fatal   : Could not open options file 'nothere'\n"
    );
    let o = nv(&dir, "-optf");
    assert_eq!(
        err(&o),
        "nvlink fatal   : argument expected after '-optf'\n"
    );
    let o = nv(&dir, "-optf self");
    assert_eq!(
        (o.status, err(&o)),
        (
            1,
            "nvlink fatal   : Too many options file opened 'self'\n".into()
        )
    );
    // 15 nested files are fine, the 16th is refused.
    for n in [14, 15] {
        let d = dir.join(format!("chain{n}"));
        std::fs::create_dir_all(&d).unwrap();
        for i in 1..=n {
            std::fs::write(d.join(format!("c{i}")), format!("-optf c{}", i + 1)).unwrap();
        }
        std::fs::write(d.join(format!("c{}", n + 1)), "-arch=sm_90").unwrap();
        let o = nv(&d, "-optf c1 ../k.cubin -o out.cubin");
        let want = if n == 14 {
            String::new()
        } else {
            "nvlink fatal   : Too many options file opened 'c16'\n".into()
        };
        assert_eq!(err(&o), want, "chain of {n}");
    }
}

#[test]
fn help_and_version() {
    let dir = scratch();
    let o = nv(&dir, "-h");
    assert_eq!(o.status, 0);
    let help = String::from_utf8(o.stdout).unwrap();
    assert!(help.starts_with("\nUsage  : nvlink [options] <objects>\n"));
    assert!(help.contains("--warning-as-error                                  (-Werror)"));
    // -h wins over -V and over a missing arch; a bad option still wins over -h.
    assert_eq!(
        nv(&dir, "-arch=sm_90 -V -h").stdout,
        nv(&dir, "--help").stdout
    );
    assert_eq!(nv(&dir, "-bogus -h").status, 1);
    let o = run(
        &["-V".to_string()],
        &RunEnv {
            cwd: dir.clone(),
            program_name: "mylink".into(),
        },
    );
    let v = String::from_utf8(o.stdout).unwrap();
    assert!(v.starts_with("mylink: elfw"), "{v}");
    assert!(!v.ends_with('\n'), "nvlink -V ends without a newline");
    let o = run(
        &["-bogus".to_string()],
        &RunEnv {
            cwd: dir,
            program_name: "linky".into(),
        },
    );
    assert_eq!(err(&o), "linky fatal   : Unknown option 'bogus'\n");
}

#[test]
fn required_options_in_nvlink_order() {
    fatal("", "Unknown arch name '(null)'");
    fatal("-o out.cubin k.cubin", "Unknown arch name '(null)'");
    fatal("-emit-ptx", "Unknown arch name '(null)'");
    fatal("-arch=sm_90", "Must specify output file with -o option");
    fatal(
        "-arch=sm_90 k.cubin",
        "Must specify output file with -o option",
    );
    fatal(
        "-arch=sm_90 -lto",
        "Must specify output file with -o option",
    );
    fatal(
        "-arch=sm_90 -o out.cubin",
        "No input files specified; use option --help for more information",
    );
    fatal(
        "-arch=sm_90 -lfoo -o x.cubin",
        "No input files specified; use option --help for more information",
    );
    fatal(
        "-arch=compute_90 -o x",
        "No input files specified; use option --help for more information",
    );
    fatal(
        "-arch=lto_90",
        "No input files specified; use option --help for more information",
    );
    fatal(
        "-arch=lto_90 k.cubin",
        "Link target of 'lto_90' is virtual target that is not JIT-able; use 'sm_' target instead",
    );
}

#[test]
fn lto_options() {
    fatal(
        &format!("{OK} -lto"),
        "-nvvmpath should be specified with -lto",
    );
    fatal(
        &format!("{OK} -dlto"),
        "-nvvmpath should be specified with -lto",
    );
    fatal(
        &format!("{OK} --link-time-opt"),
        "-nvvmpath should be specified with -lto",
    );
    fatal(
        &format!("{OK} -lto -emit-ptx"),
        "-nvvmpath should be specified with -lto",
    );
    // No `<nvvmpath>/lib64/libnvvm.so`: nvlink's message (observed), before any input is read.
    let dir = check(
        &format!("{OK} -dlto -nvvmpath=/x"),
        1,
        "nvlink fatal   : elfLink linker library load error\n",
    );
    assert!(!dir.join("out.cubin").exists());
    // -Xnvvm, -Xptxas and the split-compile options go to libnvvm and ptxas: the missing
    // library is what stops this link (nvlink 13.5.37 prints the same).
    check(
        &format!("{OK} -dlto -nvvmpath=/x -Xnvvm -O3 -Xptxas -v -split-compile 2"),
        1,
        "nvlink fatal   : elfLink linker library load error\n",
    );
    // -emit-ptx with -split-compile-extended: nvlink says so with its options, before it
    // loads libnvvm.
    check(
        &format!("{OK} -dlto -nvvmpath=/x -emit-ptx -split-compile-extended 2"),
        1,
        "nvlink info    : Incompatible options '-emit-ptx' and '-split-compile-extended', using '-split-compile'\nnvlink fatal   : elfLink linker library load error\n",
    );
    check(
        &format!("{OK} -dlto -nvvmpath=/x -Ofc=max -nvvm-latest"),
        1,
        "nvlink fatal   : elfLink linker library load error\n",
    );
    // LTO-only options are accepted and ignored without LTO.
    check(&format!("{OK} -nvvmpath=/x -Xptxas -v -Xptxas=-v,-O3 -Xnvvm -O3 -maxrregcount=-3 -split-compile=2 -split-compile-extended 3"), 0, "");
    // `-link-time-opt` is `-l ink-time-opt`: a library that is not found.
    check(&format!("{OK} -link-time-opt"), 0, "");
}

#[test]
fn conflicting_options_in_nvlink_order() {
    fatal(
        &format!("{OK} -emit-ptx -suppress-debug-info -nvvm-latest -Ofc=0"),
        "Conflicting options '-suppress-debug-info' and 'no -g'",
    );
    // Before the `lto_` target refusal and the `-lto` checks (observed).
    fatal(
        &format!("{OK} -dlto -suppress-debug-info"),
        "Conflicting options '-suppress-debug-info' and 'no -g'",
    );
    fatal(
        "-arch=lto_90 k.cubin -o out.cubin -suppress-debug-info",
        "Conflicting options '-suppress-debug-info' and 'no -g'",
    );
    fatal(
        &format!("{OK} -emit-ptx -nvvm-latest -Ofc=0"),
        "Conflicting options '-nvvm-latest' and 'no -dlto'",
    );
    fatal(
        &format!("{OK} -Ofc=0 -emit-ptx"),
        "Conflicting options '-emit-ptx' and 'no -dlto'",
    );
    fatal(
        &format!("{OK} -Ofc=max"),
        "Conflicting options '--Ofast-compile' and 'no -dlto'",
    );
    // nvlink checks the level after the conflicts and the -nvvmpath check (observed).
    fatal(
        &format!("{OK} -Ofc=bad"),
        "Conflicting options '--Ofast-compile' and 'no -dlto'",
    );
    fatal(
        &format!("{OK} -Ofc=bad -dlto"),
        "-nvvmpath should be specified with -lto",
    );
    fatal(
        &format!("{OK} -Ofc=bad -dlto -nvvmpath=/x"),
        "Invalid argument for option '--Ofast-compile'",
    );
    fatal(
        &format!("{OK} -Ofc=MAX -dlto -nvvmpath=/x -use-host-info -ignore-host-info"),
        "Conflicting options '-use-host-info' and '-ignore-host-info'",
    );
    fatal(
        "-arch=sm_90 nothere.cubin -emit-ptx -o out.cubin",
        "Conflicting options '-emit-ptx' and 'no -dlto'",
    );
    fatal(
        &format!("{OK} -dump-callgraph -dump-callgraph-no-demangle"),
        "Conflicting options '-dump-callgraph' and '-dump-callgraph-no-demangle'",
    );
    fatal(
        &format!("{OK} -ignore-host-info -use-host-info"),
        "Conflicting options '-use-host-info' and '-ignore-host-info'",
    );
    check(&format!("{OK} -g -suppress-debug-info"), 0, "");
}

#[test]
fn accepted_flags_without_messages() {
    for opt in [
        "-g",
        "--debug",
        "-w",
        "--disable-warnings",
        "-disable-infos",
        "-extrawarn",
        "--extra-warnings",
        "-ignore-host-info",
        "-use-host-info",
        "-keep-system-libraries",
        "-suppress-arch-warning",
        "-suppress-stack-size-warning",
        "-report-arch",
        "-Werror",
        "--warning-as-error",
        "-v2",
        "--verbose2",
        "-cpu-arch=X86_64",
        "-cpu-arch X86_64",
        "--host-ccbin gcc",
        "-host-ccbin=gcc",
        "-device-stack-protector=true",
        "--device-stack-protector false",
        "-r",
        "--relocatable-link",
        "-kernels-used=saxpy",
        "-variables-used=x,y",
        "-kernels-used=a,,b",
        "-m64",
        // nvcc -shared passes --shared (the image is the same: nvlink 13.5.37).
        "--shared",
        "-shared",
    ] {
        check(&format!("{OK} {opt}"), 0, "");
    }
}

#[test]
fn use_host_info_with_kernels_used_gives_an_info() {
    check(
        &format!("{OK} -use-host-info -kernels-used=saxpy"),
        0,
        "nvlink info    : ignore -use-host-info because -kernels-used or -variables-used is specified\n",
    );
    check(
        "-arch=sm_90 -report-arch -use-host-info -kernels-used=x k.cubin",
        1,
        "nvlink info    : ignore -use-host-info because -kernels-used or -variables-used is specified (target: sm_90)\nnvlink fatal   : Must specify output file with -o option (target: sm_90)\n",
    );
}

#[test]
fn report_arch_suffix() {
    check(
        "-arch=sm_90 -report-arch nothere.cubin -o out.cubin",
        1,
        "nvlink fatal   : Could not open input file 'nothere.cubin' (target: sm_90)\n",
    );
    check(
        "-arch=compute_90 -report-arch -o x.cubin nothere.cubin",
        1,
        "nvlink fatal   : Could not open input file 'nothere.cubin' (target: compute_90)\n",
    );
    check(
        "-report-arch -arch=sm_90 -arch=sm_80 k.cubin -o out.cubin",
        1,
        "nvlink warning : incompatible redefinition for option 'arch', the last value of this option was used\nnvlink fatal   : Input file 'k.cubin' arch does not match target 'sm_80' (target: sm_80)\n",
    );
    check(
        "-arch=sm_90 -report-arch k.cubin k.cubin -o out.cubin",
        1,
        "nvlink error   : Multiple definition of '_Z5saxpyifPKfPf' in 'k.cubin', first defined in 'k.cubin' (target: sm_90)\nnvlink fatal   : merge_elf failed (target: sm_90)\n",
    );
}

#[test]
fn verbose_lines() {
    // nvlink -v -arch=sm_90 k.cubin -o out.cubin
    check(
        &format!("{OK} -v"),
        0,
        "nvlink info    : 0 bytes gmem\nnvlink info    : Function properties for '_Z5saxpyifPKfPf':\nnvlink info    : used 10 registers, used 0 barriers, 0 stack, 0 bytes smem, 552 bytes cmem[0], 0 bytes lmem\n",
    );
    check(
        &format!("{OK} --verbose -disable-infos"),
        0,
        "nvlink info    : 0 bytes gmem\nnvlink info    : Function properties for '_Z5saxpyifPKfPf':\nnvlink info    : used 10 registers, used 0 barriers, 0 stack, 0 bytes smem, 552 bytes cmem[0], 0 bytes lmem\n",
    );
}

#[test]
fn preserve_relocs_warning_and_werror() {
    let w = "Option '--preserve-relocs' is not fully implemented for gpu archtecture 'sm_90' and may not work as expected\n";
    check(
        &format!("{OK} --preserve-relocs"),
        0,
        &format!("nvlink warning : {w}"),
    );
    check(
        &format!("{OK} -w --preserve-relocs"),
        0,
        &format!("nvlink warning : {w}"),
    );
    let dir = check(
        &format!("-Werror {OK} --preserve-relocs"),
        255,
        &format!("nvlink error   : {w}"),
    );
    assert!(!dir.join("out.cubin").exists());
    // -Werror leaves option-parsing warnings alone.
    check(
        "-Werror -arch=sm_90 -o x -o out.cubin k.cubin",
        0,
        "nvlink warning : incompatible redefinition for option 'output-file', the last value of this option was used\n",
    );
}

#[test]
fn register_link_binaries_for_a_cubin() {
    let dir = check(
        &format!("{OK} --register-link-binaries=reg.c"),
        0,
        "nvlink info    : Input 'k.cubin' has no host code, which could cause later host link error if there is a reference to it\n",
    );
    let reg = std::fs::read_to_string(dir.join("reg.c")).unwrap();
    let abs: String = dir
        .join("k.cubin")
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    assert_eq!(
        reg,
        format!("#define NUM_PRELINKED_OBJECTS 1\nDEFINE_REGISTER_FUNC({abs})\n")
    );
    let o = nv(&dir, &format!("{OK} --register-link-binaries=nodir/reg.c"));
    assert_eq!(
        (o.status, err(&o).lines().last().unwrap()),
        (
            1,
            "nvlink fatal   : Could not open output file 'nodir/reg.c'"
        )
    );
}

/// libcudadevrt's module is registered when the link uses its code, not otherwise: the
/// registration file against nvlink's own, on corpus cases that link it used and unused.
#[test]
fn register_link_binaries_for_cudadevrt_against_nvlink() {
    let Some(nvlink) = common::nvlink() else {
        return;
    };
    let corpus = repo().join("tests/corpus");
    for (case, objects) in [
        ("sm80_dynamic_parallelism", "dp.o"),
        ("sm90_cudadevrt_unused", "main.o lib.o"),
    ] {
        let dir = scratch();
        for o in objects.split(' ') {
            std::fs::copy(corpus.join(case).join(o), dir.join(o)).unwrap();
        }
        let lib = corpus.join("_toolkit/lib");
        let target = std::fs::read_to_string(corpus.join(case).join("target")).unwrap();
        let args = format!(
            "-arch={} --register-link-binaries=REG {objects} -L{} -lcudadevrt -o out.cubin",
            target.trim(),
            lib.display()
        );
        let status = std::process::Command::new(&nvlink)
            .current_dir(&dir)
            .args(args.replace("REG", "nvlink.reg.c").split_whitespace())
            .status()
            .unwrap();
        assert!(status.success(), "{case}");
        let o = nv(&dir, &args.replace("REG", "elfw.reg.c"));
        assert_eq!(o.status, 0, "{case}");
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
        assert_eq!(read("elfw.reg.c"), read("nvlink.reg.c"), "{case}");
    }
}

/// What nvcc's other device links leave in the registration file, against nvlink's own: a
/// virtual target (`-gencode ...,code=compute_XX`: nvlink links nothing, reports no undefined
/// reference, writes no image and registers every module, libcudadevrt's too, with `-v`
/// silent), and a link that fails on undefined references (libcudadevrt still registered).
#[test]
fn register_link_binaries_for_virtual_targets_and_failed_links_against_nvlink() {
    let Some(nvlink) = common::nvlink() else {
        return;
    };
    let corpus = repo().join("tests/corpus");
    for (case, objects, arch) in [
        ("sm80_dynamic_parallelism", "dp.o", "compute_80"),
        ("sm90_cudadevrt_unused", "main.o lib.o", "compute_90"),
        ("sm90_cudadevrt_unused", "main.o", "compute_90"),
        ("sm90_cudadevrt_unused", "main.o", "sm_90"),
        ("sm80_dynamic_parallelism", "dp.o", "compute_90"),
    ] {
        let dir = scratch();
        for o in objects.split(' ') {
            std::fs::copy(corpus.join(case).join(o), dir.join(o)).unwrap();
        }
        let lib = corpus.join("_toolkit/lib");
        // (`-v` after a failed link lists libcudadevrt's kernels in an order of nvlink's own.)
        let v = if arch.starts_with("compute") {
            "-v"
        } else {
            ""
        };
        let args = format!(
            "-arch={arch} {v} --register-link-binaries=REG {objects} -L{} -lcudadevrt -o OUT",
            lib.display()
        );
        let what = format!("{case} {objects} {arch}");
        let theirs = std::process::Command::new(&nvlink)
            .current_dir(&dir)
            .args(
                args.replace("REG", "nvlink.reg.c")
                    .replace("OUT", "nvlink.cubin")
                    .split_whitespace(),
            )
            .output()
            .unwrap();
        let o = nv(
            &dir,
            &args
                .replace("REG", "elfw.reg.c")
                .replace("OUT", "elfw.cubin"),
        );
        assert_eq!(o.status, theirs.status.code().unwrap(), "{what}");
        assert_eq!(
            err(&o),
            String::from_utf8_lossy(&theirs.stderr).replace("nvlink.cubin", "elfw.cubin"),
            "{what}"
        );
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
        assert_eq!(read("elfw.reg.c"), read("nvlink.reg.c"), "{what}");
        assert_eq!(
            dir.join("elfw.cubin").exists(),
            dir.join("nvlink.cubin").exists(),
            "{what}"
        );
    }
}

/// `--dump-callgraph` (as `nvcc -Xnvlink --dump-callgraph` passes it) lists no function of a
/// libcudadevrt the link dropped: against nvlink's own dump.
#[test]
fn dump_callgraph_without_an_unused_cudadevrt_against_nvlink() {
    let Some(nvlink) = common::nvlink() else {
        return;
    };
    let corpus = repo().join("tests/corpus");
    let dir = scratch();
    for o in ["main.o", "lib.o"] {
        std::fs::copy(corpus.join("sm90_cudadevrt_unused").join(o), dir.join(o)).unwrap();
    }
    let args = format!(
        "--dump-callgraph -arch=sm_90 main.o lib.o -L{} -lcudadevrt -o OUT",
        corpus.join("_toolkit/lib").display()
    );
    let theirs = std::process::Command::new(&nvlink)
        .current_dir(&dir)
        .args(args.replace("OUT", "nvlink.cubin").split_whitespace())
        .output()
        .unwrap();
    let o = nv(&dir, &args.replace("OUT", "elfw.cubin"));
    assert_eq!(o.status, 0);
    assert_eq!(err(&o), String::from_utf8_lossy(&theirs.stderr));
}

#[test]
fn register_link_binaries_for_host_objects_and_archives() {
    // nvlink -arch=sm_90 --register-link-binaries=r.c main.o libparts.a (corpus case
    // sm90_archive_dc_objects): one line per host object, members included.
    let dir = scratch();
    let case = repo().join("tests/corpus/sm90_archive_dc_objects");
    for f in ["main.o", "libparts.a"] {
        std::fs::copy(case.join(f), dir.join(f)).unwrap();
    }
    nv(
        &dir,
        "-arch=sm_90 --register-link-binaries=r.c main.o libparts.a -o out.cubin",
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("r.c")).unwrap(),
        "#define NUM_PRELINKED_OBJECTS 4\nDEFINE_REGISTER_FUNC(_45aff01b_7_main_cu_eb995504)\nDEFINE_REGISTER_FUNC(_afa45f4b_9_part_a_cu_68ac4686)\nDEFINE_REGISTER_FUNC(_bd11f0a5_9_part_b_cu_b_global)\nDEFINE_REGISTER_FUNC(_05ad97c0_9_part_c_cu_c_factor)\n"
    );
    // The same archive twice (any path to it) is read once; a copy under another name is not.
    let o = nv(
        &dir,
        "-arch=sm_90 main.o libparts.a ./libparts.a -o out2.cubin",
    );
    assert_eq!(err(&o), "");
    std::fs::copy(dir.join("libparts.a"), dir.join("libparts2.a")).unwrap();
    let o = nv(
        &dir,
        "-arch=sm_90 main.o -L. -lparts -lparts2 -o out3.cubin",
    );
    assert_eq!(err(&o), "nvlink error   : Multiple definition of '_Z6part_ai' in './libparts2.a:part_a.o', first defined in './libparts.a:part_a.o'\nnvlink fatal   : merge_elf failed\n");
    // -lfoo is libfoo.a only, searched in the -L folders, never the working folder.
    let o = nv(&dir, "-arch=sm_90 main.o -lparts -o out4.cubin");
    assert_eq!(
        err(&o),
        "nvlink error   : Undefined reference to '_Z6part_ai' in 'main.o'\n"
    );
    let o = nv(&dir, "-arch=sm_90 main.o -L. -lparts.a -o out4.cubin");
    assert_eq!(o.status, 255);
}

#[test]
fn host_linker_script() {
    let dir = scratch();
    let aug = "SECTIONS\n{\n\t.nvFatBinSegment : { *(.nvFatBinSegment) }\n\t__nv_relfatbin : { *(__nv_relfatbin) } \n\t.nv_fatbin : { *(.nv_fatbin) }\n}\n";
    for args in [
        "-ghls=lcs-aug",
        "-ghls=lcs-abs",
        "--gen-host-linker-script lcs-aug -emit-ptx",
    ] {
        let o = nv(&dir, args);
        assert_eq!(
            (o.status, String::from_utf8(o.stdout).unwrap()),
            (0, aug.to_string()),
            "{args}"
        );
    }
    let o = nv(&dir, "-ghls=lcs-aug -o out.x");
    assert_eq!(
        (
            o.status,
            std::fs::read_to_string(dir.join("out.x")).unwrap()
        ),
        (0, aug.to_string())
    );
    // With -o, lcs-abs writes the host linker's default script, then the augmentation: as
    // nvlink does on this machine.
    // With -r, the script of a relocatable host link ("Script for -r").
    if let Some(nvlink) = common::nvlink() {
        for extra in ["", "-r"] {
            let mut args = vec!["-ghls=lcs-abs", "-o", "nvlink.ld"];
            args.extend(extra.split_whitespace());
            let status = std::process::Command::new(&nvlink)
                .current_dir(&dir)
                .args(&args)
                .status()
                .unwrap();
            assert!(status.success());
            let o = nv(&dir, &format!("-ghls=lcs-abs -o elfw.ld {extra}"));
            assert_eq!(o.status, 0);
            let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
            assert_eq!(read("elfw.ld"), read("nvlink.ld"), "{extra}");
        }
    }
    fatal(
        "-arch=sm_90 k.cubin -o out.cubin -ghls=lcs-abs",
        "Input files are not allowed with -ghls option; use --help for more information",
    );
}

#[test]
fn time_file() {
    let dir = scratch();
    let header = "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n";
    let o = nv(&dir, &format!("{OK} -time t.csv"));
    assert_eq!(o.status, 0);
    nv(&dir, &format!("{OK} -time t.csv"));
    let t = std::fs::read_to_string(dir.join("t.csv")).unwrap();
    assert!(t.starts_with(header));
    assert_eq!(
        t.matches(header).count(),
        1,
        "header only when the file is empty"
    );
    assert!(
        t.lines()
            .skip(1)
            .all(|l| l.ends_with(", ms") && l.contains(", elfw ")),
        "{t}"
    );
    let o = nv(&dir, &format!("{OK} -time -"));
    assert!(String::from_utf8(o.stdout).unwrap().starts_with(header));
    fatal(
        &format!("{OK} -time nodir/x.csv"),
        "Cannot open file 'nodir/x.csv'",
    );
    fatal(&format!("{OK} --time="), "Cannot open file ''");
}

#[test]
fn uidx_file() {
    fatal(
        &format!("{OK} -uidx=foo"),
        "Could not open input file 'foo'",
    );
    fatal(
        &format!("{OK} --uidx-file=k.cubin"),
        "Internal error: not uidx input",
    );
}
