//! nvlink 13.5's command line: the option table of `nvlink --help` and its parsing rules.
//!
//! Observed rules: `--opt=value`, `--opt value`, `-opt=value` and `-opt value` are the same;
//! every option also has a single-dash long form; one-letter short options take their value
//! glued on (`-lfoo`, `-L/dir`, `-m64`); list options split on commas and accumulate; giving a
//! single-valued option twice warns `incompatible redefinition for option '%s', the last value
//! of this option was used`; an unknown option is fatal (`Unknown option '%s'`, named without
//! its first dash); a value outside an option's list is fatal
//! (`Value '%s' is not defined for option '%s'`).

use std::collections::BTreeMap;

/// How an option takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No value.
    Flag,
    /// One value (the last one given wins).
    Value,
    /// A comma-separated list; repeats accumulate.
    List,
}

/// One option of the table.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Long name (used with `--` or `-`).
    pub long: &'static str,
    /// Short alias (used with `-`), if different.
    pub short: Option<&'static str>,
    /// How it takes a value.
    pub kind: Kind,
    /// Allowed values, when restricted.
    pub allowed: Option<&'static [&'static str]>,
}

const fn flag(long: &'static str, short: Option<&'static str>) -> Spec {
    Spec {
        long,
        short,
        kind: Kind::Flag,
        allowed: None,
    }
}
const fn value(long: &'static str, short: Option<&'static str>) -> Spec {
    Spec {
        long,
        short,
        kind: Kind::Value,
        allowed: None,
    }
}
const fn list(long: &'static str, short: Option<&'static str>) -> Spec {
    Spec {
        long,
        short,
        kind: Kind::List,
        allowed: None,
    }
}
const fn choice(
    long: &'static str,
    short: Option<&'static str>,
    allowed: &'static [&'static str],
) -> Spec {
    Spec {
        long,
        short,
        kind: Kind::Value,
        allowed: Some(allowed),
    }
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

/// The option table, in `nvlink --help` order.
pub const OPTIONS: &[Spec] = &[
    choice("Ofast-compile", Some("Ofc"), &["0", "min", "mid", "max"]),
    list("Xnvvm", None),
    list("Xptxas", None),
    choice("arch", None, ARCH_NAMES),
    choice(
        "cpu-arch",
        None,
        &[
            "AARCH64", "ARMv7", "PPC64LE", "RISCV64", "X86", "X86_64", "unknown",
        ],
    ),
    flag("debug", Some("g")),
    flag("device-stack-protector", None),
    flag("disable-infos", None),
    flag("disable-warnings", Some("w")),
    flag("dlto", None),
    flag("dump-callgraph", None),
    flag("dump-callgraph-no-demangle", None),
    flag("emit-ptx", None),
    flag("extra-warnings", Some("extrawarn")),
    choice(
        "gen-host-linker-script",
        Some("ghls"),
        &["lcs-abs", "lcs-aug"],
    ),
    flag("help", Some("h")),
    flag("ignore-host-info", None),
    flag("keep-system-libraries", None),
    list("kernels-used", None),
    list("library", Some("l")),
    list("library-path", Some("L")),
    flag("link-as-tools-patch", Some("astoolspatch")),
    flag("link-time-opt", Some("lto")),
    choice("machine", Some("m"), &["64"]),
    value("maxrregcount", None),
    flag("nvvm-latest", None),
    value("nvvmpath", None),
    list("options-file", Some("optf")),
    value("output-file", Some("o")),
    flag("preserve-relocs", None),
    value("register-link-binaries", None),
    flag("relocatable-link", Some("r")),
    flag("report-arch", None),
    value("split-compile", None),
    value("split-compile-extended", None),
    flag("suppress-arch-warning", None),
    flag("suppress-debug-info", None),
    flag("suppress-stack-size-warning", None),
    value("time", None),
    value("uidx-file", Some("uidx")),
    flag("use-host-info", None),
    list("variables-used", None),
    flag("verbose", Some("v")),
    flag("verbose2", Some("v2")),
    flag("version", Some("V")),
    flag("warning-as-error", Some("Werror")),
];

/// Options whose value must be a number.
const NUMERIC: &[&str] = &["maxrregcount", "split-compile", "split-compile-extended"];

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
    /// All values of a list option.
    pub fn list(&self, long: &str) -> &[String] {
        self.values.get(long).map(Vec::as_slice).unwrap_or(&[])
    }
    /// The normalized command line elfw records in `.note.nv.tkinfo`: options in table order,
    /// each as `-name value ` (flags as `-name `), inputs, `-o` and
    /// `--register-link-binaries` left out.
    pub fn normalized(&self) -> String {
        let mut out = String::new();
        for spec in OPTIONS {
            let Some(vals) = self.values.get(spec.long) else {
                continue;
            };
            if matches!(
                spec.long,
                "output-file" | "register-link-binaries" | "options-file"
            ) {
                continue;
            }
            let name = spec.short.unwrap_or(spec.long);
            match spec.kind {
                Kind::Flag => {
                    out.push('-');
                    out.push_str(name);
                    out.push(' ');
                }
                _ => {
                    for v in vals {
                        out.push('-');
                        out.push_str(name);
                        out.push(' ');
                        out.push_str(v);
                        out.push(' ');
                    }
                }
            }
        }
        out
    }
}

/// A command line nvlink refuses, with its fatal message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

fn find(name: &str) -> Option<&'static Spec> {
    OPTIONS
        .iter()
        .find(|s| s.long == name || s.short == Some(name))
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
        let body = arg.strip_prefix("--").unwrap_or(&arg[1..]);
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (body, None),
        };
        let (spec, inline) = match find(name) {
            Some(s) => (s, inline),
            None => match glued(body) {
                Some((s, v)) => (s, Some(v)),
                None => return Err(ParseError(format!("Unknown option '{}'", &arg[1..]))),
            },
        };
        let val = match spec.kind {
            Kind::Flag => {
                if inline.is_some() {
                    return Err(ParseError(format!("Unknown option '{}'", &arg[1..])));
                }
                None
            }
            _ => match inline {
                Some(v) => Some(v),
                None => {
                    let v = args.get(i).cloned();
                    i += 1;
                    match v {
                        Some(v) => Some(v),
                        None => {
                            return Err(ParseError(format!(
                                "Missing value for option '{}'",
                                spec.long
                            )))
                        }
                    }
                }
            },
        };
        if spec.long == "options-file" {
            let v = val.unwrap_or_default();
            for file in v.split(',') {
                let text = read_file(file)
                    .ok_or_else(|| ParseError(format!("Could not open options file '{file}'")))?;
                let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
                if depth < 8 {
                    parse_into(p, &words, read_file, depth + 1)?;
                }
            }
            continue;
        }
        record(p, spec, val)?;
    }
    Ok(())
}

/// A one-letter (or `-Werror`-style) short option with its value glued on: `-lfoo`, `-m64`.
fn glued(body: &str) -> Option<(&'static Spec, String)> {
    OPTIONS.iter().find_map(|s| {
        let short = s.short?;
        if s.kind == Kind::Flag || short.len() != 1 {
            return None;
        }
        let rest = body.strip_prefix(short)?;
        (!rest.is_empty()).then(|| (s, rest.to_owned()))
    })
}

fn record(p: &mut Parsed, spec: &'static Spec, val: Option<String>) -> Result<(), ParseError> {
    let Some(val) = val else {
        p.values.entry(spec.long).or_default();
        return Ok(());
    };
    let items: Vec<String> = if spec.kind == Kind::List {
        val.split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    } else {
        vec![val]
    };
    for v in &items {
        if let Some(allowed) = spec.allowed {
            if !allowed.contains(&v.as_str()) {
                return Err(ParseError(format!(
                    "Value '{}' is not defined for option '{}'",
                    v, spec.long
                )));
            }
        }
        if NUMERIC.contains(&spec.long) && v.parse::<i64>().is_err() {
            return Err(ParseError(format!("'{v}': expected a number")));
        }
    }
    let slot = p.values.entry(spec.long).or_default();
    if spec.kind == Kind::Value {
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
