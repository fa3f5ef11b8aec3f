//! nvlink 13.5's command line: the option table of `nvlink --help` and its parsing rules, as
//! observed by running nvlink 13.5.37 (each rule below has a test in `tests/options.rs`).
//!
//! - `--<long>` and `-<short>` name an option; the single-dash form takes only the short name
//!   (`-g`, `-arch`, `-Werror`), the double-dash form only the long name (`--debug`,
//!   `--arch`, `--warning-as-error`). Options whose short name is the long name
//!   (`-arch`/`--arch`) take both.
//! - A value follows `=` (`-arch=sm_90`) or is the next argument (`-arch sm_90`, whatever it
//!   looks like: `-L -lfoo` names the directory `-lfoo`). Only `-l`, `-L` and `-m` also take a
//!   value glued on (`-lfoo`, `-L/dir`, `-m64`); `-oout` is an unknown option.
//! - List options split their value on commas and accumulate over repeats; giving a
//!   single-valued option again with a different value warns
//!   `incompatible redefinition for option '<long>', the last value of this option was used`.
//! - `--options-file`/`-optf` files are split like a shell would (double quotes and backslashes
//!   group, `#` is no comment) and parsed in place; nesting deeper than 15 files is fatal.
//! - Fatal messages: `Unknown option '<arg without its first dash, up to '='>'`,
//!   `argument expected after '<arg as written>'`, `no argument expected after '<arg>'`,
//!   `Value '<v>' is not defined for option '<long>'`, `'<v>': expected a number`,
//!   `'<v>': expected true or false`, `Could not open options file '<f>'`,
//!   `Too many options file opened '<f>'`.

use std::collections::BTreeMap;

/// How an option takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No value.
    Flag,
    /// One value (the last one given wins).
    Value,
    /// A number (the last one given wins).
    Number,
    /// `true` or `false` (the last one given wins).
    Bool,
    /// A comma-separated list; repeats accumulate.
    List,
}

/// One option of the table.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Long name (used with `--`).
    pub long: &'static str,
    /// Short name (used with `-`).
    pub short: Option<&'static str>,
    /// How it takes a value.
    pub kind: Kind,
    /// Allowed values, when restricted.
    pub allowed: Option<&'static [&'static str]>,
    /// Whether a value may be glued to the short name (`-lfoo`).
    pub glued: bool,
}

const fn spec(long: &'static str, short: &'static str, kind: Kind) -> Spec {
    Spec {
        long,
        short: Some(short),
        kind,
        allowed: None,
        glued: false,
    }
}
const fn flag(long: &'static str, short: &'static str) -> Spec {
    spec(long, short, Kind::Flag)
}
const fn value(long: &'static str, short: &'static str) -> Spec {
    spec(long, short, Kind::Value)
}
const fn list(long: &'static str, short: &'static str) -> Spec {
    spec(long, short, Kind::List)
}
const fn choice(long: &'static str, short: &'static str, allowed: &'static [&'static str]) -> Spec {
    Spec {
        long,
        short: Some(short),
        kind: Kind::Value,
        allowed: Some(allowed),
        glued: false,
    }
}
const fn glued(mut s: Spec) -> Spec {
    s.glued = true;
    s
}

/// Every `-arch` value `nvlink --help` lists.
pub const ARCH_NAMES: &[&str] = &[
    "compute_100",
    "compute_100a",
    "compute_100f",
    "compute_103",
    "compute_103a",
    "compute_103f",
    "compute_107",
    "compute_107a",
    "compute_107f",
    "compute_110",
    "compute_110a",
    "compute_110f",
    "compute_120",
    "compute_120a",
    "compute_120f",
    "compute_121",
    "compute_121a",
    "compute_121f",
    "compute_75",
    "compute_80",
    "compute_86",
    "compute_87",
    "compute_88",
    "compute_89",
    "compute_90",
    "compute_90a",
    "lto_100",
    "lto_100a",
    "lto_100f",
    "lto_103",
    "lto_103a",
    "lto_103f",
    "lto_107",
    "lto_107a",
    "lto_107f",
    "lto_110",
    "lto_110a",
    "lto_110f",
    "lto_120",
    "lto_120a",
    "lto_120f",
    "lto_121",
    "lto_121a",
    "lto_121f",
    "lto_75",
    "lto_80",
    "lto_86",
    "lto_87",
    "lto_88",
    "lto_89",
    "lto_90",
    "lto_90a",
    "sm_100",
    "sm_100a",
    "sm_100f",
    "sm_103",
    "sm_103a",
    "sm_103f",
    "sm_107",
    "sm_107a",
    "sm_107f",
    "sm_110",
    "sm_110a",
    "sm_110f",
    "sm_120",
    "sm_120a",
    "sm_120f",
    "sm_121",
    "sm_121a",
    "sm_121f",
    "sm_75",
    "sm_80",
    "sm_86",
    "sm_87",
    "sm_88",
    "sm_89",
    "sm_90",
    "sm_90a",
];

/// The option table, in `nvlink --help` order, plus the options nvlink takes without listing
/// them (`--host-ccbin` and `--shared`, which nvcc passes; `--shared`, for `nvcc -shared`,
/// changes nothing in the image) and elfw's own `--print-map`.
pub const OPTIONS: &[Spec] = &[
    // (Its value is checked by the link, after the option conflicts: see `link_cmd`.)
    value("Ofast-compile", "Ofc"),
    list("Xnvvm", "Xnvvm"),
    list("Xptxas", "Xptxas"),
    choice("arch", "arch", ARCH_NAMES),
    choice(
        "cpu-arch",
        "cpu-arch",
        &[
            "AARCH64", "ARMv7", "PPC64LE", "RISCV64", "X86", "X86_64", "unknown",
        ],
    ),
    flag("debug", "g"),
    spec(
        "device-stack-protector",
        "device-stack-protector",
        Kind::Bool,
    ),
    flag("disable-infos", "disable-infos"),
    flag("disable-warnings", "w"),
    flag("dlto", "dlto"),
    flag("dump-callgraph", "dump-callgraph"),
    flag("dump-callgraph-no-demangle", "dump-callgraph-no-demangle"),
    flag("emit-ptx", "emit-ptx"),
    flag("extra-warnings", "extrawarn"),
    choice("gen-host-linker-script", "ghls", &["lcs-abs", "lcs-aug"]),
    flag("help", "h"),
    value("host-ccbin", "host-ccbin"),
    flag("ignore-host-info", "ignore-host-info"),
    flag("keep-system-libraries", "keep-system-libraries"),
    list("kernels-used", "kernels-used"),
    glued(list("library", "l")),
    glued(list("library-path", "L")),
    flag("link-as-tools-patch", "astoolspatch"),
    flag("link-time-opt", "lto"),
    Spec {
        long: "machine",
        short: Some("m"),
        kind: Kind::Number,
        allowed: Some(&["64"]),
        glued: true,
    },
    spec("maxrregcount", "maxrregcount", Kind::Number),
    flag("nvvm-latest", "nvvm-latest"),
    value("nvvmpath", "nvvmpath"),
    list("options-file", "optf"),
    value("output-file", "o"),
    flag("preserve-relocs", "preserve-relocs"),
    value("print-map", "print-map"),
    Spec {
        long: "register-link-binaries",
        short: None,
        kind: Kind::Value,
        allowed: None,
        glued: false,
    },
    flag("relocatable-link", "r"),
    flag("report-arch", "report-arch"),
    flag("shared", "shared"),
    spec("split-compile", "split-compile", Kind::Number),
    spec(
        "split-compile-extended",
        "split-compile-extended",
        Kind::Number,
    ),
    flag("suppress-arch-warning", "suppress-arch-warning"),
    flag("suppress-debug-info", "suppress-debug-info"),
    flag("suppress-stack-size-warning", "suppress-stack-size-warning"),
    value("time", "time"),
    value("uidx-file", "uidx"),
    flag("use-host-info", "use-host-info"),
    list("variables-used", "variables-used"),
    flag("verbose", "v"),
    flag("verbose2", "v2"),
    flag("version", "V"),
    flag("warning-as-error", "Werror"),
];

/// The order in which nvlink writes options into the argument string of its
/// `.note.nv.tkinfo` record (observed with nvlink 13.5.37; `input-files` and `output-file`
/// appear only under `-g`).
const RECORD_ORDER: &[&str] = &[
    "input-files",
    "suppress-stack-size-warning",
    "suppress-arch-warning",
    "output-file",
    "debug",
    "arch",
    "machine",
    "library",
    "library-path",
    "verbose",
    "verbose2",
    "preserve-relocs",
    "disable-warnings",
    "warning-as-error",
    "disable-infos",
    "keep-system-libraries",
    "kernels-used",
    "variables-used",
    "cpu-arch",
    "report-arch",
    "extra-warnings",
    "suppress-debug-info",
    "nvvmpath",
    "split-compile",
    "split-compile-extended",
    "link-as-tools-patch",
    "Xptxas",
    "Xnvvm",
    "maxrregcount",
    "dump-callgraph",
    "dump-callgraph-no-demangle",
    "use-host-info",
    "ignore-host-info",
    "relocatable-link",
    "device-stack-protector",
];

/// How deeply `--options-file` files may nest: the 16th nested file is refused.
pub const MAX_OPTIONS_FILE_DEPTH: u32 = 15;

/// A parse result: option values by long name, inputs in order, and warnings.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    values: BTreeMap<&'static str, Vec<String>>,
    /// Input files in command-line order.
    pub inputs: Vec<String>,
    /// Warnings the parser gave (nvlink prints them before anything else).
    pub warnings: Vec<String>,
}

impl Parsed {
    /// Whether a flag (or any option) was given.
    pub fn has(&self, long: &str) -> bool {
        self.values.contains_key(long)
    }
    /// The value of a single-valued option.
    pub fn value(&self, long: &str) -> Option<&str> {
        self.values
            .get(long)
            .and_then(|v| v.last())
            .map(String::as_str)
    }
    /// A `true`/`false` option's value.
    pub fn bool_value(&self, long: &str) -> bool {
        self.value(long) == Some("true")
    }
    /// All values of a list option.
    pub fn list(&self, long: &str) -> &[String] {
        self.values.get(long).map(Vec::as_slice).unwrap_or(&[])
    }
    /// The normalized command line nvlink records in `.note.nv.tkinfo`: options in nvlink's
    /// record order, each as `-<short> <value> ` (flags as `-<short>  `, list values joined
    /// by commas); inputs and `-o` only under `-g`; `--time`, `--host-ccbin`,
    /// `--register-link-binaries` and `--options-file` never.
    pub fn normalized(&self) -> String {
        let debug = self.has("debug");
        let mut out = String::new();
        for long in RECORD_ORDER {
            if *long == "input-files" {
                if debug && !self.inputs.is_empty() {
                    out.push_str(&self.inputs.join(","));
                    out.push(' ');
                }
                continue;
            }
            if *long == "output-file" && !debug {
                continue;
            }
            let Some(vals) = self.values.get(long) else {
                continue;
            };
            let Some(spec) = find_long(long) else {
                continue;
            };
            out.push('-');
            out.push_str(spec.short.unwrap_or(spec.long));
            out.push(' ');
            if spec.kind != Kind::Flag {
                out.push_str(&vals.join(","));
            }
            out.push(' ');
        }
        out
    }
}

/// A command line nvlink refuses, with its fatal message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

fn find_long(name: &str) -> Option<&'static Spec> {
    OPTIONS.iter().find(|s| s.long == name)
}

fn find_short(name: &str) -> Option<&'static Spec> {
    OPTIONS.iter().find(|s| s.short == Some(name))
}

/// Parses an argument vector (without the program name). `read_file` supplies the contents
/// of `--options-file` files.
pub fn parse(
    args: &[String],
    read_file: &dyn Fn(&str) -> Option<String>,
) -> Result<Parsed, ParseError> {
    let mut p = Parsed::default();
    parse_into(&mut p, args, read_file, 0)?;
    Ok(p)
}

fn parse_into(
    p: &mut Parsed,
    args: &[String],
    read_file: &dyn Fn(&str) -> Option<String>,
    depth: u32,
) -> Result<(), ParseError> {
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if !arg.starts_with('-') || arg == "-" {
            p.inputs.push(arg.clone());
            continue;
        }
        let (written, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (arg.as_str(), None),
        };
        let unknown = || ParseError(format!("Unknown option '{}'", &written[1..]));
        let found = match written.strip_prefix("--") {
            Some(long) => find_long(long).map(|s| (s, inline.clone())),
            None => find_short(&written[1..]).map(|s| (s, inline.clone())),
        };
        let (spec, inline) = match found {
            Some(f) => f,
            None if !written.starts_with("--") => match glued_short(&arg[1..]) {
                Some(f) => f,
                None => return Err(unknown()),
            },
            None => return Err(unknown()),
        };
        let val = if spec.kind == Kind::Flag {
            if inline.is_some() {
                return Err(ParseError(format!(
                    "no argument expected after '{written}'"
                )));
            }
            None
        } else {
            match inline {
                Some(v) => Some(v),
                None => {
                    let Some(v) = args.get(i).cloned() else {
                        return Err(ParseError(format!("argument expected after '{written}'")));
                    };
                    i += 1;
                    Some(v)
                }
            }
        };
        if spec.long == "options-file" {
            for file in val.unwrap_or_default().split(',').filter(|f| !f.is_empty()) {
                if depth >= MAX_OPTIONS_FILE_DEPTH {
                    return Err(ParseError(format!("Too many options file opened '{file}'")));
                }
                let text = read_file(file)
                    .ok_or_else(|| ParseError(format!("Could not open options file '{file}'")))?;
                parse_into(p, &split_words(&text), read_file, depth + 1)?;
            }
            continue;
        }
        record(p, spec, val)?;
    }
    Ok(())
}

/// `-lfoo`, `-L/dir`, `-m64`: the one-letter short options that take a glued value.
fn glued_short(body: &str) -> Option<(&'static Spec, Option<String>)> {
    OPTIONS.iter().find_map(|s| {
        let short = s.short?;
        if !s.glued {
            return None;
        }
        let rest = body.strip_prefix(short)?;
        (!rest.is_empty()).then(|| (s, Some(rest.to_owned())))
    })
}

/// Splits an options file into words: whitespace separates, double quotes group (and are
/// removed), a backslash takes the next character literally; single quotes and `#` are
/// ordinary characters (as nvlink reads them).
pub fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

fn record(p: &mut Parsed, spec: &'static Spec, val: Option<String>) -> Result<(), ParseError> {
    let Some(val) = val else {
        p.values.entry(spec.long).or_default();
        return Ok(());
    };
    let mut items: Vec<String> = if spec.kind == Kind::List {
        val.split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    } else {
        vec![val]
    };
    for v in &mut items {
        match spec.kind {
            Kind::Number => match parse_number(v) {
                None => return Err(ParseError(format!("'{v}': expected a number"))),
                Some(n) if i32::try_from(n).is_err() => {
                    return Err(ParseError(format!(
                        "32-bit integer value ({v}) out of range"
                    )))
                }
                // Kept in decimal, as nvlink records and passes it on (observed: `0x20` and
                // `040` are recorded as `32`).
                Some(n) if spec.allowed.is_none() => *v = n.to_string(),
                Some(_) => {}
            },
            Kind::Bool if v != "true" && v != "false" => {
                return Err(ParseError(format!("'{v}': expected true or false")))
            }
            _ => {}
        }
        if let Some(allowed) = spec.allowed {
            if !allowed.contains(&v.as_str()) {
                return Err(ParseError(format!(
                    "Value '{}' is not defined for option '{}'",
                    v, spec.long
                )));
            }
        }
    }
    let slot = p.values.entry(spec.long).or_default();
    if spec.kind != Kind::List {
        if !slot.is_empty() && slot.last() != items.last() {
            p.warnings.push(format!(
                "incompatible redefinition for option '{}', the last value of this option was used",
                spec.long
            ));
        }
        slot.clear();
    }
    slot.extend(items);
    Ok(())
}

/// A number as nvlink's option parser reads one: optionally signed, decimal, `0x` hexadecimal
/// or `0` octal (C's `strtol` with base 0; observed: `-split-compile 010` is 8, `0x10` 16);
/// values too large for 64 bits read as `i64::MAX`/`i64::MIN` (out of range for 32 bits all
/// the same).
fn parse_number(v: &str) -> Option<i64> {
    let (negative, digits) = match v.as_bytes().first() {
        Some(b'-') => (true, &v[1..]),
        Some(b'+') => (false, &v[1..]),
        _ => (false, v),
    };
    let (radix, digits) = if let Some(h) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, h)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i128::from_str_radix(digits, radix).unwrap_or(i128::MAX);
    let value = if negative { -magnitude } else { magnitude };
    Some(i64::try_from(value).unwrap_or(if negative { i64::MIN } else { i64::MAX }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_nvlink() {
        assert_eq!(
            split_words("-arch sm_90 \"k k.cubin\" k\\ k.cubin \"a b\".c 'x' #c\n"),
            [
                "-arch",
                "sm_90",
                "k k.cubin",
                "k k.cubin",
                "a b.c",
                "'x'",
                "#c"
            ]
        );
        assert!(split_words("  \n\t").is_empty());
    }

    #[test]
    fn every_option_has_a_record_position_or_is_never_recorded() {
        let never = [
            "Ofast-compile",
            "dlto",
            "emit-ptx",
            "gen-host-linker-script",
            "help",
            "host-ccbin",
            "link-as-tools-patch",
            "link-time-opt",
            "nvvm-latest",
            "options-file",
            "print-map",
            "register-link-binaries",
            // (Observed: not in nvlink's record.)
            "shared",
            "time",
            "uidx-file",
            "version",
        ];
        for s in OPTIONS {
            assert!(
                RECORD_ORDER.contains(&s.long) || never.contains(&s.long),
                "{}",
                s.long
            );
        }
    }
}
