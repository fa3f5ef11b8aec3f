//! How close is one device image to another? The truth machine behind `elfw cmp` and the corpus
//! scoreboard: nvlink's image is expected, ours is actual.
//!
//! Verdicts, strongest first ([`Verdict`]):
//! - **IDENTICAL**: the same bytes.
//! - **EQUAL**: the same image laid out at other file offsets. Compared in order: the ELF
//!   header except `e_phoff`/`e_shoff`; every section's name, type, flags, addr, link, info,
//!   addralign, entsize, size and contents (not for sections without file bytes); every symbol's
//!   name (as a string), info, other, section index, value and size; every program header's
//!   type, flags, vaddr, paddr, align, its memory-only tail (`p_memsz - p_filesz`) and what
//!   it spans (sections and header tables in order, with their sizes); where those sit inside
//!   the segment, and so `p_filesz`, follows from file offsets and may differ.
//!   The first note of `.note.nv.tkinfo` (the linker's own) is left out, from the contents and
//!   from `sh_size`. Bytes outside every section and header table (padding) are not compared.
//! - **EQUIVALENT**: equal once order is canonicalised: sections and symbols matched by name;
//!   section and symbol indices (in `sh_link`, `sh_info`, `st_shndx`, `e_shstrndx`,
//!   relocations, `.nv.info` records, `.nv.callgraph`, `.nv.prototype`) translated to names;
//!   relocations, `.nv.info` records, call-graph and prototype entries, the notes after the
//!   first in `.note.nv.tkinfo`, and the strings of string tables compared as multisets;
//!   program headers by the set of sections they span and the bytes those hold.
//! - **DIFFERENT**: none of the above, with the differences found.
//!
//! The library never prints: [`Comparison`] and [`Difference`] implement `Display` for the CLI.

mod canonical;
pub mod formats;
mod image;
mod ordered;

use image::Image;
use std::fmt;

/// How many differences a comparison records; the rest are only counted.
pub const MAX_RECORDED: usize = 200;

/// Which of the two files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// The reference image (nvlink's).
    Expected,
    /// The image under test (elfw's).
    Actual,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Expected => "expected",
            Side::Actual => "actual",
        })
    }
}

/// The outcome of a comparison, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Byte-identical files.
    Identical,
    /// The same image at other file offsets.
    Equal,
    /// The same image once order is canonicalised.
    Equivalent,
    /// Not the same image.
    Different,
    /// A file is not ELF or is damaged (a structure lies outside the file, a bad name offset ...).
    Malformed(Side),
}

impl Verdict {
    /// The verdict word: `IDENTICAL`, `EQUAL`, `EQUIVALENT`, `DIFFERENT` or `MALFORMED`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Identical => "IDENTICAL",
            Verdict::Equal => "EQUAL",
            Verdict::Equivalent => "EQUIVALENT",
            Verdict::Different => "DIFFERENT",
            Verdict::Malformed(_) => "MALFORMED",
        }
    }
    /// The exit status of `elfw cmp`: 0 for the first three verdicts, 1 for DIFFERENT, 2 when
    /// a file is not a well-formed ELF file.
    pub fn exit_status(self) -> i32 {
        match self {
            Verdict::Identical | Verdict::Equal | Verdict::Equivalent => 0,
            Verdict::Different => 1,
            Verdict::Malformed(_) => 2,
        }
    }
    /// Whether this verdict is `other` or stronger (a malformed file is weaker than anything).
    pub fn at_least(self, other: Verdict) -> bool {
        self <= other
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// What a [`Difference`] is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The file as a whole (malformed input, or layout notes).
    File,
    /// The ELF file header.
    Header,
    /// A section, with its index in each file where it exists.
    Section {
        /// Its name.
        name: String,
        /// Index in the expected file.
        expected: Option<u32>,
        /// Index in the actual file.
        actual: Option<u32>,
    },
    /// A symbol of a symbol table.
    Symbol {
        /// The symbol table's name (`.symtab`, `.nv.merc.symtab`).
        table: String,
        /// The symbol's name (or `[section <name>]` for an unnamed section symbol).
        name: String,
        /// Index in the expected file.
        expected: Option<u32>,
        /// Index in the actual file.
        actual: Option<u32>,
    },
    /// A program header, by its index.
    Segment {
        /// Index in the program header table.
        index: u32,
        /// `p_type` of the expected one (or the actual one if only that exists).
        p_type: u32,
    },
}

fn indices(f: &mut fmt::Formatter<'_>, e: Option<u32>, a: Option<u32>) -> fmt::Result {
    match (e, a) {
        (Some(e), Some(a)) if e == a => write!(f, "[{e}] "),
        (Some(e), Some(a)) => write!(f, "[{e}→{a}] "),
        (Some(e), None) => write!(f, "[{e}→none] "),
        (None, Some(a)) => write!(f, "[none→{a}] "),
        (None, None) => Ok(()),
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::File => f.write_str("file"),
            Subject::Header => f.write_str("ELF header"),
            Subject::Section {
                name,
                expected,
                actual,
            } => {
                f.write_str("section ")?;
                indices(f, *expected, *actual)?;
                f.write_str(name)
            }
            Subject::Symbol {
                table,
                name,
                expected,
                actual,
            } => {
                write!(f, "symbol {table}")?;
                indices(f, *expected, *actual)?;
                f.write_str(name)
            }
            Subject::Segment { index, p_type } => {
                let t = match *p_type {
                    1 => "LOAD".to_string(),
                    6 => "PHDR".to_string(),
                    t => format!("{t:#x}"),
                };
                write!(f, "program header [{index}] {t}")
            }
        }
    }
}

/// One difference, in terms a person can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// What differs.
    pub subject: Subject,
    /// Which field or aspect (`sh_flags`, `contents`, `st_value`, `presence`, `relocation` ...).
    pub field: String,
    /// For contents: the first differing byte offset within the section.
    pub offset: Option<u64>,
    /// The expected value, formatted.
    pub expected: String,
    /// The actual value, formatted.
    pub actual: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.subject, self.field)?;
        if let Some(o) = self.offset {
            write!(f, " at +{o:#x}")?;
        }
        write!(
            f,
            ": expected {}, actual {}",
            clip(&self.expected),
            clip(&self.actual)
        )
    }
}

/// A value cut to 200 characters for display; the record keeps it whole.
fn clip(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &s[..at]).into(),
        None => s.into(),
    }
}

/// The result of [`compare`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The verdict.
    pub verdict: Verdict,
    /// For DIFFERENT: the differences, after canonicalising order (so a reordering alone does
    /// not flood the list). For EQUIVALENT: why the files are not EQUAL. For EQUAL: where the
    /// layout first differs. For MALFORMED: what is wrong. At most [`MAX_RECORDED`].
    pub differences: Vec<Difference>,
    /// How many further differences were found but not recorded.
    pub omitted: usize,
}

impl fmt::Display for Comparison {
    /// The verdict word, then up to 20 differences, one per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.verdict)?;
        let lead = match self.verdict {
            Verdict::Equal => "layout: ",
            Verdict::Equivalent => "not EQUAL: ",
            _ => "",
        };
        for d in self.differences.iter().take(20) {
            writeln!(f, "  {lead}{d}")?;
        }
        let more = self.differences.len().saturating_sub(20) + self.omitted;
        if more > 0 {
            writeln!(f, "  ... and {more} more")?;
        }
        Ok(())
    }
}

/// Collects differences up to [`MAX_RECORDED`].
#[derive(Default)]
pub(crate) struct Diffs {
    list: Vec<Difference>,
    omitted: usize,
}

impl Diffs {
    pub fn push(
        &mut self,
        subject: Subject,
        field: impl Into<String>,
        expected: impl ToString,
        actual: impl ToString,
    ) {
        self.push_at(subject, field, None, expected, actual);
    }
    pub fn push_at(
        &mut self,
        subject: Subject,
        field: impl Into<String>,
        offset: Option<u64>,
        expected: impl ToString,
        actual: impl ToString,
    ) {
        if self.list.len() >= MAX_RECORDED {
            self.omitted += 1;
            return;
        }
        self.list.push(Difference {
            subject,
            field: field.into(),
            offset,
            expected: expected.to_string(),
            actual: actual.to_string(),
        });
    }
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted == 0
    }
    fn into_comparison(self, verdict: Verdict) -> Comparison {
        Comparison {
            verdict,
            differences: self.list,
            omitted: self.omitted,
        }
    }
}

/// Compares two device images (see the module documentation for what each verdict means).
/// Never panics: malformed input yields [`Verdict::Malformed`] naming the side (identical
/// bytes that are not ELF at all, such as `-emit-ptx` outputs, are [`Verdict::Identical`]).
pub fn compare(expected: &[u8], actual: &[u8]) -> Comparison {
    // (The same bytes that are not ELF at all are identical: `-emit-ptx` outputs are PTX
    // text. A damaged ELF file is still reported as malformed.)
    if expected == actual && !expected.starts_with(b"\x7fELF") {
        return Diffs::default().into_comparison(Verdict::Identical);
    }
    let load = |data, side| {
        Image::load(data).map_err(|e| {
            let mut d = Diffs::default();
            d.push(Subject::File, format!("{side} file is malformed"), "ELF", e);
            d.into_comparison(Verdict::Malformed(side))
        })
    };
    let e = match load(expected, Side::Expected) {
        Ok(i) => i,
        Err(c) => return c,
    };
    let a = match load(actual, Side::Actual) {
        Ok(i) => i,
        Err(c) => return c,
    };
    if expected == actual {
        return Diffs::default().into_comparison(Verdict::Identical);
    }
    let mut ordered_diffs = Diffs::default();
    ordered::compare(&e, &a, &mut ordered_diffs);
    if ordered_diffs.is_empty() {
        let mut layout = Diffs::default();
        ordered::layout_notes(&e, &a, &mut layout);
        return layout.into_comparison(Verdict::Equal);
    }
    let mut canonical_diffs = Diffs::default();
    canonical::compare(&e, &a, &mut canonical_diffs);
    if canonical_diffs.is_empty() {
        return ordered_diffs.into_comparison(Verdict::Equivalent);
    }
    canonical_diffs.into_comparison(Verdict::Different)
}

/// The first offset where `e` and `a` differ (the shorter length if one is a prefix).
pub(crate) fn first_mismatch(e: &[u8], a: &[u8]) -> Option<usize> {
    e.iter()
        .zip(a)
        .position(|(x, y)| x != y)
        .or(if e.len() != a.len() {
            Some(e.len().min(a.len()))
        } else {
            None
        })
}

/// Up to 8 bytes either side of `at`, the byte at `at` in brackets.
pub(crate) fn byte_window(d: &[u8], at: usize) -> String {
    let lo = at.saturating_sub(8);
    let hi = (at + 9).min(d.len());
    let mut s = String::new();
    if lo > 0 {
        s.push_str("… ");
    }
    for (i, b) in d.iter().enumerate().take(hi).skip(lo) {
        if i == at {
            s.push_str(&format!("[{b:02x}] "));
        } else {
            s.push_str(&format!("{b:02x} "));
        }
    }
    if at >= d.len() {
        s.push_str("[end] ");
    } else if hi < d.len() {
        s.push_str("… ");
    }
    s.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_mark_the_byte() {
        let d: Vec<u8> = (0..32).collect();
        assert_eq!(byte_window(&d, 0), "[00] 01 02 03 04 05 06 07 08 …");
        assert_eq!(
            byte_window(&d, 20),
            "… 0c 0d 0e 0f 10 11 12 13 [14] 15 16 17 18 19 1a 1b 1c …"
        );
        assert_eq!(byte_window(&d[..4], 4), "00 01 02 03 [end]");
        assert_eq!(first_mismatch(b"abc", b"abd"), Some(2));
        assert_eq!(first_mismatch(b"ab", b"abc"), Some(2));
        assert_eq!(first_mismatch(b"ab", b"ab"), None);
    }

    #[test]
    fn not_elf_is_malformed_not_a_panic() {
        let c = compare(b"hello", b"hellp");
        assert_eq!(c.verdict, Verdict::Malformed(Side::Expected));
        // The same bytes that are not ELF are identical (`-emit-ptx` writes PTX).
        assert_eq!(compare(b"hello", b"hello").verdict, Verdict::Identical);
        assert_eq!(c.verdict.exit_status(), 2);
        let mut truncated = b"\x7fELF\x02\x01\x01".to_vec();
        truncated.resize(40, 0);
        assert_eq!(
            compare(&truncated, &truncated).verdict,
            Verdict::Malformed(Side::Expected)
        );
        assert!(Verdict::Identical.at_least(Verdict::Equal));
        assert!(!Verdict::Equivalent.at_least(Verdict::Equal));
    }
}
