//! The toolkit's libnvvm, loaded at run time as nvlink loads it: the one place elfw calls
//! foreign code, so every `unsafe` block of the LTO path is here.
//!
//! nvlink 13.5.37 (observed with a logging stand-in for `libnvvm.so` and the wiki's "libnvvm
//! Integration" page):
//! - opens `<nvvmpath>/lib64/libnvvm.so` with `dlopen(RTLD_NOW)` as soon as `-lto`/`-dlto` is
//!   given (before reading any input); failing that: fatal `elfLink linker library load error`;
//! - creates one program (`nvvmCreateProgram`);
//! - adds each LTO-IR module (the fatbin entry's bytes, decompressed) through the private entry
//!   point `__nvvmHandle(8320)`, called as `(program, data, size, name)` with the input's name;
//! - compiles with `nvvmCompileProgram`: status 100 means the whole program was compiled as
//!   one unit, 0 a relocatable (partial) result; anything else fails;
//! - reads the program log and the PTX (`nvvmGetCompiledResult`), then destroys the program;
//! - under `-v2`, before compiling, registers a progress callback through
//!   `__nvvmHandle(48832)`, called as `(program, callback, NULL)`; libnvvm calls it as
//!   `(message, length, data)` with each stage's line (`  Running LTO step\n`, observed with a
//!   debugger), which nvlink prints.
//!
//! Calls into the library are made on the calling thread only, one program at a time.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};

/// nvvmCompileProgram's status for a whole-program compile (nvlink's reading of it).
pub const WHOLE_PROGRAM: c_int = 100;

/// `__nvvmHandle`'s code for the add-module entry point nvlink uses.
const ADD_MODULE: c_int = 8320;

/// `__nvvmHandle`'s code for the entry point that tells how many PTX modules the compile made
/// (`(program, int *count)`): more than one under `-split-compile-extended` (observed).
const RESULT_COUNT: c_int = 61453;

/// `__nvvmHandle`'s code for the entry point that gives each PTX module's size
/// (`(program, count, size_t *sizes)`); the result buffer holds the modules back to back.
const RESULT_SIZES: c_int = 45242;

/// `__nvvmHandle`'s code for the entry point that registers a progress callback
/// (`(program, callback, data)`).
const PROGRESS_CALLBACK: c_int = 48832;

/// What went wrong with libnvvm.
#[derive(Debug, thiserror::Error)]
pub enum NvvmError {
    /// The library could not be opened.
    #[error("cannot load {path}: {reason}")]
    Load {
        /// `<nvvmpath>/lib64/libnvvm.so`.
        path: PathBuf,
        /// What the loader said.
        reason: String,
    },
    /// A symbol nvlink uses is missing from the library.
    #[error("libnvvm has no {0}")]
    MissingSymbol(&'static str),
    /// A call failed with this NVVM status.
    #[error("{call} failed: {message}")]
    Call {
        /// The call.
        call: &'static str,
        /// libnvvm's name for the status.
        message: String,
    },
    /// `nvvmCompileProgram` failed: the program log followed by the status's name, as nvlink
    /// prints it (`<log><status>`; libnvvm's own log of a bad option starts `libnvvm : `,
    /// a failed compile's is `Error encountered while compiling`).
    #[error("{0}")]
    Compile(String),
    /// A module name or option holds a NUL byte.
    #[error("a libnvvm argument holds a NUL byte")]
    Nul,
}

/// What one compile produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// `nvvmCompileProgram`'s status: [`WHOLE_PROGRAM`] or 0.
    pub status: i32,
    /// The PTX text (without the terminating NUL): every module, back to back.
    pub ptx: Vec<u8>,
    /// Each PTX module's length in [`Compiled::ptx`], in order (one module unless the
    /// compile was split).
    pub module_sizes: Vec<usize>,
    /// The program log (empty when libnvvm said nothing).
    pub log: String,
}

type Program = *mut c_void;
type CreateFn = unsafe extern "C" fn(*mut Program) -> c_int;
type DestroyFn = unsafe extern "C" fn(*mut Program) -> c_int;
type HandleFn = unsafe extern "C" fn(c_int) -> *const c_void;
type AddFn = unsafe extern "C" fn(Program, *const c_char, usize, *const c_char) -> c_int;
type CompileFn = unsafe extern "C" fn(Program, c_int, *const *const c_char) -> c_int;
type SizeFn = unsafe extern "C" fn(Program, *mut usize) -> c_int;
type BufferFn = unsafe extern "C" fn(Program, *mut c_char) -> c_int;
type ErrorStringFn = unsafe extern "C" fn(c_int) -> *const c_char;
type CountFn = unsafe extern "C" fn(Program, *mut c_int) -> c_int;
type SizesFn = unsafe extern "C" fn(Program, usize, *mut usize) -> c_int;
type ProgressFn = unsafe extern "C" fn(*const c_char, usize, *mut c_void) -> c_int;
type SetProgressFn = unsafe extern "C" fn(Program, ProgressFn, *mut c_void) -> c_int;

/// libnvvm's progress lines, as the callback collects them.
type ProgressLines = std::sync::Mutex<Vec<String>>;

/// The progress callback: appends `message` (`length` bytes) to the [`ProgressLines`] that
/// `data` points to.
unsafe extern "C" fn collect_progress(
    message: *const c_char,
    length: usize,
    data: *mut c_void,
) -> c_int {
    if message.is_null() || data.is_null() {
        return 0;
    }
    // SAFETY: libnvvm passes `length` readable bytes at `message`, and `data` is the
    // `ProgressLines` registered with the callback, alive as long as the program.
    let (bytes, lines) = unsafe {
        (
            std::slice::from_raw_parts(message.cast::<u8>(), length),
            &*(data as *const ProgressLines),
        )
    };
    if let Ok(mut lines) = lines.lock() {
        lines.push(String::from_utf8_lossy(bytes).into_owned());
    }
    0
}

/// An opened libnvvm. It is never closed: an LLVM-based library is not made to be unloaded
/// and loaded again within a process (nvlink loads it once and exits); the loader's reference
/// count keeps one copy however many links open it.
pub struct Libnvvm {
    lib: std::mem::ManuallyDrop<libloading::Library>,
}

impl std::fmt::Debug for Libnvvm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Libnvvm")
    }
}

/// One LTO-IR module to add.
#[derive(Clone, Copy, Debug)]
pub struct Module<'a> {
    /// The name nvlink passes (the input's name).
    pub name: &'a str,
    /// The IR bytes.
    pub ir: &'a [u8],
}

impl Libnvvm {
    /// Where nvlink looks: `<nvvmpath>/lib64/libnvvm.so`.
    pub fn path_in(nvvmpath: &Path) -> PathBuf {
        nvvmpath.join("lib64").join("libnvvm.so")
    }

    /// Opens `<nvvmpath>/lib64/libnvvm.so` with every symbol bound now, as nvlink does.
    pub fn open(nvvmpath: &Path) -> Result<Libnvvm, NvvmError> {
        let path = Libnvvm::path_in(nvvmpath);
        let load = |reason: String| NvvmError::Load {
            path: path.clone(),
            reason,
        };
        #[cfg(unix)]
        {
            use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
            // SAFETY: loading runs the library's initialisers; libnvvm is the toolkit's own
            // library, loaded the way nvlink loads it.
            let lib = unsafe { Library::open(Some(&path), RTLD_NOW | RTLD_LOCAL) }
                .map_err(|e| load(e.to_string()))?;
            Ok(Libnvvm {
                lib: std::mem::ManuallyDrop::new(lib.into()),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = &path;
            Err(load("libnvvm is loaded on Unix-like systems only".into()))
        }
    }

    /// The function `name` of type `T` (a function pointer type matching libnvvm's
    /// declaration).
    fn symbol<T: Copy>(&self, name: &'static str) -> Result<T, NvvmError> {
        // SAFETY: every `T` this module asks for is the C signature libnvvm 13.x declares
        // for `name` (nvvm.h, and `__nvvmHandle` as nvlink calls it); the pointer does not
        // outlive `self.lib`, which outlives every call below.
        unsafe {
            self.lib
                .get::<T>(name.as_bytes())
                .map(|s| *s)
                .map_err(|_| NvvmError::MissingSymbol(name))
        }
    }

    fn error_string(&self, status: c_int) -> String {
        let Ok(f) = self.symbol::<ErrorStringFn>("nvvmGetErrorString") else {
            return format!("NVVM status {status}");
        };
        // SAFETY: nvvmGetErrorString returns a static NUL-terminated string (or NULL).
        unsafe {
            let s = f(status);
            if s.is_null() {
                format!("NVVM status {status}")
            } else {
                CStr::from_ptr(s).to_string_lossy().into_owned()
            }
        }
    }

    /// Creates a program, adds `modules` in order, compiles it with `options` and returns the
    /// result; the program is destroyed whatever happens.
    pub fn compile(
        &self,
        modules: &[Module<'_>],
        options: &[String],
    ) -> Result<Compiled, NvvmError> {
        let mut program = self.program()?;
        for m in modules {
            program.add(m)?;
        }
        program.compile(options)
    }

    /// A new, empty program (nvlink adds each module as it reads its input).
    pub fn program(&self) -> Result<NvvmProgram<'_>, NvvmError> {
        let create = self.symbol::<CreateFn>("nvvmCreateProgram")?;
        let destroy = self.symbol::<DestroyFn>("nvvmDestroyProgram")?;
        let mut program: Program = std::ptr::null_mut();
        // SAFETY: `program` is a valid place for the handle.
        let status = unsafe { create(&mut program) };
        if status != 0 || program.is_null() {
            return Err(NvvmError::Call {
                call: "nvvmCreateProgram",
                message: self.error_string(status),
            });
        }
        Ok(NvvmProgram {
            lib: self,
            program,
            destroy,
            progress: None,
        })
    }
}

/// A libnvvm program being built: modules are added one by one, then it is compiled once.
/// Dropping it destroys the program.
pub struct NvvmProgram<'l> {
    lib: &'l Libnvvm,
    program: Program,
    destroy: DestroyFn,
    /// The progress lines, once [`NvvmProgram::report_progress`] asked for them (boxed: libnvvm
    /// holds their address).
    progress: Option<Box<ProgressLines>>,
}

impl std::fmt::Debug for NvvmProgram<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NvvmProgram")
    }
}

impl Drop for NvvmProgram<'_> {
    fn drop(&mut self) {
        // SAFETY: `program` came from nvvmCreateProgram and is destroyed once, here.
        unsafe { (self.destroy)(&mut self.program) };
    }
}

impl NvvmProgram<'_> {
    /// Adds one LTO-IR module through `__nvvmHandle(8320)`, as nvlink does; libnvvm checks
    /// the IR here (nvlink's `elfLink nvvm error` when it refuses it).
    pub fn add(&mut self, m: &Module<'_>) -> Result<(), NvvmError> {
        let handle = self.lib.symbol::<HandleFn>("__nvvmHandle")?;
        // SAFETY: __nvvmHandle takes a code and returns a function pointer or NULL.
        let add = unsafe { handle(ADD_MODULE) };
        if add.is_null() {
            return Err(NvvmError::MissingSymbol("__nvvmHandle(8320)"));
        }
        // SAFETY: code 8320 yields the add-module function, called as nvlink calls it:
        // (program, data, size, name).
        let add: AddFn = unsafe { std::mem::transmute::<*const c_void, AddFn>(add) };
        let name = CString::new(m.name).map_err(|_| NvvmError::Nul)?;
        // SAFETY: the data and name outlive the call; libnvvm copies what it keeps.
        let status = unsafe {
            add(
                self.program,
                m.ir.as_ptr().cast(),
                m.ir.len(),
                name.as_ptr(),
            )
        };
        if status != 0 {
            return Err(NvvmError::Call {
                call: "adding an LTO-IR module",
                message: self.lib.error_string(status),
            });
        }
        Ok(())
    }

    /// Asks libnvvm for its progress lines during the compile (nvlink's `-v2`); see
    /// [`NvvmProgram::take_progress`].
    pub fn report_progress(&mut self) -> Result<(), NvvmError> {
        let handle = self.lib.symbol::<HandleFn>("__nvvmHandle")?;
        // SAFETY: __nvvmHandle takes a code and returns a function pointer or NULL.
        let set = unsafe { handle(PROGRESS_CALLBACK) };
        if set.is_null() {
            return Err(NvvmError::MissingSymbol("__nvvmHandle(48832)"));
        }
        // SAFETY: code 48832 yields the callback-registering function, called as nvlink
        // calls it: (program, callback, data).
        let set: SetProgressFn =
            unsafe { std::mem::transmute::<*const c_void, SetProgressFn>(set) };
        let lines = self.progress.get_or_insert_with(Default::default);
        let data = (&**lines as *const ProgressLines)
            .cast_mut()
            .cast::<c_void>();
        // SAFETY: `data` stays valid until the program is destroyed (the box lives in `self`,
        // dropped after `destroy` runs in `Drop`).
        let status = unsafe { set(self.program, collect_progress, data) };
        if status != 0 {
            return Err(NvvmError::Call {
                call: "registering the progress callback",
                message: self.lib.error_string(status),
            });
        }
        Ok(())
    }

    /// The progress lines libnvvm reported so far, each with its newline (none unless
    /// [`NvvmProgram::report_progress`] asked for them).
    pub fn take_progress(&mut self) -> Vec<String> {
        self.progress
            .as_ref()
            .and_then(|p| p.lock().ok().map(|mut l| std::mem::take(&mut *l)))
            .unwrap_or_default()
    }

    /// Compiles the program with `options` and returns the status, the PTX and the log.
    pub fn compile(&mut self, options: &[String]) -> Result<Compiled, NvvmError> {
        let lib = self.lib;
        let program = self.program;
        let compile = lib.symbol::<CompileFn>("nvvmCompileProgram")?;
        let result_size = lib.symbol::<SizeFn>("nvvmGetCompiledResultSize")?;
        let result = lib.symbol::<BufferFn>("nvvmGetCompiledResult")?;
        let log_size = lib.symbol::<SizeFn>("nvvmGetProgramLogSize")?;
        let log = lib.symbol::<BufferFn>("nvvmGetProgramLog")?;
        let call = |call: &'static str, status: c_int| NvvmError::Call {
            call,
            message: lib.error_string(status),
        };
        let owned: Vec<CString> = options
            .iter()
            .map(|o| CString::new(o.as_str()).map_err(|_| NvvmError::Nul))
            .collect::<Result<_, _>>()?;
        let pointers: Vec<*const c_char> = owned.iter().map(|o| o.as_ptr()).collect();
        let count = c_int::try_from(pointers.len()).map_err(|_| NvvmError::Nul)?;
        // SAFETY: `pointers` holds `count` NUL-terminated strings alive for the call.
        let status = unsafe { compile(program, count, pointers.as_ptr()) };
        let read = |size_fn: SizeFn, buf_fn: BufferFn| -> Result<Vec<u8>, c_int> {
            let mut size = 0usize;
            // SAFETY: `size` is a valid place for the size.
            let s = unsafe { size_fn(program, &mut size) };
            if s != 0 {
                return Err(s);
            }
            let mut buf = vec![0u8; size.max(1)];
            // SAFETY: the buffer holds the `size` bytes libnvvm said it needs.
            let s = unsafe { buf_fn(program, buf.as_mut_ptr().cast()) };
            if s != 0 {
                return Err(s);
            }
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            buf.truncate(end);
            Ok(buf)
        };
        let log_text = read(log_size, log)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        if status != 0 && status != WHOLE_PROGRAM {
            return Err(NvvmError::Compile(format!(
                "{log_text}{}",
                lib.error_string(status)
            )));
        }
        let ptx = read(result_size, result).map_err(|s| call("nvvmGetCompiledResult", s))?;
        let module_sizes = self.module_sizes(ptx.len())?;
        Ok(Compiled {
            status,
            ptx,
            module_sizes,
            log: log_text,
        })
    }

    /// The PTX modules' sizes, asked as nvlink asks (`__nvvmHandle(61453)` and `(45242)`);
    /// one module of `total` bytes when the library does not say, or says something that does
    /// not add up.
    fn module_sizes(&self, total: usize) -> Result<Vec<usize>, NvvmError> {
        let handle = self.lib.symbol::<HandleFn>("__nvvmHandle")?;
        // SAFETY: __nvvmHandle takes a code and returns a function pointer or NULL.
        let (count_fn, sizes_fn) = unsafe { (handle(RESULT_COUNT), handle(RESULT_SIZES)) };
        if count_fn.is_null() || sizes_fn.is_null() {
            return Ok(vec![total]);
        }
        // SAFETY: code 61453 yields `int (*)(program, int *count)` (as nvlink calls it).
        let count_fn: CountFn = unsafe { std::mem::transmute::<*const c_void, CountFn>(count_fn) };
        let mut count: c_int = 0;
        // SAFETY: `count` is a valid place for an int.
        if unsafe { count_fn(self.program, &mut count) } != 0 || count <= 1 || count > 4096 {
            return Ok(vec![total]);
        }
        let n = count as usize;
        // SAFETY: code 45242 yields `int (*)(program, count, size_t *sizes)`, filling `count`
        // sizes (as nvlink calls it).
        let sizes_fn: SizesFn = unsafe { std::mem::transmute::<*const c_void, SizesFn>(sizes_fn) };
        let mut sizes = vec![0usize; n];
        // SAFETY: `sizes` holds `n` elements.
        if unsafe { sizes_fn(self.program, n, sizes.as_mut_ptr()) } != 0
            || sizes.iter().try_fold(0usize, |a, &b| a.checked_add(b)) != Some(total)
        {
            return Ok(vec![total]);
        }
        Ok(sizes)
    }
}
