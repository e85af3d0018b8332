//! `lf-opt`: parse, verify, transform and print lf IR.
//!
//! lf-opt allocates with jemalloc rather than the system allocator: with
//! glibc's, threads that parse, verify and print functions in parallel
//! contend on its arenas and on the address-space lock its arenas take to
//! grow a page at a time. jemalloc made the benchmark's 1M-op round trip
//! about 12% faster on two threads (bench/RESULTS.md, docs/design/ir.md).
//! mimalloc was measured against it and not kept: faster on the 100k-op
//! pass runs with its defaults, but with a 45% higher peak on the 1M-op
//! round trip, and no faster once tuned to jemalloc's peak (docs/design/ir.md).

#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read at its first allocation: hand freed pages back
/// to the OS after 200 ms instead of the default 10 s, which keeps the peak
/// resident size of a long run close to what it uses; and one arena per CPU
/// rather than per thread (the parse workers, the pass threads and the main
/// thread no longer each keep partly used pages of their own: canonicalize+cse
/// on the 1M-op benchmark peaked 15 MB lower, at the same speed).
/// `MALLOC_CONF`-style options in the `_RJEM_MALLOC_CONF` environment
/// variable still apply.
#[cfg(not(target_env = "msvc"))]
#[unsafe(export_name = "_rjem_malloc_conf")]
static MALLOC_CONF: ConfString = ConfString(c"dirty_decay_ms:200,percpu_arena:percpu".as_ptr());

/// A C string for jemalloc to read (`const char *`).
#[cfg(not(target_env = "msvc"))]
#[repr(transparent)]
struct ConfString(*const std::ffi::c_char);

// SAFETY: the pointer is to a string literal, immutable for the program's life.
#[cfg(not(target_env = "msvc"))]
unsafe impl Sync for ConfString {}

fn main() {
    std::process::exit(lf_tools::opt::main());
}
