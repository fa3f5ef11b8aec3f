//! Diagnostics as values. The library never prints: every error, warning and info a link
//! produces is a [`Diagnostic`] carrying nvlink's message text and what it is about; the CLI
//! formats them (`nvlink error   : ...`) and picks the exit status.

use std::fmt;

/// How bad a diagnostic is, in nvlink's four levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// `info`: informational (e.g. `-v` statistics).
    Info,
    /// `warning`: the link goes on.
    Warning,
    /// An `error` line that does not fail the link (observed: `Uncompress failed` for a
    /// fatbin entry that cannot be decompressed; nvlink goes on without it and exits 0).
    UncountedError,
    /// `error`: the link goes on to report more, then fails (nvlink exits 255).
    Error,
    /// `fatal`: the link stops at once (nvlink exits 1).
    Fatal,
    /// A line another tool printed (nvlink's embedded ptxas), shown as it is, without
    /// nvlink's prefix; it does not change the exit status.
    Verbatim,
}

impl Severity {
    /// The severity word as nvlink pads it after its name: `error  `, `warning`, `fatal  `, `info   `.
    pub fn padded(self) -> &'static str {
        match self {
            Severity::Info => "info   ",
            Severity::Warning => "warning",
            Severity::Error | Severity::UncountedError => "error  ",
            Severity::Fatal => "fatal  ",
            Severity::Verbatim => "",
        }
    }
}

/// One message from a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// The message exactly as nvlink words it, without the `nvlink <severity> : ` prefix.
    pub message: String,
    /// The input file (or `archive:member`) it is about, if any.
    pub file: Option<String>,
    /// The symbol it is about, if any.
    pub symbol: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with no file or symbol context.
    pub fn new(severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            message: message.into(),
            file: None,
            symbol: None,
        }
    }
    /// Adds the file context.
    pub fn in_file(mut self, file: impl Into<String>) -> Diagnostic {
        self.file = Some(file.into());
        self
    }
    /// Adds the symbol context.
    pub fn about_symbol(mut self, symbol: impl Into<String>) -> Diagnostic {
        self.symbol = Some(symbol.into());
        self
    }
    /// The line nvlink prints for this diagnostic, with `program` in place of `nvlink`.
    pub fn render(&self, program: &str) -> String {
        format!("{program} {} : {}", self.severity.padded(), self.message)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render("nvlink"))
    }
}

/// The diagnostics of one link, in the order they arose.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Records a diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }
    /// Records a warning.
    pub fn warn(&mut self, message: impl Into<String>) {
        self.push(Diagnostic::new(Severity::Warning, message));
    }
    /// Records an error.
    pub fn error(&mut self, message: impl Into<String>) {
        self.push(Diagnostic::new(Severity::Error, message));
    }
    /// Records an info.
    pub fn info(&mut self, message: impl Into<String>) {
        self.push(Diagnostic::new(Severity::Info, message));
    }
    /// All diagnostics in order.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter()
    }
    /// Whether an error or fatal was recorded.
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity >= Severity::Error)
    }
    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// Moves the diagnostics out.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }
}
