//! `elfw dump` agrees with `readelf -W` on every section and symbol field: the ELF files in
//! tests/data, and every ELF input under tests/corpus/*/ when the corpus is present.
//! Skipped (with a note) when readelf is not installed.

use std::path::{Path, PathBuf};
use std::process::Command;

fn elf_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut dirs = vec![root.join("tests/data")];
    if let Ok(rd) = std::fs::read_dir(root.join("../tests/corpus")) {
        dirs.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if std::fs::read(&p).is_ok_and(|b| b.starts_with(b"\x7fELF")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn readelf(args: &[&str], file: &Path) -> Option<String> {
    let out = Command::new("readelf").args(args).arg(file).output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn field(line: &str, key: &str) -> u64 {
    let v = line
        .split_whitespace()
        .find_map(|t| t.strip_prefix(key))
        .unwrap();
    match v.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => v.parse().unwrap(),
    }
}

fn section_type(name: &str) -> Option<u64> {
    Some(match name {
        "NULL" => 0,
        "PROGBITS" => 1,
        "SYMTAB" => 2,
        "STRTAB" => 3,
        "RELA" => 4,
        "HASH" => 5,
        "DYNAMIC" => 6,
        "NOTE" => 7,
        "NOBITS" => 8,
        "REL" => 9,
        "INIT_ARRAY" => 14,
        "FINI_ARRAY" => 15,
        "GROUP" => 17,
        "SYMTAB SECTION INDICES" => 18,
        _ => {
            let rest = name.strip_prefix("LOPROC+")?;
            let v = rest
                .strip_prefix("0x")
                .map_or_else(|| rest.parse().ok(), |h| u64::from_str_radix(h, 16).ok())?;
            0x7000_0000 + v
        }
    })
}

fn flag_letters(flags: u64) -> String {
    [
        (1, 'W'),
        (2, 'A'),
        (4, 'X'),
        (0x10, 'M'),
        (0x20, 'S'),
        (0x40, 'I'),
        (0x80, 'L'),
        (0x100, 'O'),
        (0x200, 'G'),
        (0x400, 'T'),
        (0x800, 'C'),
    ]
    .iter()
    .filter(|(b, _)| flags & b != 0)
    .map(|&(_, c)| c)
    .collect()
}

fn check_sections(file: &Path, dump: &str, text: &str) -> usize {
    let ours: Vec<&str> = dump.lines().filter(|l| l.starts_with("section ")).collect();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| l.trim_start().starts_with('[') && !l.contains("[Nr]"))
    {
        let (nr, rest) = line.trim_start()[1..].split_once(']').unwrap();
        let nr: usize = nr.trim().parse().unwrap();
        let toks: Vec<&str> = rest.split_whitespace().collect();
        // Name (absent for section 0), type (maybe three words), addr, off, size, es, [flags], lk, inf, al.
        let (name, after_name) = if nr == 0 {
            ("", &toks[..])
        } else {
            (toks[0], &toks[1..])
        };
        let addr_at = after_name
            .iter()
            .position(|t| t.len() == 16 && t.bytes().all(|b| b.is_ascii_hexdigit()))
            .unwrap();
        let ty = section_type(&after_name[..addr_at].join(" "))
            .unwrap_or_else(|| panic!("{}: type in {line}", file.display()));
        let nums = &after_name[addr_at..];
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        let (addr, off, size, es) = (hex(nums[0]), hex(nums[1]), hex(nums[2]), hex(nums[3]));
        let (letters, tail) = if nums.len() == 8 {
            (nums[4], &nums[5..])
        } else {
            ("", &nums[4..])
        };
        let (lk, inf, al): (u64, u64, u64) = (
            tail[0].parse().unwrap(),
            tail[1].parse().unwrap(),
            tail[2].parse().unwrap(),
        );
        let o = ours
            .get(nr)
            .unwrap_or_else(|| panic!("{}: no section {nr} in dump", file.display()));
        let ctx = format!(
            "{}: section {nr}\nreadelf: {line}\nelfw:    {o}",
            file.display()
        );
        assert_eq!(
            o.split_whitespace()
                .nth(2)
                .filter(|_| nr != 0)
                .unwrap_or(""),
            name,
            "{ctx}"
        );
        assert_eq!(field(o, "type="), ty, "{ctx}");
        assert_eq!(
            (
                field(o, "addr="),
                field(o, "off="),
                field(o, "size="),
                field(o, "entsize=")
            ),
            (addr, off, size, es),
            "{ctx}"
        );
        assert_eq!(
            (field(o, "link="), field(o, "info="), field(o, "align=")),
            (lk, inf, al),
            "{ctx}"
        );
        let theirs: String = letters
            .chars()
            .filter(|c| "WAXMSILOGTC".contains(*c))
            .collect();
        assert_eq!(flag_letters(field(o, "flags=")), theirs, "{ctx}");
        n += 1;
    }
    assert_eq!(n, ours.len(), "{}: section count", file.display());
    n
}

fn check_symbols(file: &Path, dump: &str, text: &str) -> usize {
    let ours: Vec<&str> = dump.lines().filter(|l| l.starts_with("symbol ")).collect();
    let mut n = 0;
    let mut in_symtab = false;
    for line in text.lines() {
        if line.starts_with("Symbol table") {
            in_symtab = line.contains("'.symtab'");
            continue;
        }
        let t = line.trim_start();
        let Some((num, rest)) = t.split_once(": ") else {
            continue;
        };
        let Ok(num) = num.parse::<usize>() else {
            continue;
        };
        if !in_symtab {
            continue;
        }
        let mut toks = rest.split_whitespace().peekable();
        let value = u64::from_str_radix(toks.next().unwrap(), 16).unwrap();
        let size_tok = toks.next().unwrap();
        let size = size_tok.strip_prefix("0x").map_or_else(
            || size_tok.parse().unwrap(),
            |h| u64::from_str_radix(h, 16).unwrap(),
        );
        let ty = match toks.next().unwrap() {
            "NOTYPE" => 0,
            "OBJECT" => 1,
            "FUNC" => 2,
            "SECTION" => 3,
            "FILE" => 4,
            "COMMON" => 5,
            "TLS" => 6,
            "<processor" | "<OS" => {
                toks.next();
                toks.next().unwrap().parse().unwrap()
            }
            other => panic!("{}: symbol type {other}", file.display()),
        };
        let bind = match toks.next().unwrap() {
            "LOCAL" => 0,
            "GLOBAL" => 1,
            "WEAK" => 2,
            "UNIQUE" => 10,
            other => panic!("{}: binding {other}", file.display()),
        };
        let vis = toks.next().unwrap();
        let mut other_bits = match vis {
            "DEFAULT" => 0,
            "INTERNAL" => 1,
            "HIDDEN" => 2,
            "PROTECTED" => 3,
            _ => panic!("{}: visibility {vis}", file.display()),
        };
        if toks.peek() == Some(&"[<other>:") {
            toks.next();
            let v = toks.next().unwrap().trim_end_matches(']');
            other_bits |= u64::from_str_radix(v, 16).unwrap();
        }
        let ndx = match toks.next().unwrap() {
            "UND" => 0,
            "ABS" => 0xfff1,
            "COM" => 0xfff2,
            d => d.parse().unwrap(),
        };
        let name = toks.next().unwrap_or("");
        let o = ours
            .get(num)
            .unwrap_or_else(|| panic!("{}: no symbol {num} in dump", file.display()));
        let ctx = format!(
            "{}: symbol {num}\nreadelf: {line}\nelfw:    {o}",
            file.display()
        );
        let mut our_name = o
            .split_whitespace()
            .nth(2)
            .filter(|t| !t.starts_with("value="))
            .unwrap_or("");
        // readelf shows an unnamed section symbol under its section's name.
        if our_name.is_empty() && ty == 3 {
            let sec = dump
                .lines()
                .filter(|l| l.starts_with("section "))
                .nth(ndx as usize);
            our_name = sec
                .and_then(|l| l.split_whitespace().nth(2))
                .filter(|t| !t.starts_with("type="))
                .unwrap_or("");
        }
        assert_eq!(our_name, name, "{ctx}");
        assert_eq!(
            (
                field(o, "value="),
                field(o, "size="),
                field(o, "type="),
                field(o, "bind=")
            ),
            (value, size, ty, bind),
            "{ctx}"
        );
        assert_eq!(
            (field(o, "other="), field(o, "shndx=")),
            (other_bits, ndx),
            "{ctx}"
        );
        n += 1;
    }
    assert_eq!(n, ours.len(), "{}: symbol count", file.display());
    n
}

#[test]
fn dump_agrees_with_readelf() {
    if Command::new("readelf").arg("--version").output().is_err() {
        eprintln!("readelf not installed: skipped");
        return;
    }
    let files = elf_files();
    assert!(files.len() >= 5, "expected the tests/data ELF files");
    let (mut sections, mut symbols) = (0, 0);
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let dump = elfw_core::dump::dump("x", &data);
        // A host object's dump lists its embedded cubins first; its own rows come last.
        let outer = own_rows(&dump);
        sections += check_sections(f, &outer, &readelf(&["-SW"], f).unwrap());
        symbols += check_symbols(f, &outer, &readelf(&["-sW"], f).unwrap());
    }
    eprintln!(
        "{} files, {sections} sections, {symbols} symbols agree with readelf",
        files.len()
    );
}

/// The section and symbol rows of the outer file: those after the last `section 0` row.
fn own_rows(dump: &str) -> String {
    let lines: Vec<&str> = dump.lines().collect();
    // The host's own section 0 is the last "section 0 " line whose file is the outer one:
    // the embedded cubin's rows come first, so take rows after the last section-0 restart.
    let Some(start) = lines.iter().rposition(|l| l.starts_with("section 0 ")) else {
        return String::new();
    };
    lines[start..].iter().map(|l| format!("{l}\n")).collect()
}
