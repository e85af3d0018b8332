//! C identifiers: of SSA values, taken from the names the IR printer gives
//! them (`%arg0` -> `arg0`, `%thread_id_x` -> `thread_id_x`, `%3` -> `v3`),
//! and of the module's symbols, kernels and host functions ([`Symbols`]).
//!
//! # The names of kernels and host functions
//!
//! A `gpu.func` kernel is emitted under its own name, and so is a host
//! `func.func`, when that name is a C identifier (`[A-Za-z_][A-Za-z0-9_]*`)
//! that no C, C++, CUDA or OpenCL program may redefine ([`is_reserved`]: the
//! keywords of C, C++, CUDA C++ and OpenCL C, the names the headers the
//! emitted programs include declare or define as macros, the built-in
//! functions, types and variables of CUDA and OpenCL C, the runner-utils
//! print functions, and whole families: `lf_`, `LF_`, `__`, `_` and a
//! capital, `cuda`, `cu`/`CU_` and a capital, `cl`/`CL_` and a capital,
//! `cl_`, names ending in `_t`, vector types such as `float4`, and names
//! without a lower-case letter, which macros use), and no other kernel or
//! function took it first. `@main` is `lf_main` (the C `main` calls it).
//! Any other symbol (a reserved name, a name that is not a C identifier, a
//! name an earlier symbol has) is renamed, stably: its C name depends only
//! on its own name and, for a kernel, its `gpu.module`'s:
//!
//! - kernel `@m::@k` -> `lf_<m>_<k>`, host function `@f` -> `lf_<f>`, each
//!   character that cannot be in a C identifier replaced by `_`;
//! - should that name be taken (by an earlier symbol, or the emitters' own
//!   `lf_` helpers), `_1`, `_2`, ... is appended, the first free.
//!
//! Symbols are named in program order: all kernels first, then the host
//! functions. So the two kernels `gpu-kernel-outlining` makes of two
//! launches in `@fig3`, `@fig3_kernel::@fig3_kernel` and
//! `@fig3_kernel_0::@fig3_kernel`, become `fig3_kernel` and
//! `lf_fig3_kernel_0_fig3_kernel`; a kernel `@m::@float4` becomes
//! `lf_m_float4`. The comment above each kernel in the output names its
//! `gpu.module` and `gpu.func`.

use lf_ir::printer::Names;
use lf_ir::{Body, Context, OpId, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// Names of the values of one function.
pub struct ValueNames<'a> {
    names: Names,
    body: &'a Body,
    /// The module's kernel and function names, which a value must not
    /// shadow where it is called (host code).
    globals: Option<&'a Symbols>,
}

const RESERVED: &[&str] = &[
    "auto", "bool", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "int", "long", "register", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "half", "kernel", "global", "local",
    "constant", "private", "main", "new", "delete", "class", "this", "true", "false",
];

impl<'a> ValueNames<'a> {
    /// Names the values of function `op` stored in `parent`.
    pub fn new(ctx: &Context, parent: &'a Body, op: OpId) -> ValueNames<'a> {
        ValueNames {
            names: Names::compute(Some(ctx), parent, op, false),
            body: parent.regions_body(op),
            globals: None,
        }
    }

    /// Keeps the values clear of the C names of the module's kernels and
    /// functions (a local named like a function hides it from the calls
    /// and launches after it): such a value gets the prefix `v_`.
    pub fn avoid(&mut self, globals: &'a Symbols) {
        self.globals = Some(globals);
    }

    /// The C identifier of `v`.
    pub fn get(&self, v: Value) -> String {
        let mut s = String::new();
        self.names.write_value(&mut s, self.body, v);
        let raw = s.trim_start_matches('%').replace('#', "_");
        let mut out: String = raw
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
            .collect();
        if out.chars().next().is_none_or(|c| c.is_ascii_digit()) {
            out.insert(0, 'v');
        }
        if RESERVED.contains(&out.as_str()) || out.starts_with("lf_") || out.starts_with("__") {
            out.insert_str(0, "v_");
        }
        while self.globals.is_some_and(|g| g.is_taken(&out)) {
            out.insert_str(0, "v_");
        }
        out
    }
}

/// Keywords and the names that the headers of the emitted programs
/// (`cuda_runtime.h`, `CL/cl.h`, `math.h`, `stdint.h`, `stdio.h`,
/// `stdlib.h`, `string.h`) or the languages (C, C++, CUDA C++, OpenCL C)
/// declare: a symbol of one of these names is renamed (see the module
/// documentation). The families (prefixes, suffixes, vector types, `f`/`l`
/// variants of math functions) are in [`is_reserved`].
#[rustfmt::skip]
const RESERVED_SYMBOLS: &[&str] = &[
    // C (C23 included)
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool",
    "true", "false", "nullptr", "alignas", "alignof", "constexpr", "static_assert", "thread_local", "typeof",
    "typeof_unqual", "complex", "imaginary", "noreturn", "assert", "offsetof", "errno", "main",
    // C++
    "and", "and_eq", "asm", "bitand", "bitor", "catch", "class", "co_await", "co_return", "co_yield", "compl",
    "concept", "const_cast", "consteval", "constinit", "decltype", "delete", "dynamic_cast", "explicit", "export",
    "final", "friend", "import", "module", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "operator",
    "or", "or_eq", "override", "private", "protected", "public", "reinterpret_cast", "requires", "static_cast",
    "template", "this", "throw", "try", "typeid", "typename", "using", "virtual", "xor", "xor_eq", "std",
    // CUDA C++
    "dim3", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "printf", "malloc", "free", "memcpy",
    "memset", "clock", "clock64", "assert",
    // OpenCL C
    "kernel", "global", "local", "constant", "half", "uchar", "ushort", "uint", "ulong", "quad", "read_only",
    "write_only", "read_write", "get_work_dim", "get_global_size", "get_global_id", "get_local_size",
    "get_local_id", "get_num_groups", "get_group_id", "get_global_offset", "barrier", "mem_fence",
    "read_mem_fence", "write_mem_fence", "wait_group_events", "prefetch", "mad", "maxmag", "minmag", "fract",
    "pown", "powr", "rootn", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "mad_hi", "mad_sat", "max",
    "min", "mul_hi", "rotate", "sub_sat", "upsample", "mad24", "mul24", "degrees", "mix", "radians", "step",
    "smoothstep", "sign", "cross", "dot", "distance", "length", "normalize", "fast_distance", "fast_length",
    "fast_normalize", "isequal", "isnotequal", "any", "all", "bitselect", "select", "shuffle", "shuffle2",
    "acospi", "asinpi", "atanpi", "atan2pi", "cospi", "sinpi", "tanpi", "half_cos", "half_divide", "half_exp",
    "half_exp2", "half_exp10", "half_log", "half_log2", "half_log10", "half_powr", "half_recip", "half_rsqrt",
    "half_sin", "half_sqrt", "half_tan", "native_cos", "native_divide", "native_exp", "native_exp2", "native_exp10",
    "native_log", "native_log2", "native_log10", "native_powr", "native_recip", "native_rsqrt", "native_sin",
    "native_sqrt", "native_tan", "popcount", "printf",
    // Brook+ (keywords, reserved names and built-ins)
    "out", "reduce", "iter", "stream", "line", "transpose", "instance", "indexof", "instanceInGroup",
    "syncGroup", "shared", "Attribute", "GroupSize", "brook", "frac", "lerp",
    // math.h (and the functions CUDA and OpenCL C add); `f`/`l` variants in is_reserved
    "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "acosh", "asinh", "atanh", "cosh", "sinh", "tanh", "exp",
    "exp2", "exp10", "expm1", "log", "log10", "log1p", "log2", "logb", "ilogb", "frexp", "ldexp", "modf", "scalbn",
    "scalbln", "cbrt", "fabs", "hypot", "pow", "sqrt", "rsqrt", "erf", "erfc", "lgamma", "lgamma_r", "tgamma",
    "gamma", "ceil", "floor", "nearbyint", "rint", "lrint", "llrint", "round", "lround", "llround", "trunc", "fmod",
    "remainder", "remquo", "copysign", "nan", "nextafter", "nexttoward", "fdim", "fmax", "fmin", "fma",
    "fpclassify", "isfinite", "isinf", "isnan", "isnormal", "signbit", "isgreater", "isgreaterequal", "isless",
    "islessequal", "islessgreater", "isunordered", "isordered", "sincos", "pow10", "drem", "significand", "j0",
    "j1", "jn", "y0", "y1", "yn", "rcbrt", "sincospi", "normcdf", "normcdfinv", "erfinv", "erfcinv", "erfcx",
    "rnorm", "norm", "norm3d", "norm4d", "rhypot", "saturate", "umin", "umax", "llmin", "llmax", "ullmin",
    "ullmax", "umul24", "mulhi", "umulhi", "mul64hi", "umul64hi", "fdivide", "brev", "ffs", "popc", "byte_perm",
    "sad", "usad", "abs", "labs", "llabs",
    // stdio.h
    "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsprintf", "vsnprintf", "dprintf", "scanf",
    "fscanf", "sscanf", "puts", "fputs", "putc", "fputc", "putchar", "getc", "fgetc", "getchar", "gets", "fgets",
    "fopen", "fclose", "freopen", "fdopen", "fflush", "fread", "fwrite", "fseek", "fseeko", "ftell", "ftello",
    "rewind", "fgetpos", "fsetpos", "feof", "ferror", "clearerr", "perror", "remove", "rename", "tmpfile",
    "tmpnam", "setbuf", "setvbuf", "ungetc", "stdin", "stdout", "stderr", "getline", "getdelim", "fileno",
    "popen", "pclose",
    // stdlib.h
    "calloc", "realloc", "aligned_alloc", "posix_memalign", "alloca", "abort", "exit", "atexit", "at_quick_exit",
    "quick_exit", "getenv", "setenv", "unsetenv", "putenv", "system", "div", "ldiv", "lldiv", "atoi", "atol",
    "atoll", "atof", "strtol", "strtoll", "strtoul", "strtoull", "strtod", "strtof", "strtold", "rand", "srand",
    "random", "srandom", "qsort", "bsearch", "mblen", "mbtowc", "wctomb", "mbstowcs", "wcstombs", "mkstemp",
    "realpath",
    // string.h
    "memmove", "memcmp", "memchr", "strcpy", "strncpy", "strcat", "strncat", "strcmp", "strncmp", "strchr",
    "strrchr", "strstr", "strlen", "strtok", "strerror", "strdup", "strndup", "strspn", "strcspn", "strpbrk",
    "strcoll", "strxfrm",
    // MLIR's runner-utils print functions (the emitted runtime defines them)
    "printMemrefF32", "printMemrefF64", "printMemrefI32", "printMemrefI64", "printF32", "printF64", "printI64",
    "printU64", "printNewline", "printComma", "printOpen", "printClose",
];

/// Prefixes of whole families of reserved names: lf's own, the
/// implementation's (`__`), the CUDA and OpenCL APIs and the built-in
/// function families of OpenCL C and CUDA.
const RESERVED_PREFIXES: &[&str] = &[
    "lf_",
    "LF_",
    "__",
    "cuda",
    "cl_",
    "CL_",
    "CU_",
    "convert_",
    "as_",
    "vload",
    "vstore",
    "atomic",
    "atom_",
    "read_image",
    "write_image",
    "get_image",
    "async_work_group",
    "make_",
];

/// The scalar types of CUDA's and OpenCL C's vector types (`float4`,
/// `uchar16`, `longlong2`).
const VECTOR_BASES: &[&str] = &[
    "char",
    "uchar",
    "short",
    "ushort",
    "int",
    "uint",
    "long",
    "ulong",
    "longlong",
    "ulonglong",
    "float",
    "double",
    "half",
    "bool",
];

/// Whether a kernel or host function may not be emitted under `name`: a
/// keyword, a name the headers or built-ins of C, C++, CUDA or OpenCL C
/// declare, or one of the families (prefixes `lf_`, `LF_`, `__`, `_` and a
/// capital, `cuda`, `cu`/`cl` and a capital, `cl_`, `CL_`, `CU_`, the OpenCL
/// and CUDA built-in families such as `convert_*`, `as_*`, `atomic*`,
/// `make_*`; the suffix `_t`; vector types such as `float4`; the `f` and `l`
/// variants of math functions; names without a lower-case letter, which
/// macros use: `NULL`, `INFINITY`).
pub fn is_reserved(name: &str) -> bool {
    let capital_after = |p: &str| {
        name.strip_prefix(p)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    let vector = || {
        VECTOR_BASES.iter().any(|b| {
            name.strip_prefix(b)
                .is_some_and(|r| !r.is_empty() && r.bytes().all(|c| c.is_ascii_digit()))
        })
    };
    let math_variant = || {
        name.strip_suffix(['f', 'l'])
            .is_some_and(|base| RESERVED_SYMBOLS.contains(&base))
    };
    RESERVED_SYMBOLS.contains(&name)
        || RESERVED_PREFIXES.iter().any(|p| name.starts_with(p))
        || capital_after("_")
        || capital_after("cu")
        || capital_after("cl")
        || name.ends_with("_t")
        || !name.bytes().any(|c| c.is_ascii_lowercase())
        || vector()
        || math_variant()
}

/// Whether `name` is a C identifier.
fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// `name` with every character that cannot be in a C identifier replaced by `_`.
fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect()
}

/// The names of the emitters' own helpers and globals, which a renamed
/// symbol must not take.
const RUNTIME_NAMES: &[&str] = &[
    "lf_main",
    "lf_host_alloc",
    "lf_elem_kind",
    "lf_print_elem",
    "lf_print_spaces",
    "lf_print_level",
    "lf_print_memref",
    "lf_floordiv",
    "lf_ceildiv",
    "lf_mod",
    "lf_floordiv64",
    "lf_ceildiv64",
    "lf_mod64",
    "lf_cl_context",
    "lf_cl_queue",
    "lf_cl_program",
    "lf_cl_device",
    "lf_cl_init",
    "lf_cl_finish",
    "lf_kernel_source",
    "lf_err",
    "lf_sizes",
    "lf_bits",
];

/// The C names of a module's kernels and host functions (see the module
/// documentation for the rules).
#[derive(Debug, Default)]
pub struct Symbols {
    kernels: FxHashMap<(String, String), String>,
    funcs: FxHashMap<String, String>,
    taken: FxHashSet<String>,
}

impl Symbols {
    /// Names the kernels `(gpu.module, gpu.func)` and then the host
    /// functions, each in program order.
    pub fn new<'n>(
        kernels: impl IntoIterator<Item = (&'n str, &'n str)>,
        funcs: impl IntoIterator<Item = &'n str>,
    ) -> Symbols {
        let mut s = Symbols {
            taken: RUNTIME_NAMES.iter().map(|n| n.to_string()).collect(),
            ..Symbols::default()
        };
        for (module, kernel) in kernels {
            let key = (module.to_string(), kernel.to_string());
            if s.kernels.contains_key(&key) {
                continue;
            }
            let c = s.claim(kernel, || format!("lf_{}_{}", sanitize(module), sanitize(kernel)));
            s.kernels.insert(key, c);
        }
        for f in funcs {
            if s.funcs.contains_key(f) {
                continue;
            }
            let c = if f == "main" {
                "lf_main".to_string()
            } else {
                s.claim(f, || format!("lf_{}", sanitize(f)))
            };
            s.funcs.insert(f.to_string(), c);
        }
        s
    }

    /// `name` when it is free, else `renamed()`, suffixed with `_1`, `_2`,
    /// ... until free; taken.
    fn claim(&mut self, name: &str, renamed: impl FnOnce() -> String) -> String {
        let mut c = if is_identifier(name) && !is_reserved(name) && !self.taken.contains(name) {
            name.to_string()
        } else {
            renamed()
        };
        if self.taken.contains(&c) {
            let base = c.clone();
            let mut n = 1;
            while self.taken.contains(&c) {
                c = format!("{base}_{n}");
                n += 1;
            }
        }
        self.taken.insert(c.clone());
        c
    }

    /// The C name of kernel `@module::@name`.
    pub fn kernel(&self, module: &str, name: &str) -> Option<&str> {
        self.kernels
            .get(&(module.to_string(), name.to_string()))
            .map(|s| s.as_str())
    }

    /// The C name of host function `@name`.
    pub fn func(&self, name: &str) -> Option<&str> {
        self.funcs.get(name).map(|s| s.as_str())
    }

    /// Whether a symbol (or an emitter helper) has the C name `c`.
    pub fn is_taken(&self, c: &str) -> bool {
        self.taken.contains(c)
    }
}

/// `text` safe inside a C comment (no `*/`, no line break).
pub fn comment_safe(text: &str) -> String {
    text.replace("*/", "* /").replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names_of_issue_25_are_renamed() {
        let names = [
            "size_t",
            "true",
            "NULL",
            "float4",
            "_Bool",
            "INFINITY",
            "new",
            "class",
            "template",
            "int64_t",
            "memcpy",
            "exit",
            "stdin",
            "dim3",
            "cudaMalloc",
            "LF_CUDA_CHECK",
            "mix",
            "main",
            "lf_x",
            "__x",
            "sqrtf",
            "clCreateBuffer",
            "cuLaunchKernel",
            "printF32",
            "uchar16",
            "convert_int",
            "K",
        ];
        for n in names {
            assert!(is_reserved(n), "{n} is not reserved");
        }
        for n in [
            "fig3_kernel",
            "saxpy",
            "matmul_tiled",
            "k",
            "f_kernel",
            "stencil",
            "floats",
            "classify",
        ] {
            assert!(!is_reserved(n), "{n} is reserved");
        }
        let s = Symbols::new(
            [
                ("m", "float4"),
                ("fig3_kernel", "fig3_kernel"),
                ("fig3_kernel_0", "fig3_kernel"),
                ("m", "a b"),
                ("m", "lf_m_float4"),
            ],
            ["main", "exit", "helper", "fig3_kernel", "lf_exit"],
        );
        assert_eq!(s.kernel("m", "float4"), Some("lf_m_float4"));
        assert_eq!(s.kernel("fig3_kernel", "fig3_kernel"), Some("fig3_kernel"));
        assert_eq!(
            s.kernel("fig3_kernel_0", "fig3_kernel"),
            Some("lf_fig3_kernel_0_fig3_kernel")
        );
        assert_eq!(s.kernel("m", "a b"), Some("lf_m_a_b"));
        // A reserved (lf_) name renamed onto a taken name: the next free suffix.
        assert_eq!(s.kernel("m", "lf_m_float4"), Some("lf_m_lf_m_float4"));
        assert_eq!(s.func("main"), Some("lf_main"));
        assert_eq!(s.func("exit"), Some("lf_exit"));
        assert_eq!(s.func("helper"), Some("helper"));
        assert_eq!(s.func("fig3_kernel"), Some("lf_fig3_kernel"));
        assert_eq!(s.func("lf_exit"), Some("lf_lf_exit"));
        assert!(s.is_taken("lf_host_alloc"));
    }

    #[test]
    fn collisions_get_the_first_free_suffix() {
        let s = Symbols::new([("a_b", "c"), ("a", "b_c"), ("x", "c")], ["c", "lf_a_b_c"]);
        assert_eq!(s.kernel("a_b", "c"), Some("c"));
        assert_eq!(s.kernel("a", "b_c"), Some("b_c"));
        assert_eq!(s.kernel("x", "c"), Some("lf_x_c"));
        assert_eq!(s.func("c"), Some("lf_c"));
        assert_eq!(s.func("lf_a_b_c"), Some("lf_lf_a_b_c"));
        let t = Symbols::new([("a_b", "int"), ("a", "b_int")], []);
        assert_eq!(t.kernel("a_b", "int"), Some("lf_a_b_int"));
        assert_eq!(t.kernel("a", "b_int"), Some("b_int"));
        let u = Symbols::new([("a_b", "int"), ("a", "b int")], []);
        assert_eq!(u.kernel("a", "b int"), Some("lf_a_b_int_1"));
    }
}
