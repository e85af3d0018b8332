//! The host runtime written into every emitted program: the MLIR runner-utils
//! print functions (`printMemrefF32` and friends, with mlir-runner's exact
//! output format) and allocation helpers. Valid C and C++.

/// The runtime source.
pub const HOST_RUNTIME: &str = r#"/* ---- lf host runtime: MLIR runner-utils printing (same output as mlir-runner) ---- */
static inline void *lf_host_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) { fprintf(stderr, "lf: out of host memory (%zu bytes)\n", bytes); exit(1); }
  return p;
}

enum lf_elem_kind { LF_F32, LF_F64, LF_I32, LF_I64 };

static inline void lf_print_elem(const void *base, int kind, int64_t i) {
  switch (kind) {
  case LF_F32: printf("%g", (double)((const float *)base)[i]); break;
  case LF_F64: printf("%g", ((const double *)base)[i]); break;
  case LF_I32: printf("%d", (int)((const int32_t *)base)[i]); break;
  default: printf("%lld", (long long)((const int64_t *)base)[i]); break;
  }
}

static inline void lf_print_spaces(int64_t n) {
  for (int64_t i = 0; i < n; i++) putchar(' ');
}

/* One level of the nested-bracket dump: dim counts down from rank to 0. */
static inline void lf_print_level(const void *base, int kind, int64_t dim, int64_t rank, int64_t offset,
                           const int64_t *sizes, const int64_t *strides) {
  if (dim == 0) { lf_print_elem(base, kind, offset); return; }
  printf("[");
  lf_print_level(base, kind, dim - 1, rank, offset, sizes + 1, strides + 1);
  if (sizes[0] <= 1) { printf("]"); return; }
  printf(", ");
  if (dim > 1) printf("\n");
  for (int64_t i = 1; i + 1 < sizes[0]; i++) {
    lf_print_spaces(rank - dim + 1);
    lf_print_level(base, kind, dim - 1, rank, offset + i * strides[0], sizes + 1, strides + 1);
    printf(", ");
    if (dim > 1) printf("\n");
  }
  lf_print_spaces(rank - dim + 1);
  lf_print_level(base, kind, dim - 1, rank, offset + (sizes[0] - 1) * strides[0], sizes + 1, strides + 1);
  printf("]");
}

static inline void lf_print_memref(const void *base, int kind, int64_t rank, const int64_t *sizes) {
  int64_t strides[16];
  int64_t s = 1;
  for (int64_t d = rank - 1; d >= 0; d--) { strides[d] = s; s *= sizes[d]; }
  printf("Unranked Memref base@ = %p rank = %lld offset = 0 sizes = [", base, (long long)rank);
  for (int64_t d = 0; d < rank; d++) printf(d ? ", %lld" : "%lld", (long long)sizes[d]);
  printf("] strides = [");
  for (int64_t d = 0; d < rank; d++) printf(d ? ", %lld" : "%lld", (long long)strides[d]);
  printf("] data = \n");
  if (rank == 0) { printf("["); lf_print_elem(base, kind, 0); printf("]"); }
  else lf_print_level(base, kind, rank, rank, 0, sizes, strides);
  printf("\n");
  fflush(stdout);
}

static inline void printMemrefF32(const float *p, int64_t rank, const int64_t *sizes) { lf_print_memref(p, LF_F32, rank, sizes); }
static inline void printMemrefF64(const double *p, int64_t rank, const int64_t *sizes) { lf_print_memref(p, LF_F64, rank, sizes); }
static inline void printMemrefI32(const int32_t *p, int64_t rank, const int64_t *sizes) { lf_print_memref(p, LF_I32, rank, sizes); }
static inline void printMemrefI64(const int64_t *p, int64_t rank, const int64_t *sizes) { lf_print_memref(p, LF_I64, rank, sizes); }
static inline void printF32(float f) { printf("%g", (double)f); }
static inline void printF64(double f) { printf("%g", f); }
static inline void printI64(int64_t i) { printf("%lld", (long long)i); }
static inline void printU64(uint64_t u) { printf("%llu", (unsigned long long)u); }
static inline void printNewline(void) { printf("\n"); fflush(stdout); }
static inline void printComma(void) { printf(", "); }
static inline void printOpen(void) { printf("( "); }
static inline void printClose(void) { printf(" )"); }
/* ---- end of lf host runtime ---- */
"#;

/// The runtime functions a host `func.call` may name, with the element type
/// of their memref argument (`None`: scalar or no argument).
pub fn runtime_function(name: &str) -> Option<Option<&'static str>> {
    Some(match name {
        "printMemrefF32" => Some("f32"),
        "printMemrefF64" => Some("f64"),
        "printMemrefI32" => Some("i32"),
        "printMemrefI64" => Some("i64"),
        "printF32" | "printF64" | "printI64" | "printU64" | "printNewline" | "printComma" | "printOpen"
        | "printClose" => None,
        _ => return None,
    })
}
