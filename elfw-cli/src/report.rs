//! Reports nvlink prints about a link, computed from the finished image (and the input
//! cubins where the image no longer says it): the `-v` resource lines, the
//! `--dump-callgraph` text, and elfw's own `--print-map`.
//!
//! Demangling uses the `cpp_demangle` crate; nvlink's demangler differs from it on deleting
//! destructors (`D0`), which nvlink prints with a ` [deleting]` suffix — added here. The
//! corpus names (`sm90_dump_callgraph*`) demangle identically otherwise.

use elfw_core::elf::consts::{
    SHT_CUDA_GLOBAL, SHT_CUDA_LOCAL, SHT_CUDA_SHARED, SHT_CUDA_SHARED_RESERVED, SHT_NOBITS,
};
use elfw_core::elf::ElfFile;
use elfw_core::link::{Callgraph, CallgraphNode, MapReason};
use elfw_core::linker::KeptCubin;
use elfw_core::nvinfo::{self, Value};
use elfw_core::target::Target;
use elfw_core::Linked;
use std::collections::HashMap;

const STT_FUNC: u8 = 2;
const STO_CUDA_ENTRY: u8 = 0x10;
const SHN_UNDEF: u32 = 0;
const EIATTR_FRAME_SIZE: u8 = 0x11;
const EIATTR_MIN_STACK_SIZE: u8 = 0x12;
const EIATTR_MAX_STACK_SIZE: u8 = 0x23;
const EIATTR_REGCOUNT: u8 = 0x2f;
const EIATTR_NUM_BARRIERS: u8 = 0x4c;
const STT_CUDA_TEXTURE: u8 = 10;
const STT_CUDA_SAMPLER: u8 = 11;
const STT_CUDA_SURFACE: u8 = 12;

fn section_size(elf: &ElfFile<'_>, name: &str) -> u64 {
    elf.section_by_name(name.as_bytes())
        .and_then(|i| elf.section(i).ok())
        .map_or(0, |s| s.size)
}

/// `(attribute, symbol index) → value` of the per-function records of `.nv.info`.
fn function_records(elf: &ElfFile<'_>) -> HashMap<(u8, u32), u32> {
    let mut map = HashMap::new();
    let Some(i) = elf.section_by_name(b".nv.info") else {
        return map;
    };
    let Ok(data) = elf.section_data(i) else {
        return map;
    };
    for r in nvinfo::records(data).flatten() {
        if let Some((sym, v)) = r.symbol_and_value() {
            map.insert((r.attribute, sym), v);
        }
    }
    map
}

fn barriers(elf: &ElfFile<'_>, name: &str) -> Option<u32> {
    let i = elf.section_by_name(format!(".nv.info.{name}").as_bytes())?;
    let data = elf.section_data(i).ok()?;
    nvinfo::records(data)
        .flatten()
        .find(|r| r.attribute == EIATTR_NUM_BARRIERS)
        .map(|r| match r.value {
            Value::Byte(b) => u32::from(b),
            Value::Half(h) => u32::from(h),
            _ => r.word(0).unwrap_or(0),
        })
}

/// The texture, surface and sampler references (distinct symbols) of kernel `name`'s
/// relocations, those of its code and of its constant bank 0 (observed, sm_75 and sm_90: a
/// kernel reading one `texture<>` and one `surface<>` reference gets `, 1 textures, 1
/// surfaces`, one with samplers `, 2 textures, 1 surfaces, 2 samplers`; the references are
/// relocations of `.nv.constant0.<k>` there).
fn texture_refs(elf: &ElfFile<'_>, name: &str) -> (u32, u32, u32) {
    let mut textures = Vec::new();
    let mut surfaces = Vec::new();
    let mut samplers = Vec::new();
    for prefix in [".rel", ".rela"] {
        for target in [".text", ".nv.constant0"] {
            let Some(i) = elf.section_by_name(format!("{prefix}{target}.{name}").as_bytes()) else {
                continue;
            };
            let Ok(rels) = elf.relocations(i) else {
                continue;
            };
            for r in rels {
                let Ok(sym) = elf.symbol(r.sym) else { continue };
                let list = match sym.sym_type() {
                    STT_CUDA_TEXTURE => &mut textures,
                    STT_CUDA_SURFACE => &mut surfaces,
                    STT_CUDA_SAMPLER => &mut samplers,
                    _ => continue,
                };
                if !list.contains(&r.sym) {
                    list.push(r.sym);
                }
            }
        }
    }
    (
        textures.len() as u32,
        surfaces.len() as u32,
        samplers.len() as u32,
    )
}

/// The number of sections without file data (`SHT_NOBITS`; in a `-r` image, where they keep
/// their CUDA types, global, local and shared memory). nvlink 13.5.37's `-v` starts its barrier
/// count from this (observed over 273 links: one uninitialized `__device__` variable → 1, an
/// initialized one → 0; 14 `.nv.shared.<k>` + `.nv.global` → 15; `-r`: `.nv.shared.<k>` +
/// `.nv_debug.shared` → 2).
///
/// Also a `-r` image's reserved shared window (`.nv.shared.reserved.0`, which keeps its CUDA
/// type there: observed, sm_110 → 1), but not the Mercury copies (`.nv.merc.*`, which keep
/// that type in final images too: observed, still 1).
fn nobits_sections(elf: &ElfFile<'_>) -> u32 {
    (0..elf.sections().len() as u32)
        .filter(|&i| {
            let Ok(s) = elf.section(i) else {
                return false;
            };
            matches!(
                s.sh_type,
                SHT_NOBITS
                    | SHT_CUDA_GLOBAL
                    | SHT_CUDA_LOCAL
                    | SHT_CUDA_SHARED
                    | SHT_CUDA_SHARED_RESERVED
            ) && !elf
                .section_name(i)
                .is_ok_and(|n| n.starts_with(b".nv.merc."))
        })
        .count() as u32
}

struct KernelStats {
    name: String,
    section: u32,
    textures: u32,
    surfaces: u32,
    samplers: u32,
    registers: u32,
    barriers: Option<u32>,
    stack: u32,
    smem: u64,
    cmem0: u64,
    cmem2: u64,
    lmem: u64,
}

fn kernels(elf: &ElfFile<'_>, image: bool, target: Target) -> Vec<KernelStats> {
    let records = function_records(elf);
    let mut out = Vec::new();
    for (idx, sym) in elf.symbols().enumerate() {
        let Ok(sym) = sym else { continue };
        if sym.sym_type() != STT_FUNC || sym.other & STO_CUDA_ENTRY == 0 || sym.shndx == SHN_UNDEF {
            continue;
        }
        let name = sym.name_lossy().into_owned();
        let idx = idx as u32;
        let stack = match records.get(&(EIATTR_MIN_STACK_SIZE, idx)) {
            Some(&v) if v != u32::MAX => v,
            // (A `-r` image has no MIN_STACK_SIZE: then ptxas's MAX_STACK_SIZE; observed,
            // sm_100 `-r`: a kernel calling vprintf shows 0 stack with an 8-byte frame.)
            _ => records
                .get(&(EIATTR_MAX_STACK_SIZE, idx))
                .or_else(|| records.get(&(EIATTR_FRAME_SIZE, idx)))
                .copied()
                .unwrap_or(0),
        };
        let mut smem = section_size(elf, &format!(".nv.shared.{name}"));
        if image && target.sm >= 100 {
            smem = smem.saturating_sub(1024);
        }
        let (textures, surfaces, samplers) = texture_refs(elf, &name);
        out.push(KernelStats {
            section: sym.shndx,
            textures,
            surfaces,
            samplers,
            registers: records.get(&(EIATTR_REGCOUNT, idx)).copied().unwrap_or(0),
            barriers: barriers(elf, &name),
            stack,
            smem,
            cmem0: section_size(elf, &format!(".nv.constant0.{name}")),
            cmem2: section_size(elf, &format!(".nv.constant2.{name}")),
            lmem: section_size(elf, &format!(".nv.local.{name}")),
            name,
        });
    }
    out
}

/// The `-v` lines (without the `nvlink info    : ` prefix): global memory (and, before
/// sm_100, constant bank 3), then per kernel in the reverse of code-section order its
/// registers, barriers, stack, shared memory, constant bank 0 (before sm_100), local
/// memory and (before sm_100, not in a `-r` link) its texture and surface references. nvlink 13.5.37 carries
/// the barrier count over from the kernel printed before when a kernel has no
/// `EIATTR_NUM_BARRIERS`, starting from the image's count of data-less sections; so does
/// this. A link refused after its merge reports the image it made nonetheless (registers
/// and stack propagated, shared memory laid out: observed); when there is no image at all,
/// the numbers come from the input cubins. A `relocatable` link's image holds no reserved
/// shared memory.
pub fn verbose_lines(
    image: Option<&[u8]>,
    cubins: &[KeptCubin],
    target: Target,
    relocatable: bool,
) -> Vec<String> {
    let elves: Vec<ElfFile<'_>> = match image {
        Some(img) => ElfFile::parse(img).into_iter().collect(),
        None => cubins
            .iter()
            .filter_map(|c| ElfFile::parse(&c.data).ok())
            .collect(),
    };
    let old = target.sm < 100;
    let mut gmem = 0;
    let mut cmem3 = 0;
    let mut all = Vec::new();
    for elf in &elves {
        gmem += section_size(elf, ".nv.global") + section_size(elf, ".nv.global.init");
        cmem3 += section_size(elf, ".nv.constant3");
        // (sm_100+: the final image's shared windows start with the 1 KiB reservation,
        // which `-v` leaves out; a `-r` image has none: observed, 512 bytes stay 512.)
        // Kernels in the order of their code sections (printed in reverse below; observed:
        // libcudadevrt's kernels, whose code follows the user's, come first, a `static` kernel
        // placed before the global ones comes last).
        let mut these = kernels(elf, image.is_some() && !relocatable, target);
        these.sort_by_key(|k| k.section);
        all.extend(these);
    }
    let mut lines = vec![if old && cmem3 > 0 {
        format!("{gmem} bytes gmem, {cmem3} bytes cmem[3]")
    } else {
        format!("{gmem} bytes gmem")
    }];
    // The count a kernel without `EIATTR_NUM_BARRIERS` shows is the one shown before it, and
    // before the first one the image's count of data-less sections (see `nobits_sections`).
    // (Also in a link refused after its merge, from the image it made: observed, sm_90, an
    // undefined reference with `.nv.global` and one kernel's `.nv.shared.<k>`: 2.)
    let mut barriers = match (image, elves.first()) {
        (Some(_), Some(elf)) => nobits_sections(elf),
        _ => 0,
    };
    for k in all.iter().rev() {
        if let Some(b) = k.barriers {
            barriers = b;
        }
        lines.push(format!("Function properties for '{}':", k.name));
        // A kernel's own constant bank 2 follows bank 0 (observed, sm_75 to sm_90: `52 bytes
        // cmem[2]` for a kernel with a 0x34-byte `.nv.constant2.<k>`, nothing for one without).
        let cmem0 = match (old, k.cmem2) {
            (false, _) => String::new(),
            (true, 0) => format!("{} bytes cmem[0], ", k.cmem0),
            (true, c2) => format!("{} bytes cmem[0], {c2} bytes cmem[2], ", k.cmem0),
        };
        let mut line = format!(
            "used {} registers, used {barriers} barriers, {} stack, {} bytes smem, {cmem0}{} bytes lmem",
            k.registers, k.stack, k.smem, k.lmem
        );
        // (Not in a `-r` link, nor from sm_100 on: observed, sm_100, sm_110 and sm_120 print
        // none for kernels whose constant bank 0 is relocated to texture/surface references.)
        let textures = old && !relocatable;
        if k.textures > 0 && textures {
            line.push_str(&format!(", {} textures", k.textures));
        }
        if k.surfaces > 0 && textures {
            line.push_str(&format!(", {} surfaces", k.surfaces));
        }
        if k.samplers > 0 && textures {
            line.push_str(&format!(", {} samplers", k.samplers));
        }
        lines.push(line);
    }
    lines
}

/// A mangled name as nvlink's `--dump-callgraph` shows it.
pub fn demangle(name: &str) -> String {
    demangle_as_edg(name, true)
}

/// [`demangle`]; `constructors`: mend constructor templates (see
/// [`constructor_template_with_return`]).
fn demangle_as_edg(name: &str, constructors: bool) -> String {
    // A file-local name made unique by the compiler, `__nv_static_<n>__<n characters>_Z…`: the
    // mangled name after the prefix (observed: libcudadevrt's `memset_3d_device` kernels).
    if let Some(mangled) = strip_static_prefix(name) {
        return demangle_as_edg(mangled, constructors);
    }
    // Only C++ names demangle: a C name such as `g` stays (cpp_demangle would read it as a
    // builtin type, `__float128`).
    if !name.starts_with("_Z") {
        return name.to_string();
    }
    // ptxas's clones of a function carry a `$<n>` suffix (`_Z4walkPii$1`, the recursive copy):
    // nvlink shows them under the function's own name (observed).
    let parsed =
        cpp_demangle::Symbol::new(name.as_bytes()).or_else(
            |e| match cpp_demangle::Symbol::with_tail(name.as_bytes()) {
                Ok((sym, tail)) if tail.first() == Some(&b'$') => Ok(sym),
                _ => Err(e),
            },
        );
    let Ok(sym) = parsed else {
        return name.to_string();
    };
    let mut named = TemplateParamNames::default();
    if sym
        .structured_demangle(&mut named, &cpp_demangle::DemangleOptions::default())
        .is_err()
    {
        return name.to_string();
    }
    let marked = marked_demangling(name);
    let numbers = marked.as_deref().map(marker_numbers);
    let finished = named.finish(&template_param_refs_declared(name), numbers.as_deref());
    let finished = match marked {
        Some(m) => pack_expansions(&finished, &m),
        None => finished,
    };
    let mut text =
        operator_spacing(&drop_internal_namespaces(&edg_style(&finished))).replace(NO_SPACE, "");
    if name.ends_with("D0Ev") || name.contains("D0E") {
        text.push_str(" [deleting]");
    }
    // The base-object constructor (observed: `_ZN4ExprC2Ev` is `Expr::Expr() [subobject]`,
    // `_ZN4ExprC1Ev` plain `Expr::Expr()`); the base-object destructor is marked alike in
    // EDG's demangler (not seen yet).
    if name.contains("C2E") || name.contains("C2I") || name.contains("D2E") {
        text.push_str(" [subobject]");
    }
    // A constructor template (`C2I…E`) has no return type, but cpp_demangle reads its first
    // parameter as one and prints `()`: demangled with a `void` return type put in (which
    // constructors do not print) where its name and template arguments come out the same
    // (observed: nvlink prints `duration<int, …>(const T1 &)`).
    if constructors {
        let (head, tail) = text.split_at(text.rfind("()").unwrap_or(text.len()));
        if let Some(suffix) = tail.strip_prefix("()") {
            let mended = constructor_template_with_return(name)
                .iter()
                .map(|c| demangle_as_edg(c, false))
                .find(|t| {
                    t.len() > text.len()
                        && t.starts_with(head)
                        && t[head.len()..].starts_with('(')
                        && t.ends_with(suffix)
                });
            if let Some(t) = mended {
                return t;
            }
        }
    }
    text
}

/// Operator names as EDG spells them: a space after `operator` before a symbol, none between
/// the symbol and the function's template arguments, and one before `operator new`'s and
/// `operator delete`'s parameters (observed: `operator ()() const`, `operator <<long long,
/// …>(…)` where `cpp_demangle` writes `operator< <long long, …>`, `operator new (unsigned
/// long, void *)`).
fn operator_spacing(text: &str) -> String {
    const SYMBOLS: &str = "+-*/%^&|~!=<>,()[]";
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(at) = rest.find("operator") {
        let starts_name = !rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        out.push_str(&rest[..at + "operator".len()]);
        rest = &rest[at + "operator".len()..];
        if !starts_name || rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let bare = rest.trim_start_matches(' ');
        if let Some(word) = ["new(", "delete("].iter().find(|w| bare.starts_with(**w)) {
            out.push(' ');
            out.push_str(&word[..word.len() - 1]);
            out.push_str(" (");
            rest = &bare[word.len()..];
            continue;
        }
        if !bare.starts_with(|c: char| SYMBOLS.contains(c)) {
            continue;
        }
        // The symbol: `()` and `[]` whole, else a run of operator characters.
        let len = if bare.starts_with("()") || bare.starts_with("[]") {
            2
        } else {
            bare.find(|c: char| !"+-*/%^&|~!=<>".contains(c))
                .unwrap_or(bare.len())
                .clamp(1, 3)
        };
        out.push(' ');
        out.push_str(&bare[..len]);
        rest = &bare[len..];
        if rest.starts_with(" <") {
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The mangled name inside `__nv_static_<n>__<n characters><mangled>`, if `name` is one.
fn strip_static_prefix(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("__nv_static_")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let n: usize = rest[..digits].parse().ok()?;
    let mangled = rest[digits..].strip_prefix("__")?.get(n..)?;
    mangled.starts_with("_Z").then_some(mangled)
}

/// Demangled text without the namespaces the compiler names `_INTERNAL_<unit id>` for a
/// translation unit's internal names: nvlink's demangler leaves them out (observed:
/// `cnprtCnpv2TranslateError(CNPerror_enum)` of libcudadevrt).
fn drop_internal_namespaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("_INTERNAL_") {
        let starts_name = at == 0
            || !rest[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let id_len = rest[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len() - at);
        let after = &rest[at + id_len..];
        if starts_name && after.starts_with("::") {
            out.push_str(&rest[..at]);
            rest = &after[2..];
        } else {
            out.push_str(&rest[..at + id_len]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Demangled text in which the template parameters a function's return type and parameters
/// use are named `T1`, `T2`, … by their place in the function's template arguments, as nvlink's
/// (EDG) demangler writes them (observed: `T1 both<double, int>(T1, T2, const T2 &, T1 *)`,
/// also inside a parameter's own template arguments: `memset_3d_device<unsigned int, …>
/// (MemsetParams<T1>)`); in the function's template arguments they stay spelt out.
#[derive(Default)]
struct TemplateParamNames {
    /// The text so far.
    out: String,
    /// The nodes entered: their type and where their text starts.
    open: Vec<(cpp_demangle::DemangleNodeType, usize)>,
    /// The template argument lists met outside another one, as text, and where their text
    /// is: the function's is the first one its parameter list follows (not the return
    /// type's, nor an enclosing class's).
    args: Vec<(Vec<String>, std::ops::Range<usize>)>,
    /// Template parameters met: where their text is.
    params: Vec<(usize, usize)>,
}

impl TemplateParamNames {
    /// The text, template parameters named (the return type comes before the arguments that
    /// name them, so this waits for the end).
    ///
    /// `numbers`: the parameter each template parameter's text names, in the order of the
    /// text, read from [`marked_demangling`]; used when there are as many as texts met.
    fn finish(mut self, declared: &[(usize, u8)], numbers: Option<&[usize]>) -> String {
        let refs: Vec<usize> = declared.iter().map(|&(r, _)| r).collect();
        let lists = std::mem::take(&mut self.args);
        let Some((args, own)) = lists
            .iter()
            .position(|(_, r)| {
                // (The node's text stops before its closing bracket.)
                let rest = self.out[r.end..].trim_start_matches(' ');
                rest.strip_prefix('>').unwrap_or(rest).starts_with('(')
            })
            .or((!lists.is_empty()).then_some(0))
            .and_then(|i| lists.into_iter().nth(i))
        else {
            return self.out;
        };
        // Which argument each parameter names, from the mangled name's references taken in
        // order: two arguments of the same text are then told apart (observed:
        // `T1 __atomic_fetch_add_cuda<unsigned int, unsigned int, …>(T1 *, T2, int, T3)`). A
        // parameter the next reference does not name came from a substitution: it names what
        // the last parameter of the same text named.
        let outside: Vec<(usize, usize)> = self
            .params
            .iter()
            .copied()
            .filter(|(start, _)| !own.contains(start))
            .collect();
        let mut named: Vec<Option<usize>> = Vec::with_capacity(outside.len());
        // The byte before each parameter's reference (or the substitution that repeats it).
        let mut before: Vec<u8> = Vec::with_capacity(outside.len());
        // Whether each parameter's text came from a substitution.
        let mut via_substitution: Vec<bool> = Vec::with_capacity(outside.len());
        let mut at = 0;
        for (i, &(start, end)) in outside.iter().enumerate() {
            let text = self.out[start..end].trim_start();
            // Substitutions met before the next reference.
            let mut substituted = false;
            let mut declarator = 0;
            while refs.get(at) == Some(&SUBSTITUTION) {
                substituted = true;
                declarator = declared[at].1;
                at += 1;
            }
            let earlier = (0..i).rev().find_map(|j| {
                let (s, e) = outside[j];
                (self.out[s..e].trim_start() == text)
                    .then_some(named[j])
                    .flatten()
            });
            let names = |k: usize| {
                args.get(k)
                    .is_some_and(|a| !a.trim().is_empty() && text.starts_with(a.trim()))
            };
            let (k, repeated) = match refs.get(at) {
                // (The substitutions are used up; the reference stays for what follows.)
                _ if substituted && earlier.is_some() => (earlier, true),
                Some(&k) if names(k) => {
                    declarator = declared[at].1;
                    at += 1;
                    (Some(k), false)
                }
                _ => (earlier, substituted),
            };
            named.push(k);
            before.push(declarator);
            via_substitution.push(repeated);
        }
        // The numbers the mangled name's references give, where each text is known: a
        // reference written out names its parameter in order, the other texts came from a
        // substitution (observed: `GridEvenShare<T5>` beside a `T6` of the same text, where
        // the substitution before it is the class's namespace).
        if let Some(numbers) = numbers.filter(|n| n.len() == outside.len()) {
            let explicit: Vec<(usize, u8)> = declared
                .iter()
                .copied()
                .filter(|&(r, _)| r != SUBSTITUTION)
                .collect();
            let mut at = 0;
            for (i, &k) in numbers.iter().enumerate() {
                named[i] = Some(k);
                if explicit.get(at).is_some_and(|&(r, _)| r == k) {
                    before[i] = explicit[at].1;
                    via_substitution[i] = false;
                    at += 1;
                } else {
                    via_substitution[i] = true;
                }
            }
        }
        for (i, &(start, end)) in outside.iter().enumerate().rev() {
            // The node's text may run on into a declarator (`…>*`): the argument is its start.
            let text = &self.out[start..end];
            let lead = text.len() - text.trim_start().len();
            let best = if let Some(k) = named[i] {
                args.get(k).map(|a| (k, a))
            } else {
                args.iter()
                    .enumerate()
                    .filter(|(_, a)| !a.trim().is_empty() && text[lead..].starts_with(a.trim()))
                    .max_by_key(|(_, a)| a.trim().len())
            };
            if let Some((k, a)) = best {
                let from = start + lead;
                // A reference to a parameter whose argument is a reference itself: cpp_demangle
                // collapses the two, EDG keeps the declarator (observed: `T1 &&
                // std::forward<float &>(…)`, `(…, T2 &&)` for a `void (&)(…)` argument).
                let a_ref = {
                    let t = a.trim();
                    t.ends_with('&') || t.contains("(&)") || t.contains("(&&)")
                };
                let mut to = from + a.trim().len();
                // (Not when the reference is to a name inside the parameter: `T1::x &&`.)
                let whole = !self.out[to..].starts_with("::");
                let declarator = match (named[i].is_some() && a_ref && whole, before.get(i)) {
                    (true, Some(b'O')) => "&&",
                    (true, Some(b'R')) => "&",
                    _ => "",
                };
                // A pointer to a substitution that repeats a parameter whose argument is a
                // class template's instance: EDG writes no space (observed: `(T1*, T2, …)`
                // for `PS6_` and `__atomic_storage<unsigned int>`, `(const T1*, …)` for
                // `PKS6_`; `T1 *` for `PT_`, and for `PS9_` repeating `unsigned int`). A mark
                // before the `*` keeps `edg_style` from adding one; `demangle` drops it.
                let mut star = to;
                while let Some(q) = [" const", " volatile"]
                    .iter()
                    .find(|q| self.out[star..].starts_with(**q))
                {
                    star += q.len();
                }
                let repeated = via_substitution.get(i).copied().unwrap_or(false);
                if repeated && a.trim().ends_with('>') && self.out[star..].starts_with('*') {
                    self.out.insert_str(star, NO_SPACE);
                }
                // (cpp_demangle's space between closing brackets goes with the argument.)
                if self.out[to..].starts_with(" >") {
                    to += 1;
                }
                self.out
                    .replace_range(from..to, &format!("T{}{declarator}", k + 1));
            }
        }
        reference_after_member(&self.out)
    }
}

/// Past the source name at `i` of a mangled name (its length, then that many characters);
/// `None` when the length does not parse.
fn skip_source_name(mangled: &str, mut i: usize) -> Option<usize> {
    let b = mangled.as_bytes();
    let from = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let len: usize = mangled[from..i].parse().ok()?;
    Some(i.saturating_add(len))
}

/// Past the literal at `i` of a mangled name (`L`, type letter, value, `E`).
fn skip_literal(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'E' {
        i += 1;
    }
    i + 1
}

/// The mangled name demangled with each template parameter reference (`T_`, `T<n>_`) put as
/// the source name `__TP<n+1>`, where the mangled name has any: the text then says which
/// parameter each place names, also where two arguments have the same text, and pack
/// expansions keep their `...` (cpp_demangle expands a pack parameter into its arguments).
/// A source name in place of a reference keeps the substitution table (either is one entry
/// as a type, none in an expression).
fn marked_demangling(mangled: &str) -> Option<String> {
    let b = mangled.as_bytes();
    let mut out = String::with_capacity(mangled.len() + 16);
    let mut marked = false;
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        match b[i] {
            b'0'..=b'9' => i = skip_source_name(mangled, i)?,
            b'L' if b.get(i + 1).is_some_and(u8::is_ascii_lowercase) => i = skip_literal(b, i),
            b'S' | b'A' => {
                i += 1;
                while i < b.len() && (b[i].is_ascii_digit() || b[i].is_ascii_uppercase()) {
                    i += 1;
                }
            }
            b'D' if b.get(i + 1) == Some(&b'p') => {
                // A pack expansion: as an imaginary type (also one substitution entry),
                // since cpp_demangle leaves out the `...` of every pack expansion after the
                // first argument pack it writes.
                out.push_str(mangled.get(copied..i)?);
                out.push('G');
                i += 2;
                copied = i;
            }
            b'T' => {
                let from = i + 1;
                let mut j = from;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                if b.get(j) != Some(&b'_') {
                    i += 1;
                    continue;
                }
                let k = if j == from {
                    0
                } else {
                    mangled[from..j].parse::<usize>().ok()? + 1
                };
                let marker = format!("__TP{}", k + 1);
                out.push_str(mangled.get(copied..i)?);
                out.push_str(&format!("{}{marker}", marker.len()));
                marked = true;
                i = j + 1;
                copied = i;
            }
            _ => i += 1,
        }
    }
    if !marked {
        return None;
    }
    out.push_str(mangled.get(copied..)?);
    let sym = cpp_demangle::Symbol::new(out.as_bytes()).ok().or_else(|| {
        match cpp_demangle::Symbol::with_tail(out.as_bytes()) {
            Ok((_, tail)) if tail.first() == Some(&b'$') => {
                cpp_demangle::Symbol::new(&out.as_bytes()[..out.len() - tail.len()]).ok()
            }
            _ => None,
        }
    })?;
    let text = sym
        .demangle(&cpp_demangle::DemangleOptions::default())
        .ok()?;
    Some(text.replace(" imaginary", "..."))
}

/// The parameter numbers (0 for `T_`) of the `__TP<n>` marks of a [`marked_demangling`], in
/// the order of the text.
fn marker_numbers(text: &str) -> Vec<usize> {
    let mut numbers = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("__TP") {
        let digits = &rest[at + 4..];
        let n = digits.bytes().take_while(u8::is_ascii_digit).count();
        if let Ok(k) = digits[..n].parse::<usize>() {
            numbers.push(k - 1);
        }
        rest = &digits[n..];
    }
    numbers
}

/// The function parameters of `text` (its last top-level parenthesised list) and where they
/// are.
fn parameter_list(text: &str) -> Option<(usize, usize)> {
    let close = text.rfind(')')?;
    let mut depth = 0i32;
    for (i, c) in text[..=close].char_indices().rev() {
        match c {
            ')' | '>' | ']' => depth += 1,
            '(' | '<' | '[' => {
                depth -= 1;
                if depth == 0 {
                    return (c == '(').then_some((i + 1, close));
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` with `...` after each parameter that the marked text shows as a pack expansion
/// (cpp_demangle writes a pack of one argument as that argument; EDG writes the pattern and
/// `...`, observed: `kernel_arg<T6>...`).
fn pack_expansions(text: &str, marked: &str) -> String {
    let (Some((from, to)), Some((mfrom, mto))) = (parameter_list(text), parameter_list(marked))
    else {
        return text.to_string();
    };
    let params = split_top_level(&text[from..to]);
    let marked_params = split_top_level(&marked[mfrom..mto]);
    if params.len() != marked_params.len()
        || !marked_params.iter().any(|p| p.trim_end().ends_with("..."))
    {
        return text.to_string();
    }
    let list: Vec<String> = params
        .iter()
        .zip(&marked_params)
        .map(|(p, m)| {
            if m.trim_end().ends_with("...") && !p.trim_end().ends_with("...") {
                format!("{}...", p.trim_end())
            } else {
                p.clone()
            }
        })
        .collect();
    format!("{}{}{}", &text[..from], list.join(","), &text[to..])
}

/// The ways to put a `v` return type into a constructor template's name (`…C2I<args>E`,
/// which has none) that cpp_demangle reads: after each `EE` past the constructor's name
/// (the arguments' end and the nested name's, for the right one).
fn constructor_template_with_return(name: &str) -> Vec<String> {
    let Some(at) = ["C1I", "C2I", "C3I"]
        .iter()
        .filter_map(|p| name.rfind(p))
        .max()
    else {
        return Vec::new();
    };
    (at + 3..name.len().saturating_sub(2))
        .filter(|&p| name[p..].starts_with("EE"))
        .map(|p| format!("{}v{}", &name[..p + 2], &name[p + 2..]))
        .filter(|candidate| cpp_demangle::Symbol::new(candidate.as_bytes()).is_ok())
        .collect()
}

/// A reference to a parameter's member type after the member's name: cpp_demangle writes
/// `T1&&::arrival_token` for `O N T_ 13arrival_token E`, EDG `T1::arrival_token &&`
/// (observed).
fn reference_after_member(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("&::") {
        // The reference (`&` or `&&`) must follow a parameter's name `T<n>`.
        let amps = if rest[..at].ends_with('&') { 2 } else { 1 };
        let head = &rest[..at + 1 - amps];
        let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let param = digits > 0 && head[..head.len() - digits].ends_with('T');
        let tail = &rest[at + 1..];
        let name_len = 2 + tail[2..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len() - 2);
        if !param {
            out.push_str(&rest[..at + 1]);
            rest = tail;
            continue;
        }
        out.push_str(head);
        out.push_str(&tail[..name_len]);
        out.push_str(&"&".repeat(amps));
        rest = &tail[name_len..];
    }
    out.push_str(rest);
    out
}

impl cpp_demangle::DemangleWrite for TemplateParamNames {
    fn push_demangle_node(&mut self, t: cpp_demangle::DemangleNodeType) {
        self.open.push((t, self.out.len()));
    }

    fn write_string(&mut self, s: &str) -> std::fmt::Result {
        self.out.push_str(s);
        Ok(())
    }

    fn pop_demangle_node(&mut self) {
        use cpp_demangle::DemangleNodeType::{TemplateArgs, TemplateParam};
        let Some((t, start)) = self.open.pop() else {
            return;
        };
        let in_args = self.open.iter().any(|(t, _)| *t == TemplateArgs);
        match t {
            TemplateArgs if !in_args => {
                let text = &self.out[start..];
                let inner = text
                    .strip_prefix('<')
                    .and_then(|t| t.strip_suffix('>'))
                    .unwrap_or(text);
                self.args
                    .push((split_top_level(inner), start..self.out.len()));
            }
            TemplateParam => {
                // (Nested ones inside another parameter's text go with it.)
                self.params.retain(|&(s, _)| s < start);
                self.params.push((start, self.out.len()));
            }
            _ => {}
        }
    }
}

/// A mark after a parameter's name that `edg_style` leaves without a space before `*`.
const NO_SPACE: &str = "\u{1}";

/// In [`template_param_refs_declared`]: a substitution (`S_`, `S<n>_`), which may repeat a reference.
const SUBSTITUTION: usize = usize::MAX;

/// The template parameter references (`T_` = 0, `T0_` = 1, …) and substitutions of a mangled
/// name, in order, stepping over source names and literal values (whose characters are not
/// references).
///
/// Each comes with the byte before it in the mangled name (`O`: an rvalue reference to it,
/// `R`: an lvalue one).
fn template_param_refs_declared(mangled: &str) -> Vec<(usize, u8)> {
    let b = mangled.as_bytes();
    let mut refs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'0'..=b'9' => i = skip_source_name(mangled, i).unwrap_or(b.len()),
            b'L' if b.get(i + 1).is_some_and(u8::is_ascii_lowercase) => i = skip_literal(b, i),
            b'S' | b'A' => {
                // A substitution or an array bound: its digits are not a name's length.
                let subst = b[i] == b'S';
                let before = i.checked_sub(1).map_or(0, |p| b[p]);
                i += 1;
                while i < b.len() && (b[i].is_ascii_digit() || b[i].is_ascii_uppercase()) {
                    i += 1;
                }
                if subst && b.get(i) == Some(&b'_') {
                    refs.push((SUBSTITUTION, before));
                }
            }
            b'T' => {
                let from = i + 1;
                let mut j = from;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                if b.get(j) == Some(&b'_') {
                    let k = if j == from {
                        0
                    } else {
                        mangled[from..j]
                            .parse::<usize>()
                            .map_or(usize::MAX, |n| n + 1)
                    };
                    refs.push((k, i.checked_sub(1).map_or(0, |p| b[p])));
                    i = j + 1;
                } else {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    refs
}

/// `a, b<c, d>, e` split at its top-level commas.
fn split_top_level(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut from) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[from..i].to_string());
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[from..].to_string());
    out
}

/// Rewrites `cpp_demangle`'s spelling into the one nvlink's (EDG-style) demangler prints
/// (observed with nvlink 13.5.37's `--dump-callgraph`):
/// - cv-qualifiers of a pointed-to or referred-to type before it, `const` first
///   (`unsigned char volatile const*` → `const volatile unsigned char *`);
/// - a space before a pointer or reference declarator that follows a name (`int*` → `int *`);
/// - `int` and `bool` template arguments with their cast, as the other integral types already
///   have it (`ki<-3>` → `ki<(int)-3>`, `kb<true>` → `kb<(bool)1>`);
/// - closing template brackets together (`W<W<int> >` → `W<W<int>>`);
/// - an array declarator right after its parenthesised part (`int (&) [3]` → `int (&)[3]`).
pub fn edg_style(text: &str) -> String {
    let s = qualifiers_first(text);
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev = ' ';
    for c in s.chars() {
        if (c == '*' || c == '&') && (prev.is_ascii_alphanumeric() || prev == '_' || prev == '>') {
            out.push(' ');
        }
        out.push(c);
        prev = c;
    }
    let out = cast_template_literals(&out);
    // An array declarator follows its parenthesised part directly (`int (&)[3]`).
    let mut s = out.replace(") [", ")[");
    while s.contains("> >") {
        s = s.replace("> >", ">>");
    }
    s
}

/// Builtin type keywords that make up one multi-word type name (`unsigned long long`).
const TYPE_WORDS: [&str; 9] = [
    "unsigned", "signed", "char", "short", "int", "long", "float", "double", "bool",
];

/// Moves each run of cv-qualifiers that ends at a `*` or `&`, or ends a template argument,
/// before the type it follows (observed: `is_sufficiently_aligned<(unsigned long)4, const
/// float>`).
fn qualifiers_first(text: &str) -> String {
    let mut s = text.to_string();
    let mut from = 0;
    loop {
        // The next qualifier run directly before a declarator.
        let Some((run_start, run_end, quals)) = next_qualifier_run(&s, from) else {
            return s;
        };
        let start = type_start(&s[..run_start]);
        let word = s[start..run_start].to_string();
        let moved = format!("{quals} {word}");
        s.replace_range(start..run_end, &moved);
        from = start + moved.len();
    }
}

/// The next ` const`/` volatile` run (in any order) followed by `*`, `&`, `,` or `>`, at or after
/// `from`: (start of the run, its end, the qualifiers in EDG's order).
fn next_qualifier_run(s: &str, from: usize) -> Option<(usize, usize, &'static str)> {
    let mut at = from;
    while at < s.len() {
        let rest = &s[at..];
        let hit = [" const", " volatile"]
            .iter()
            .filter_map(|q| rest.find(q).map(|i| at + i))
            .min()?;
        // Take every qualifier of the run.
        let (mut end, mut c, mut v) = (hit, false, false);
        loop {
            if s[end..].starts_with(" const") {
                c = true;
                end += " const".len();
            } else if s[end..].starts_with(" volatile") {
                v = true;
                end += " volatile".len();
            } else {
                break;
            }
        }
        if matches!(
            s[end..].chars().next(),
            Some('*' | '&' | ',' | '>' | '\u{1}')
        ) && hit > 0
        {
            let quals = match (c, v) {
                (true, true) => "const volatile",
                (true, false) => "const",
                _ => "volatile",
            };
            return Some((hit, end, quals));
        }
        at = end.max(hit + 1);
    }
    None
}

/// Where the type that ends at the end of `before` starts: a run of builtin type words, or
/// one (qualified, possibly templated) name.
fn type_start(before: &str) -> usize {
    let b = before.as_bytes();
    let mut i = b.len();
    // A name: identifier characters, `::` and balanced template arguments.
    let mut depth = 0usize;
    while i > 0 {
        let c = b[i - 1];
        match c {
            b'>' => depth += 1,
            b'<' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ if c.is_ascii_alphanumeric() || c == b'_' || c == b':' => {}
            _ => break,
        }
        i -= 1;
    }
    // Builtin words before a builtin word belong to the same type.
    let is_word = |w: &str| TYPE_WORDS.contains(&w);
    if is_word(&before[i..]) {
        while i > 1 && b[i - 1] == b' ' {
            let prev_start = before[..i - 1]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |k| k + 1);
            if !is_word(&before[prev_start..i - 1]) {
                break;
            }
            i = prev_start;
        }
    }
    i
}

/// `int` and `bool` literals in template arguments with their cast.
fn cast_template_literals(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some(i) = rest.find(['<', ',']) {
        let (head, tail) = rest.split_at(i + 1);
        out.push_str(head);
        let arg = tail.strip_prefix(' ').unwrap_or(tail);
        if arg.len() < tail.len() {
            out.push(' ');
        }
        let len = arg.find([',', '>']).unwrap_or(arg.len());
        let token = &arg[..len];
        let int = {
            let digits = token.strip_prefix('-').unwrap_or(token);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        };
        let at_end = len < arg.len();
        let cast = match token {
            _ if !at_end => None,
            "true" => Some("(bool)1".to_string()),
            "false" => Some("(bool)0".to_string()),
            _ if int => Some(format!("(int){token}")),
            _ => None,
        };
        match cast {
            Some(c) => {
                out.push_str(&c);
                rest = &arg[len..];
            }
            None => rest = arg,
        }
    }
    out.push_str(rest);
    out
}

/// The `--dump-callgraph` text, as nvlink 13.5.37 prints it on standard error after the
/// link's warnings, from the link's merged call graph: nodes are the functions in the order
/// the link first met them, removed ones printed with an empty name; `[N]` is the function's
/// own register count (before propagation to kernels), followed by the propagation lines.
/// Without a call graph (the link merged no relocatable object), nvlink's one line.
///
/// `limits`: the link's register-limit errors as (kernel, callee, register count), in the
/// order they were reported. Each propagates its count to its kernel before anything else
/// (observed: `mid` (70 registers), which calls `h` (76), is reported and propagated to `k`
/// first when it was defined first), so the walk below starts from those counts.
pub fn callgraph_dump(
    graph: Option<&Callgraph>,
    target: Target,
    limits: &[(&str, &str, u32)],
) -> String {
    let Some(graph) = graph else {
        return "No relocatable objects found. Did not generate callgraph.\n".to_string();
    };
    let mut s = format!(
        "callgraph for {}:\n# A: s -> B // s (number A) potentially calls B\n# s [N]     // s uses N registers\n# ^s        // s is entry point\n# &s        // s has address taken\n",
        // The plain SM, whatever the variant (observed: `sm_90` for `-arch=sm_90a`).
        format_args!("sm_{}", target.sm)
    );
    let nodes = &graph.nodes;
    let callees: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            n.callees
                .iter()
                .filter(|&&c| c >= 1 && (c as usize) <= nodes.len())
                .map(|&c| c as usize - 1)
                .collect()
        })
        .collect();
    fn name(n: &CallgraphNode) -> &str {
        n.name.as_deref().unwrap_or("")
    }
    let live = |n: &CallgraphNode| n.name.is_some();
    let entry = |n: &CallgraphNode| n.entry;
    for (i, n) in nodes.iter().enumerate() {
        if !live(n) {
            s.push_str(&format!("{}: \n", i + 1));
            continue;
        }
        let mut line = format!("{}: ", i + 1);
        if n.entry {
            line.push('^');
        }
        if n.address_taken {
            line.push('&');
        }
        line.push_str(&demangle(name(n)));
        if let Some(r) = n.registers {
            line.push_str(&format!(" [{r}]"));
        }
        line.push_str(" ->");
        for c in &callees[i] {
            line.push_str(&format!(" {}", c + 1));
        }
        line.push('\n');
        s.push_str(&line);
    }
    // Register counts pushed up to the kernels that reach a function.
    let mut current: Vec<Option<u32>> = nodes.iter().map(|n| n.registers).collect();
    let kernels: Vec<usize> = (0..nodes.len())
        .filter(|&i| live(&nodes[i]) && entry(&nodes[i]))
        .collect();
    let reach = |k: usize| -> Vec<bool> {
        let mut seen = vec![false; nodes.len()];
        let mut stack = vec![k];
        while let Some(n) = stack.pop() {
            for &c in &callees[n] {
                if !seen[c] {
                    seen[c] = true;
                    stack.push(c);
                }
            }
        }
        seen
    };
    let reaches: Vec<(usize, Vec<bool>)> = kernels.iter().map(|&k| (k, reach(k))).collect();
    for &(kernel, callee, regs) in limits {
        let Some(k) = kernels.iter().copied().find(|&k| name(&nodes[k]) == kernel) else {
            continue;
        };
        if current[k].is_some_and(|kr| regs > kr) {
            current[k] = Some(regs);
            s.push_str(&format!(
                "regcount {regs} for {} propagated to entry {}\n",
                demangle(callee),
                demangle(kernel)
            ));
        }
    }
    // Functions in post-order of a depth-first walk from each node in turn along the callee
    // lists as printed (observed: `k_both -> 3 2` reports fixed_local [46] before sum_dyn
    // [44], so k_both gets no line for sum_dyn); a call back to a function the walk is still
    // in puts that function next (observed: recursive `Bin::eval [32] -> 5 2 1 5 2 1 3`
    // reports its own count before its callee's [45]).
    let mut order = Vec::with_capacity(nodes.len());
    // 0: not met; 1: being walked; 2: placed.
    let mut state = vec![0u8; nodes.len()];
    // With an image: the functions in the order of their code in it (observed: `make_shape`
    // [30] reported before its callee `Rect::Rect` [26], which then has no line; fixed_local
    // before sum_dyn, `__cudaCDP2MemsetAsync` before `__cudaCDP2MemcpyAsync`, as their
    // sections are placed).
    if nodes.iter().any(|n| n.code_position.is_some()) {
        let mut placed: Vec<usize> = (0..nodes.len())
            .filter(|&i| nodes[i].code_position.is_some())
            .collect();
        placed.sort_by_key(|&i| nodes[i].code_position);
        order = placed;
        state.fill(2);
    }
    for root in 0..nodes.len() {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (n, ref mut next)) = stack.last_mut() {
            if let Some(&c) = callees[n].get(*next) {
                *next += 1;
                match state[c] {
                    0 => {
                        state[c] = 1;
                        stack.push((c, 0));
                    }
                    1 => {
                        state[c] = 2;
                        order.push(c);
                    }
                    _ => {}
                }
            } else {
                if state[n] == 1 {
                    state[n] = 2;
                    order.push(n);
                }
                stack.pop();
            }
        }
    }
    for f in order {
        let node = &nodes[f];
        let Some(r) = node.registers else { continue };
        if !live(node) || entry(node) {
            continue;
        }
        for (k, seen) in reaches.iter().rev() {
            if seen[f] && current[*k].is_some_and(|kr| r > kr) {
                current[*k] = Some(r);
                s.push_str(&format!(
                    "regcount {r} for {} propagated to entry {}\n",
                    demangle(name(node)),
                    demangle(name(&nodes[*k]))
                ));
            }
        }
    }
    s
}

/// elfw's `--print-map` report: the output sections with their sizes, the inputs and what
/// each contributed, the functions kept and removed, and the diagnostics. (Per-section input
/// contributions, removal reasons and weak-contest outcomes need data the link does not
/// expose yet: see `/work/notes/cli-needs.md`.)
pub fn map(linked: &Linked, json: bool) -> String {
    let q = |s: &str| {
        let mut o = String::from("\"");
        for ch in s.chars() {
            match ch {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
                c => o.push(c),
            }
        }
        o.push('"');
        o
    };
    let empty = elfw_core::link::LinkMap::default();
    let m = linked.map.as_ref().unwrap_or(&empty);
    let input = |i: usize| m.inputs.get(i).map_or("?", String::as_str);
    let reason = |r: &MapReason| -> String {
        match r {
            MapReason::Kernel => "kernel".into(),
            MapReason::Reachable(path) => format!("called: {}", path.join(" -> ")),
            MapReason::AddressTaken => "address taken".into(),
            MapReason::NoElimination => {
                "kept: no dead-code elimination with -r, -g or --preserve-relocs".into()
            }
            MapReason::NotSelected => {
                "not selected: a kernel --kernels-used/--variables-used leaves out".into()
            }
            MapReason::NotReferencedFromHost => {
                "not referenced: no host object's kernel list (.nvHRKE/.nvHRKI) names it".into()
            }
            MapReason::Unreachable => "unreachable: nothing kept calls it".into(),
        }
    };
    if json {
        let sections: Vec<String> = m
            .sections
            .iter()
            .map(|s| {
                let c: Vec<String> = s
                    .contributions
                    .iter()
                    .map(|c| {
                        format!(
                            "{{\"input\":{},\"offset\":{},\"size\":{},\"align\":{}}}",
                            q(input(c.input)),
                            c.offset,
                            c.size,
                            c.align
                        )
                    })
                    .collect();
                format!(
                    "{{\"name\":{},\"size\":{},\"contributions\":[{}]}}",
                    q(&s.name),
                    s.size,
                    c.join(",")
                )
            })
            .collect();
        let functions: Vec<String> = m
            .functions
            .iter()
            .map(|f| {
                format!(
                    "{{\"name\":{},\"input\":{},\"kernel\":{},\"kept\":{},\"reason\":{}}}",
                    q(&f.name),
                    f.input.map_or("null".into(), |i| q(input(i))),
                    f.kernel,
                    f.kept,
                    q(&reason(&f.reason))
                )
            })
            .collect();
        let weak: Vec<String> = m
            .weak_contests
            .iter()
            .map(|w| {
                format!(
                    "{{\"symbol\":{},\"kept\":{},\"dropped\":{},\"why\":{}}}",
                    q(&w.symbol),
                    q(input(w.winner)),
                    q(input(w.loser)),
                    q(w.why)
                )
            })
            .collect();
        let inputs: Vec<String> = linked
            .inputs
            .iter()
            .map(|i| {
                format!(
                    "{{\"name\":{},\"cubins\":{},\"duplicate\":{}}}",
                    q(&i.name),
                    i.cubins,
                    i.duplicate
                )
            })
            .collect();
        let diags: Vec<String> = linked
            .diagnostics
            .iter()
            .map(|d| {
                format!(
                    "{{\"severity\":\"{:?}\",\"message\":{}}}",
                    d.severity,
                    q(&d.message)
                )
            })
            .collect();
        return format!(
            "{{\"inputs\":[{}],\"sections\":[{}],\"functions\":[{}],\"weak_contests\":[{}],\"diagnostics\":[{}]}}\n",
            inputs.join(","),
            sections.join(","),
            functions.join(","),
            weak.join(","),
            diags.join(",")
        );
    }
    let mut s = String::from("# elfw link map\n\n## Inputs\n");
    for i in &linked.inputs {
        let dup = if i.duplicate {
            " (second copy of an archive: not read)"
        } else {
            ""
        };
        s.push_str(&format!("{}: {} cubin(s){dup}\n", i.name, i.cubins));
    }
    for w in &linked.ignored {
        s.push_str(&format!("{w}\n"));
    }
    s.push_str("\n## Output sections\n");
    for sec in &m.sections {
        s.push_str(&format!("{:<48} size {:#x}\n", sec.name, sec.size));
        for c in &sec.contributions {
            s.push_str(&format!(
                "    {:#10x} {:#8x} align {:<4} {}\n",
                c.offset,
                c.size,
                c.align,
                input(c.input)
            ));
        }
    }
    s.push_str("\n## Functions\n");
    for f in &m.functions {
        let from = f
            .input
            .map_or("undefined".into(), |i| format!("from {}", input(i)));
        let state = if f.kept { "kept" } else { "removed" };
        s.push_str(&format!(
            "{} ({from}): {state}, {}\n",
            f.name,
            reason(&f.reason)
        ));
    }
    if !m.weak_contests.is_empty() {
        s.push_str("\n## Weak definitions\n");
        for w in &m.weak_contests {
            s.push_str(&format!(
                "{}: kept the copy from {} over the one from {} ({})\n",
                w.symbol,
                input(w.winner),
                input(w.loser),
                w.why
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected texts are nvlink 13.5.37's (tests/corpus/sm90_dump_callgraph*/nvlink.stderr).
    #[test]
    fn demangles_as_nvlink_prints() {
        for (mangled, nvlink) in [
            ("_Z6level8PVii", "level8(volatile int *, int)"),
            ("_Z16recursive_kernelPi", "recursive_kernel(int *)"),
            ("_ZN6CircleD0Ev", "Circle::~Circle() [deleting]"),
            ("_ZN6CircleD1Ev", "Circle::~Circle()"),
            ("_ZNK6Square4areaEv", "Square::area() const"),
            (
                "_Z14apply_externalPFffEf",
                "apply_external(float (*)(float), float)",
            ),
            ("_Z12call_virtualPfi", "call_virtual(float *, int)"),
            // Operators (nvlink 13.5.37, sm_80, `--dump-callgraph`).
            (
                "_ZNK4cuda3std3__44plusIfEclERKfS5_",
                "cuda::std::__4::plus<float>::operator ()(const float &, const float &) const",
            ),
            ("_ZnwmP3Tag", "operator new (unsigned long, Tag *)"),
            (
                "_ZltIiEbRK1VIT_ES4_",
                "bool operator <<int>(const V<T1> &, const V<T1> &)",
            ),
            ("_ZN3ArrixEi", "Arr::operator [](int)"),
            // libcu++ and cooperative groups built with -G (nvlink 13.5.37, sm_80, corpus
            // sm80_dump_callgraph_libcu_templates, sm80_dump_callgraph_cg_constructor_templates).
            (
                "_ZSt7forwardIRfEOT_RNSt16remove_referenceIS1_E4typeE",
                "T1 && std::forward<float &>(std::remove_reference<T1>::type &)",
            ),
            (
                "_ZN4cuda3std3__413to_underlyingINS_6device3__413address_spaceEEENS1_15underlying_typeIT_E4typeES7_",
                "cuda::std::__4::underlying_type<T1>::type cuda::std::__4::to_underlying<cuda::device::__4::address_space>(T1)",
            ),
            (
                "_ZN4cuda3std3__423is_sufficiently_alignedILm4EKfEEbPT0_",
                "bool cuda::std::__4::is_sufficiently_aligned<(unsigned long)4, const float>(T2 *)",
            ),
            (
                "_ZN4cuda3std3__415__call_try_waitINS1_14__barrier_baseINS1_18__empty_completionELNS1_12thread_scopeE2EEEEEbRKT_ONS7_13arrival_tokenE",
                "bool cuda::std::__4::__call_try_wait<cuda::std::__4::__barrier_base<cuda::std::__4::__empty_completion, (cuda::std::__4::thread_scope)2>>(const T1 &, T1::arrival_token &&)",
            ),
            (
                "_ZN4cuda3std3__427__atomic_fetch_add_dispatchINS1_16__atomic_storageImEEmNS1_24__thread_scope_block_tagELi0EEENT_14__underlying_tEPS6_T0_NS1_12memory_orderET1_",
                "T1::__underlying_t cuda::std::__4::__atomic_fetch_add_dispatch<cuda::std::__4::__atomic_storage<unsigned long>, unsigned long, cuda::std::__4::__thread_scope_block_tag, (int)0>(T1*, T2, cuda::std::__4::memory_order, T3)",
            ),
            (
                "_ZN18cooperative_groups4__v17details22thread_block_tile_implILj32EvLb0EEC2ILj32ENS0_12thread_blockELb0EEERKNS2_IXT_ET0_XT1_EEE",
                "cooperative_groups::__v1::details::thread_block_tile_impl<(unsigned int)32, void, (bool)0>::thread_block_tile_impl<(unsigned int)32, cooperative_groups::__v1::thread_block, (bool)0>(const cooperative_groups::__v1::details::thread_block_tile_impl<T1, T2, T3> &) [subobject]",
            ),
            ("_ZN3ArrpLEi", "Arr::operator +=(int)"),
            ("free", "free"),
            // tests/fresh/progs/p34_link_options, `--dump-callgraph` (nvlink 13.5.37, sm_80).
            ("_Z4walkPii$1", "walk(int *, int)"),
            // Template kernels (nvlink 13.5.37, sm_80, `--dump-callgraph`).
            ("_Z2kiILin3EEvPi", "void ki<(int)-3>(int *)"),
            ("_Z2kiILi0EEvPi", "void ki<(int)0>(int *)"),
            ("_Z2kbILb1EEvPi", "void kb<(bool)1>(int *)"),
            ("_Z2kuILj4EEvPi", "void ku<(unsigned int)4>(int *)"),
            ("_Z2ktI1WIS0_IiEEEvPi", "void kt<W<W<int>>>(int *)"),
            (
                "_Z2ktIPVKhEvPi",
                "void kt<const volatile unsigned char *>(int *)",
            ),
            (
                "_Z2ktI1WIPFifRdEEEvPi",
                "void kt<W<int (*)(float, double &)>>(int *)",
            ),
            // libcudadevrt's file-local kernels and internal functions (nvlink 13.5.37, sm_80,
            // `--dump-callgraph`, corpus sm80_dump_callgraph_kernels_used_devrt).
            (
                "__nv_static_51__0afad4c0_22_cuda_device_runtime_cu_f78b5b52_735892__Z16memset_3d_deviceIjLi0ELi0ELi0EEv12MemsetParamsIT_E",
                "void memset_3d_device<unsigned int, (int)0, (int)0, (int)0>(MemsetParams<T1>)",
            ),
            (
                "_ZN60_INTERNAL_0afad4c0_22_cuda_device_runtime_cu_f78b5b52_73589224cnprtCnpv2TranslateErrorE13CNPerror_enum",
                "cnprtCnpv2TranslateError(CNPerror_enum)",
            ),
            // Template parameters in a function's signature (nvlink 13.5.37, sm_80).
            (
                "_Z4bothIdiET_S0_T0_RKS1_PS0_",
                "T1 both<double, int>(T1, T2, const T2 &, T1 *)",
            ),
            (
                "_Z3arrIiLi3EET_RAT0__S0_",
                "T1 arr<int, (int)3>(T1 (&)[T2])",
            ),
            ("_Z5probeI1SEiPT_", "int probe<S>(T1 *)"),
            // Two arguments of the same text, one named in a class template's arguments after
            // a substitution that is its namespace; a pack expansion (nvlink 13.5.37, sm_90,
            // `--dump-callgraph`, corpus sm90_thrust_two_tus_dump_callgraph).
            (
                "_ZN3cub16_V_300500_SM_9006detail6reduce18DeviceReduceKernelINS2_26policy_selector_from_typesIfjN4cuda3std3__44plusIfEELNS5_9execution3__411determinism15__determinism_tE1EEELb1EN6thrust16_V_300500_SM_9006detail15normal_iteratorINSG_10device_ptrIfEEEEPfjjS9_ffNS7_8identityEEEvT1_T2_T4_NS0_13GridEvenShareIT3_EET5_T7_T8_",
                "void cub::_V_300500_SM_900::detail::reduce::DeviceReduceKernel<cub::_V_300500_SM_900::detail::reduce::policy_selector_from_types<float, unsigned int, cuda::std::__4::plus<float>, (cuda::execution::__4::determinism::__determinism_t)1>, (bool)1, thrust::_V_300500_SM_900::detail::normal_iterator<thrust::_V_300500_SM_900::device_ptr<float>>, float *, unsigned int, unsigned int, cuda::std::__4::plus<float>, float, float, cuda::std::__4::identity>(T3, T4, T6, cub::_V_300500_SM_900::GridEvenShare<T5>, T7, T9, T10)",
            ),
            (
                "_ZN3cub16_V_300500_SM_9006detail9transform16transform_kernelINS2_26policy_selector_from_typesILb1ELb1EN4cuda3std3__45tupleIJN6thrust16_V_300500_SM_9006detail15normal_iteratorINSA_10device_ptrIfEEEEEEESF_EElNS5_3__411always_trueE2sqPfJSL_EEEvT0_ibT1_T2_T3_DpNS2_10kernel_argIT4_EE",
                "void cub::_V_300500_SM_900::detail::transform::transform_kernel<cub::_V_300500_SM_900::detail::transform::policy_selector_from_types<(bool)1, (bool)1, cuda::std::__4::tuple<thrust::_V_300500_SM_900::detail::normal_iterator<thrust::_V_300500_SM_900::device_ptr<float>>>, thrust::_V_300500_SM_900::detail::normal_iterator<thrust::_V_300500_SM_900::device_ptr<float>>>, long, cuda::__4::always_true, sq, float *, float *>(T2, int, bool, T3, T4, T5, cub::_V_300500_SM_900::detail::transform::kernel_arg<T6>...)",
            ),
        ] {
            assert_eq!(demangle(mangled), nvlink, "{mangled}");
        }
    }
}
